// See DeviceGraph.h. The capture functions come from the CUDA backend through a table it sets
// when it registers; the core never names a CUDA symbol.
#include "DeviceGraph.h"

#include <graphify/core/Functions.h>

#include <atomic>

namespace gfy::detail {

namespace {
std::atomic<const DeviceCaptureHooks *> g_hooks{nullptr};

const DeviceCaptureHooks &hooks() {
  const DeviceCaptureHooks *h = g_hooks.load(std::memory_order_acquire);
  GFY_CHECK(h != nullptr, "internal error: a CUDA op under capture, but the CUDA backend lent no capture functions");
  return *h;
}
} // namespace

void set_device_capture_hooks(const DeviceCaptureHooks *h) { g_hooks.store(h, std::memory_order_release); }

DeviceGraph::~DeviceGraph() { abort(); }

void DeviceGraph::begin_if_needed() {
  if (hooks().capturing()) return; // ours, or the user's own CaptureSession around capture()
  GFY_CHECK(!session_, "internal error: a graph's CUDA capture cannot be begun twice");
  session_ = hooks().begin();
}

bool DeviceGraph::capturing() const {
  const DeviceCaptureHooks *h = g_hooks.load(std::memory_order_acquire);
  return h && h->capturing();
}

void DeviceGraph::end() {
  if (session_ && !ended_) {
    ended_ = true;
    hooks().end(session_.get());
  }
}

void DeviceGraph::abort() noexcept {
  if (session_ && !ended_) {
    ended_ = true;
    if (const DeviceCaptureHooks *h = g_hooks.load(std::memory_order_acquire)) h->abort(session_.get());
  }
}

void DeviceGraph::replay() const {
  if (session_ && ended_) hooks().replay(session_.get());
}

size_t DeviceGraph::num_nodes() const { return session_ && ended_ ? hooks().num_nodes(session_.get()) : 0; }

bool device_conditionals_available() {
  const DeviceCaptureHooks *h = g_hooks.load(std::memory_order_acquire);
  return h && h->conditionals();
}

void device_if(const Tensor &pred, const std::function<void()> &then_body, const std::function<void()> &else_body) {
  hooks().capture_if(pred, then_body, else_body);
}

void device_while(const std::function<Tensor()> &cond_fn, const std::function<void()> &body) {
  hooks().capture_while(cond_fn, body);
}

} // namespace gfy::detail
