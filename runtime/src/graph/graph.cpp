// CPU graph capture. Invariant: a tape node only ever touches buffers that existed when it was
// recorded (the OpCall holds them), so replay performs no allocation, no shape check and no
// dispatch; control flow (cond, while_loop) is a node that owns sub-tapes and reads its
// predicate when it runs. A capture frame stack (thread-local) makes capture re-entrant for
// those sub-tapes while refusing user-level nesting.
#include <graphify/core/Backend.h>
#include <graphify/core/Functions.h>
#include <graphify/graph/Graph.h>

#include "DeviceGraph.h"
#include "Tape.h"

#include <algorithm>
#include <iostream>
#include <unordered_map>

namespace gfy {
namespace detail {

Scalar read_scalar(const TensorImpl &t, int64_t linear);

namespace {
enum class Mode { Capture, Trace };
struct Frame {
  Tape *tape;
  Mode mode;
  bool device_body = false; ///< the body of a CUDA conditional node (cond/while_loop on the device)
};
thread_local std::vector<Frame> g_frames;
thread_local Tape *g_root = nullptr; ///< the user-level graph (warnings go there)

/// Pushes a frame for the duration of a scope, popping it even when the user's code throws.
struct FrameGuard {
  FrameGuard(Tape *t, Mode m, bool device_body = false) { g_frames.push_back({t, m, device_body}); }
  ~FrameGuard() { g_frames.pop_back(); }
  FrameGuard(const FrameGuard &) = delete;
  FrameGuard &operator=(const FrameGuard &) = delete;
};

/// The post-capture passes in the order they run. The order matters: the products the linear
/// combinations leave (`x_t·W + b` per step) are what the batching sees; the fused sums are the
/// intermediates compute_in_outputs moves; fused elementwise nodes are opaque to the passes before.
struct Pass {
  const char *name;
  int64_t (*run)(Tape &);
};
constexpr Pass kPasses[] = {
    {"linear-combinations", fuse_linear_combinations}, {"batched-products", batch_shared_weight_products},
    {"conv-epilogues", fuse_conv_epilogues},           {"compute-in-outputs", compute_in_outputs},
    {"elementwise", fuse_elementwise},
};

void check_pass_names(const CaptureOptions &options) {
  for (const std::string &name : options.skip_passes) {
    const bool known = std::any_of(std::begin(kPasses), std::end(kPasses), [&](const Pass &p) { return name == p.name; });
    if (known) continue;
    std::string names;
    for (const Pass &p : kPasses) names += std::string(names.empty() ? "" : ", ") + p.name;
    GFY_CHECK(false, "CaptureOptions::skip_passes: unknown pass '", name, "' (the passes are: ", names, ")");
  }
}

Graph run_capture(const std::function<void()> &fn, Mode mode, const CaptureOptions &options) {
  GFY_CHECK(g_frames.empty(), mode == Mode::Capture ? "capture()" : "trace()",
            " cannot be nested inside another capture or trace");
  check_pass_names(options);
  auto tape = std::make_shared<Tape>();
  g_root = tape.get();
  struct RootReset {
    ~RootReset() { g_root = nullptr; }
  } reset;
  {
    FrameGuard guard(tape.get(), mode);
    try {
      fn();
    } catch (...) {
      if (tape->device) tape->device->abort(); // the stream must not stay in capture mode
      throw;
    }
  }
  if (tape->device) tape->device->end();
  if (options.optimize)
    for (const Pass &p : kPasses)
      if (std::find(options.skip_passes.begin(), options.skip_passes.end(), p.name) == options.skip_passes.end())
        p.run(*tape);
  plan_memory(*tape);
  return Graph(tape);
}

/// Reads a one-element CPU predicate without the host-read check: only control-flow nodes and
/// eager control flow use it, which is their whole point.
bool read_predicate(const Tensor &pred) {
  GFY_CHECK(pred.defined(), "cond/while_loop: predicate is an undefined tensor");
  GFY_CHECK(pred.numel() == 1, "cond/while_loop: predicate must have exactly one element, got ", pred.numel());
  if (pred.is_cpu()) return read_scalar(*pred.unsafeGetTensorImpl(), 0).toBool();
  // A device predicate outside stream capture (eager, or a trace's tape): one host copy of its
  // element, through the backend so that no op is recorded. One element: data() is its address.
  Tensor host = make_tensor({}, pred.scalar_type(), Device(kCPU));
  backend_for(pred.device().type())
      .copy_to_host(host.unsafeGetTensorImpl()->data(), pred.unsafeGetTensorImpl()->data(),
                    element_size(pred.scalar_type()));
  return read_scalar(*host.unsafeGetTensorImpl(), 0).toBool();
}

/// A prepared copy kernel launch (no recording): used inside control-flow nodes.
struct CopyCall {
  Backend *backend;
  std::shared_ptr<OpCall> call;
  void operator()() const { backend->compute(*call); }
};
CopyCall make_copy(const Tensor &dst, const Tensor &src) {
  auto c = std::make_shared<OpCall>();
  c->op = OpId::copy;
  c->in = {src};
  c->out = {dst};
  return {&backend_for(dst.device().type()), c};
}

void check_same_signature(const std::vector<Tensor> &a, const std::vector<Tensor> &b, const char *what,
                          const char *an, const char *bn) {
  GFY_CHECK(a.size() == b.size(), what, ": ", an, " returns ", int64_t(a.size()), " tensors but ", bn, " returns ",
            int64_t(b.size()));
  for (size_t i = 0; i < a.size(); ++i) {
    GFY_CHECK(a[i].defined() && b[i].defined(), what, ": output ", int64_t(i), " is undefined");
    GFY_CHECK(a[i].sizes() == b[i].sizes() && a[i].scalar_type() == b[i].scalar_type(), what, ": output ",
              int64_t(i), " is ", a[i].sizes(), " ", to_string(a[i].scalar_type()), " in ", an, " but ", b[i].sizes(),
              " ", to_string(b[i].scalar_type()), " in ", bn, "; a graph needs both to agree");
  }
}

/// cond on a CUDA predicate under capture: an IF node pair of the CUDA graph. Each branch is
/// recorded into its own body graph, not run; the outputs are allocated by the then-body (from the
/// graph's private pool) and written by a copy in each body, so only the taken branch runs.
std::vector<Tensor> cond_on_device(const Tensor &pred, const std::function<std::vector<Tensor>()> &then_fn,
                                   const std::function<std::vector<Tensor>()> &else_fn);
/// while_loop on CUDA state under capture: a WHILE node; the state lives in buffers the body
/// updates in place (copy_), which are the loop's outputs.
std::vector<Tensor> while_on_device(const std::function<Tensor(const std::vector<Tensor> &)> &cond_fn,
                                    const std::function<std::vector<Tensor>(const std::vector<Tensor> &)> &body_fn,
                                    const std::vector<Tensor> &state);
} // namespace

void prepare_captured_op(Device device) {
  if (g_frames.empty() || g_frames.front().mode != Mode::Capture || g_root == nullptr) return;
  bool in_device_body = false, in_host_body = false;
  for (size_t i = 1; i < g_frames.size(); ++i) (g_frames[i].device_body ? in_device_body : in_host_body) = true;
  if (device.is_cpu()) {
    GFY_CHECK(!in_device_body, "a cond/while_loop on CUDA tensors cannot run CPU ops inside a captured graph (a CUDA "
                               "conditional node holds device work only); keep its branches and state on the device");
    return;
  }
  GFY_CHECK(!in_host_body, "a cond/while_loop on a CPU predicate cannot hold ", device.str(),
            " ops inside a captured graph (the device work would run on both branches); compute the predicate on "
            "the device");
  if (!g_root->device) g_root->device = std::make_shared<DeviceGraph>();
  g_root->device->begin_if_needed();
}

void record(std::function<void()> node, std::shared_ptr<OpCall> call) {
  if (g_frames.empty()) return;
  if (call && g_root && g_root->device && g_root->device->capturing()) {
    const Tensor &first = call->out.empty() ? call->in.front() : call->out.front();
    if (!first.is_cpu()) {
      g_root->device->keep(std::move(call)); // recorded by stream capture; its buffers live with the graph
      return;
    }
  }
  Tape *t = g_frames.back().tape;
  t->nodes.push_back(std::move(node));
  t->calls.push_back(std::move(call));
}

void on_host_read(const char *op, const std::source_location &loc) {
  if (g_frames.empty()) return;
  if (g_frames.back().mode == Mode::Capture)
    throw CaptureError(op, loc,
                       "reads a tensor value on the host, which cannot happen inside a captured graph; keep the value "
                       "on the device (gfy::where, gfy::cond) or move the read out of the captured region "
                       "[graphify-host-sync]");
  const std::string msg = str_cat(loc.file_name(), ":", loc.line(), ": warning: ", op,
                                  " converts a tensor to a host value; the trace records it as a constant, so the "
                                  "traced graph might not generalize to other inputs (TracerWarning)");
  std::cerr << msg << "\n";
  if (g_root) g_root->warnings.push_back(msg);
}

void on_host_to_device_copy(const char *op, const std::source_location &loc) {
  if (g_frames.empty() || g_frames.back().mode != Mode::Capture) return;
  throw CaptureError(op, loc,
                     "copies a tensor built in pageable host memory inside the region to the device, which "
                     "synchronises with the host and cannot be captured in a CUDA graph; create it on the device (a "
                     "factory given x.options() or the device) or once before the region [graphify-host-sync]");
}

Device factory_default_device() {
  Device d(kCPU);
  d.pageable_host_ = !g_frames.empty();
  return d;
}

void on_dynamic_shape(const char *op, const std::source_location &loc) {
  if (g_frames.empty()) return;
  throw CaptureError(op, loc,
                     "produces a tensor whose shape depends on tensor values, which a graph with static buffers "
                     "cannot hold; use a fixed-size form (a mask with gfy::where / masked_fill_, or "
                     "argsort(stable=true) + index_select) [graphify-dynamic-shape]");
}

} // namespace detail

using namespace detail;

void Graph::replay() const {
  GFY_CHECK(tape_ != nullptr, "replay() on an empty Graph");
  GFY_CHECK(g_frames.empty(), "replay() cannot run while a graph is being captured");
  tape_->run();
  if (tape_->device) tape_->device->replay();
}
size_t Graph::num_nodes() const {
  return tape_ ? tape_->nodes.size() + (tape_->device ? tape_->device->num_nodes() : 0) : 0;
}
size_t Graph::pool_bytes() const { return tape_ && tape_->pool ? tape_->pool->nbytes : 0; }
const std::vector<std::string> &Graph::warnings() const {
  static const std::vector<std::string> none;
  return tape_ ? tape_->warnings : none;
}

Graph capture(const std::function<void()> &fn, const CaptureOptions &options) {
  return run_capture(fn, Mode::Capture, options);
}
Graph trace(const std::function<void()> &fn, const CaptureOptions &options) {
  return run_capture(fn, Mode::Trace, options);
}
const std::vector<std::string> &optimization_passes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Pass &p : kPasses) v.push_back(p.name);
    return v;
  }();
  return names;
}
bool is_capturing() { return !g_frames.empty(); }
bool is_tracing() { return !g_frames.empty() && g_frames.back().mode == Mode::Trace; }

