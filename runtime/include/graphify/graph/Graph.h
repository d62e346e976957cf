#pragma once
/// \file
/// Graph capture and replay (CPU tapes; CUDA ops are recorded by stream capture, docs/runtime.md).
///
/// While `capture(fn)` runs `fn`, every op still executes eagerly (so `fn` sees real values and
/// real shapes) and additionally appends its kernel launch to a tape. Tensors made during capture
/// are the graph's static buffers: `replay()` re-runs the kernels on the same buffers with no
/// dispatch, shape checks or allocation, so writing new data into a captured input (`copy_`)
/// and replaying refreshes every captured output in place.
///
/// \code
///   gfy::Tensor in = gfy::randn({8, 16}), out;
///   gfy::Graph g = gfy::capture([&] { out = model(in); });
///   in.copy_(next_batch);
///   g.replay();                       // `out` now holds model(next_batch)
/// \endcode
///
/// Ops that need values on the host (item, nonzero, boolean-mask indexing, ...) throw
/// gfy::CaptureError naming the op and the caller's file:line. `trace(fn)` is lenient like
/// torch.jit.trace: host reads are frozen as constants with a located warning.

#include <graphify/core/Tensor.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gfy {

struct OpCall;
namespace detail {
struct Tape;
}

/// A recorded tape of kernel launches. Cheap to copy (shared).
class Graph {
public:
  Graph() = default;
  explicit Graph(std::shared_ptr<detail::Tape> tape) : tape_(std::move(tape)) {}
  /// Re-runs every recorded kernel, in order, on the captured buffers.
  void replay() const;
  /// Number of recorded nodes (kernel launches and control-flow nodes).
  size_t num_nodes() const;
  /// Bytes of the graph-private pool that holds the intermediates (see docs/runtime.md).
  size_t pool_bytes() const;
  /// Warnings emitted while tracing (empty for `capture`).
  const std::vector<std::string> &warnings() const;
  bool defined() const { return tape_ != nullptr; }

private:
  std::shared_ptr<detail::Tape> tape_;
};

/// How a captured tape is prepared for replay.
struct CaptureOptions {
  /// Rewrite the tape where capture knows more than eager execution (docs/runtime.md, "Graph
  /// optimizations"): sums of matrix products whose partial results nobody else reads
  /// (`x·W + h·U + b`) become GEMMs accumulating into one buffer, products sharing a weight whose
  /// inputs are known up front (`x_t·W` for every t) become one GEMM, elementwise chains and
  /// convolution epilogues are fused, and an intermediate that dies at the op writing a graph
  /// output is computed in that output. Results can differ from eager in the last bit (addition
  /// order). Off: replay runs exactly the recorded kernels.
  bool optimize = true;
  /// Passes to leave out when `optimize` is on, by the names optimization_passes() lists (to
  /// measure what each contributes, or to rule one out). An unknown name throws gfy::Error.
  std::vector<std::string> skip_passes = {};
};
/// The post-capture passes, in the order they run (docs/runtime.md, "Graph optimizations").
const std::vector<std::string> &optimization_passes();
/// Runs `fn` once eagerly while recording every op; host reads throw CaptureError.
Graph capture(const std::function<void()> &fn, const CaptureOptions &options = {});
/// torch.jit.trace semantics: like capture, but a host read (item(), is_nonzero(), equal(), ...)
/// is recorded as a constant and prints one located warning. Dynamic-shape ops still throw.
Graph trace(const std::function<void()> &fn, const CaptureOptions &options = {});
/// True inside capture() or trace().
bool is_capturing();
/// True inside trace() only.
bool is_tracing();

/// Data-dependent branch that stays in the graph. `pred` is a one-element tensor. Eagerly this
/// evaluates `pred` on the host and runs one branch. Under capture both branches are recorded as
/// sub-tapes (both run once, to fix shapes: they must agree) and a node is recorded that reads
/// `pred` at replay time and runs only the chosen branch.
/// \code
///   auto y = gfy::cond(x.sum() > 0, [&] { return x * 2; }, [&] { return x + 2; });
/// \endcode
Tensor cond(const Tensor &pred, const std::function<Tensor()> &then_fn, const std::function<Tensor()> &else_fn);
std::vector<Tensor> cond(const Tensor &pred, const std::function<std::vector<Tensor>()> &then_fn,
                         const std::function<std::vector<Tensor>()> &else_fn);

/// Data-dependent loop that stays in the graph: `while (cond_fn(state)) state = body_fn(state);`.
/// The body must keep the shapes and dtypes of the state. Returns the final state.
/// \code
///   auto out = gfy::while_loop([](const auto &s) { return s[0].sum() < 100; },
///                              [](const auto &s) { return std::vector<gfy::Tensor>{s[0] * 2}; },
///                              {x});
/// \endcode
std::vector<Tensor> while_loop(const std::function<Tensor(const std::vector<Tensor> &)> &cond_fn,
                               const std::function<std::vector<Tensor>(const std::vector<Tensor> &)> &body_fn,
                               std::vector<Tensor> state);

namespace detail {
/// Appends a node to the innermost active tape (no-op when not capturing). `call`, when given,
/// is the kernel launch the node replays; the memory planner reads its operands.
void record(std::function<void()> node, std::shared_ptr<OpCall> call = nullptr);
/// Called by every op that reads tensor values on the host. Throws CaptureError under capture;
/// under trace prints and stores one located warning and returns.
void on_host_read(const char *op, const std::source_location &loc);
/// Called by a copy to the device of a tensor in pageable host memory (Device::pageable_host_):
/// throws CaptureError under capture, where the copy would synchronise with the host; a trace
/// records the copied values as a constant, which is fine.
void on_host_to_device_copy(const char *op, const std::source_location &loc);
/// Called by every op whose output shape depends on values: throws under capture and trace.
void on_dynamic_shape(const char *op, const std::source_location &loc);
} // namespace detail

} // namespace gfy
