#pragma once
// The tape of a captured graph and what the post-capture passes need to know about it. Private to
// src/graph: capture (graph.cpp) records it, the fusion pass (FuseLinearCombinations.cpp) rewrites
// it, the memory planner (MemoryPlanner.cpp) moves its intermediates into one pool.
//
// Invariant: node i replays calls[i] when calls[i] is set (a kernel launch); a node without a call
// is a control-flow node (cond, while_loop) whose closure holds its tensors itself, so the passes
// treat it as touching anything and never move work across it.
#include <graphify/core/Backend.h>

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace gfy::detail {

class DeviceGraph;

struct Tape {
  std::vector<std::function<void()>> nodes;
  std::vector<std::shared_ptr<OpCall>> calls; ///< per node: its kernel launch, or null
  std::vector<std::string> warnings;
  std::shared_ptr<Storage> pool; ///< graph-private memory of the intermediates
  /// The CUDA ops of a capture, recorded by stream capture instead of as nodes (DeviceGraph.h);
  /// null until the first CUDA op. Only the user-level tape has one.
  std::shared_ptr<DeviceGraph> device;
  void run() const {
    for (const auto &n : nodes) n();
  }
};

/// A node that replays `call` on the backend of its first output's device.
std::function<void()> kernel_node(std::shared_ptr<OpCall> call);

/// Who touches each buffer on a tape, computed once after capture has returned (so that the only
/// remaining references to a tensor are the tape's and the user's).
class TapeAccesses {
public:
  explicit TapeAccesses(const Tape &tape);

  struct Use {
    std::vector<int64_t> nodes;  ///< every node reading or writing the storage, ascending
    std::vector<int64_t> writes; ///< the subset that writes it
    std::vector<TensorImpl *> impls;
    bool first_is_write = false; ///< its first node writes it without reading it
    bool tape_private = false;   ///< see tape_private()
  };
  /// Storages in order of first use.
  const std::vector<Storage *> &storages() const { return order_; }
  const Use &use(Storage *s) const { return uses_.at(s); }
  /// True when nothing but the tape's kernel calls holds the storage: no user handle, no view the
  /// user kept, no control-flow closure. Only such buffers may be dropped, moved or merged.
  bool tape_private(Storage *s) const;
  /// Whether any node strictly between `after` and `before` writes `s`, or is a control-flow node.
  bool written_between(Storage *s, int64_t after, int64_t before) const;
  /// Whether any node strictly between `after` and `before` touches `s` (or is control flow).
  bool touched_between(Storage *s, int64_t after, int64_t before) const;

private:
  std::unordered_map<Storage *, Use> uses_;
  std::vector<Storage *> order_;
  std::vector<int64_t> control_nodes_;
  bool control_between(int64_t after, int64_t before) const;
};

/// Whether `a` and `b` address the same elements in the same order (same storage, offset, sizes,
/// strides and dtype).
bool same_view(const Tensor &a, const Tensor &b);

/// Post-capture pass: sums of matrix products and tensors whose partial sums nobody else reads,
/// `(x·W + h·U) + b`, become GEMMs accumulating into the sum's buffer (BLAS beta = 1) after one
/// copy of `b`, so the products' own buffers and the elementwise adds disappear. Returns how many
/// nodes it removed.
int64_t fuse_linear_combinations(Tape &tape);

/// Post-capture pass: 2-d products that read the same weight (and bias) and whose left operands
/// are rows of one matrix nobody writes meanwhile (`x_t·W` for every step t) become one GEMM at the
/// first product's position; each product becomes a copy of its rows. Returns how many products
/// it batched.
int64_t batch_shared_weight_products(Tape &tape);

/// Post-capture pass: a CPU conv2d followed by an eval-mode batch_norm (and a relu) whose
/// intermediates nobody else reads becomes one convolution that applies the batch norm's affine
/// map and the relu as it stores each value. Returns how many nodes it removed.
int64_t fuse_conv_epilogues(Tape &tape);

/// Post-capture pass: runs of consecutive elementwise kernels (add sub mul div neg exp sigmoid
/// tanh relu, float or double) over one shape become one chunked loop; values that nobody outside
/// the run reads stay in registers and L1. Returns how many nodes it removed.
int64_t fuse_elementwise(Tape &tape);

/// Post-capture pass: an intermediate that dies at the node writing a graph output (a buffer the
/// user holds) is computed in that output's memory, and the node runs in place. Returns how many
/// intermediates it moved.
int64_t compute_in_outputs(Tape &tape);

/// Post-capture pass: moves the tape-private intermediates into one pool, packing those whose
/// lifetimes do not overlap into the same memory.
void plan_memory(Tape &tape);

} // namespace gfy::detail