std::vector<Tensor> cond(const Tensor &pred, const std::function<std::vector<Tensor>()> &then_fn,
                         const std::function<std::vector<Tensor>()> &else_fn) {
  if (g_frames.empty()) return read_predicate(pred) ? then_fn() : else_fn();
  GFY_CHECK(pred.defined() && pred.numel() == 1, "cond: predicate must have exactly one element");
  const Mode mode = g_frames.back().mode;
  if (mode == Mode::Capture && !pred.is_cpu()) return cond_on_device(pred, then_fn, else_fn);
  auto then_tape = std::make_shared<Tape>(), else_tape = std::make_shared<Tape>();
  std::vector<Tensor> then_out, else_out;
  {
    FrameGuard g(then_tape.get(), mode);
    then_out = then_fn();
  }
  {
    FrameGuard g(else_tape.get(), mode);
    else_out = else_fn();
  }
  check_same_signature(then_out, else_out, "cond", "then_fn", "else_fn");
  std::vector<Tensor> outs;
  std::vector<CopyCall> from_then, from_else;
  for (size_t i = 0; i < then_out.size(); ++i) {
    outs.push_back(make_tensor(then_out[i].sizes(), then_out[i].scalar_type(), then_out[i].device()));
    from_then.push_back(make_copy(outs.back(), then_out[i]));
    from_else.push_back(make_copy(outs.back(), else_out[i]));
  }
  auto node = [pred, then_tape, else_tape, from_then, from_else] {
    const bool p = read_predicate(pred);
    (p ? then_tape : else_tape)->run();
    for (const auto &c : p ? from_then : from_else) c();
  };
  // Both branches already ran once (to fix shapes); select the live one for the capture-time value.
  for (const auto &c : read_predicate(pred) ? from_then : from_else) c();
  record(node);
  return outs;
}

