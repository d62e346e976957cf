// See DeviceGraph.h. The only file of the core that calls the CUDA backend's capture API; with no
// backend built it keeps the interface and is never active (no CUDA tensor can exist then).
#include "DeviceGraph.h"

#include <graphify/core/Functions.h>

#ifdef GRAPHIFY_HAVE_CUDA_BACKEND
#include <graphify/cuda/Cuda.h>
#endif

#include <optional>

namespace gfy::detail {

#ifdef GRAPHIFY_HAVE_CUDA_BACKEND

struct DeviceGraph::Session {
  std::optional<cuda::CaptureSession> own; ///< ours, when we began the capture
};

DeviceGraph::DeviceGraph() : session_(std::make_unique<Session>()) {}
DeviceGraph::~DeviceGraph() { abort(); }

void DeviceGraph::begin_if_needed() {
  if (cuda::is_stream_capturing()) return; // ours, or the user's own CaptureSession around capture()
  GFY_CHECK(!session_->own, "internal error: a graph's CUDA capture cannot be begun twice");
  session_->own.emplace();
  session_->own->begin();
}

bool DeviceGraph::capturing() const { return cuda::is_available() && cuda::is_stream_capturing(); }

void DeviceGraph::end() {
  if (session_->own && session_->own->capturing()) session_->own->end(/*launch_once=*/true);
}

void DeviceGraph::abort() noexcept {
  if (session_->own) session_->own->abort();
}

void DeviceGraph::replay() const {
  if (session_->own && session_->own->instantiated()) session_->own->replay();
}

size_t DeviceGraph::num_nodes() const {
  return session_->own && session_->own->instantiated() ? session_->own->num_nodes() : 0;
}

bool device_conditionals_available() { return cuda::is_available() && cuda::has_conditional_nodes(); }

void device_if(const Tensor &pred, const std::function<void()> &then_body, const std::function<void()> &else_body) {
  cuda::capture_if(pred, then_body, else_body);
}

void device_while(const std::function<Tensor()> &cond_fn, const std::function<void()> &body) {
  cuda::capture_while(cond_fn, body);
}

#else // no CUDA backend in this build

struct DeviceGraph::Session {};
DeviceGraph::DeviceGraph() = default;
DeviceGraph::~DeviceGraph() = default;
void DeviceGraph::begin_if_needed() {
  throw Error("internal error: a CUDA op under capture in a runtime built without its CUDA backend");
}
bool DeviceGraph::capturing() const { return false; }
void DeviceGraph::end() {}
void DeviceGraph::abort() noexcept {}
void DeviceGraph::replay() const {}
size_t DeviceGraph::num_nodes() const { return 0; }
bool device_conditionals_available() { return false; }
void device_if(const Tensor &, const std::function<void()> &, const std::function<void()> &) {
  throw Error("cond on a CUDA predicate: this runtime was built without its CUDA backend");
}
void device_while(const std::function<Tensor()> &, const std::function<void()> &) {
  throw Error("while_loop on CUDA tensors: this runtime was built without its CUDA backend");
}

#endif

} // namespace gfy::detail