Tensor cond(const Tensor &pred, const std::function<Tensor()> &then_fn, const std::function<Tensor()> &else_fn) {
  return cond(pred, std::function<std::vector<Tensor>()>([&] { return std::vector<Tensor>{then_fn()}; }),
              std::function<std::vector<Tensor>()>([&] { return std::vector<Tensor>{else_fn()}; }))
      .at(0);
}

std::vector<Tensor> while_loop(const std::function<Tensor(const std::vector<Tensor> &)> &cond_fn,
                               const std::function<std::vector<Tensor>(const std::vector<Tensor> &)> &body_fn,
                               std::vector<Tensor> state) {
  if (g_frames.empty()) {
    while (read_predicate(cond_fn(state))) {
      std::vector<Tensor> next = body_fn(state);
      check_same_signature(state, next, "while_loop", "the state", "body_fn");
      state = std::move(next);
    }
    return state;
  }
  const Mode mode = g_frames.back().mode;
  if (mode == Mode::Capture &&
      std::any_of(state.begin(), state.end(), [](const Tensor &s) { return s.defined() && !s.is_cpu(); }))
    return while_on_device(cond_fn, body_fn, state);
  // Loop-carried buffers: the graph's outputs. Initialised from `state` on every run of the node.
  std::vector<Tensor> carried;
  std::vector<CopyCall> init, back;
  for (const Tensor &s : state) {
    GFY_CHECK(s.defined(), "while_loop: state contains an undefined tensor");
    carried.push_back(make_tensor(s.sizes(), s.scalar_type(), s.device()));
    init.push_back(make_copy(carried.back(), s));
  }
  for (const auto &c : init) c();
  auto cond_tape = std::make_shared<Tape>(), body_tape = std::make_shared<Tape>();
  Tensor pred;
  std::vector<Tensor> body_out;
  {
    FrameGuard g(cond_tape.get(), mode);
    pred = cond_fn(carried);
  }
  GFY_CHECK(pred.defined() && pred.numel() == 1, "while_loop: cond_fn must return a one-element tensor");
  {
    FrameGuard g(body_tape.get(), mode);
    body_out = body_fn(carried);
  }
  check_same_signature(state, body_out, "while_loop", "the state", "body_fn");
  for (size_t i = 0; i < carried.size(); ++i) back.push_back(make_copy(carried[i], body_out[i]));
  auto node = [init, back, cond_tape, body_tape, pred] {
    for (const auto &c : init) c();
    while (true) {
      cond_tape->run();
      if (!read_predicate(pred)) break;
      body_tape->run();
      for (const auto &c : back) c();
    }
  };
  node(); // the capture-time result
  record(node);
  return carried;
}

namespace detail {
namespace {

void require_device_conditionals(const char *what) {
  GFY_CHECK(device_conditionals_available(), what,
            " on CUDA tensors under capture needs CUDA conditional graph nodes (CUDA runtime and driver 12.4 or newer)");
}

std::vector<Tensor> cond_on_device(const Tensor &pred, const std::function<std::vector<Tensor>()> &then_fn,
                                   const std::function<std::vector<Tensor>()> &else_fn) {
  require_device_conditionals("cond");
  prepare_captured_op(pred.device()); // begins the CUDA capture if the predicate is its first CUDA work
  Tape *tape = g_frames.back().tape;
  std::vector<Tensor> outs;
  device_if(
      pred,
      [&] {
        FrameGuard g(tape, Mode::Capture, /*device_body=*/true);
        for (const Tensor &v : then_fn()) {
          GFY_CHECK(v.defined(), "cond: an output of then_fn is undefined");
          outs.push_back(make_tensor(v.sizes(), v.scalar_type(), v.device()));
          outs.back().copy_(v);
        }
      },
      [&] {
        FrameGuard g(tape, Mode::Capture, /*device_body=*/true);
        const std::vector<Tensor> e = else_fn();
        check_same_signature(outs, e, "cond", "then_fn", "else_fn");
        for (size_t i = 0; i < outs.size(); ++i) outs[i].copy_(e[i]);
      });
  return outs;
}

std::vector<Tensor> while_on_device(const std::function<Tensor(const std::vector<Tensor> &)> &cond_fn,
                                    const std::function<std::vector<Tensor>(const std::vector<Tensor> &)> &body_fn,
                                    const std::vector<Tensor> &state) {
  require_device_conditionals("while_loop");
  Tape *tape = g_frames.back().tape;
  std::vector<Tensor> carried;
  for (const Tensor &s : state) {
    GFY_CHECK(s.defined(), "while_loop: state contains an undefined tensor");
    carried.push_back(make_tensor(s.sizes(), s.scalar_type(), s.device()));
    carried.back().copy_(s); // recorded in the enclosing graph: every replay starts from `state`
  }
  device_while(
      [&] {
        FrameGuard g(tape, Mode::Capture, /*device_body=*/true);
        Tensor p = cond_fn(carried);
        GFY_CHECK(p.defined() && p.numel() == 1, "while_loop: cond_fn must return a one-element tensor");
        return p;
      },
      [&] {
        FrameGuard g(tape, Mode::Capture, /*device_body=*/true);
        const std::vector<Tensor> next = body_fn(carried);
        check_same_signature(state, next, "while_loop", "the state", "body_fn");
        for (size_t i = 0; i < carried.size(); ++i) carried[i].copy_(next[i]);
      });
  return carried;
}

} // namespace
} // namespace detail

} // namespace gfy
