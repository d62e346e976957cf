#pragma once
/// \file
/// Reverse-mode automatic differentiation with LibTorch's API (`torch::autograd`).
///
/// An op whose input requires grad (while grad mode is on, see GradMode.h) gives its outputs a
/// `grad_fn`: a `Node` holding what the op's derivative needs (its entry in
/// src/autograd/Derivatives.cpp) and an edge to the `grad_fn` of each input, or to the
/// `AccumulateGrad` node of a leaf. `backward()` / `grad()` walk these nodes from the outputs,
/// running each derivative as ordinary runtime ops: eagerly they are kernels like any other, and
/// under `gfy::capture` they are recorded on the tape, so a captured training step replays its
/// backward pass and optimizer update with the forward.
///
/// \code
///   auto x = gfy::tensor({1.f, 2.f, 3.f}).requires_grad_();
///   auto y = (x * x).sum();
///   y.backward();                                   // x.grad() == 2 * x
///   auto gx = gfy::autograd::grad({(x * x).sum()}, {x})[0];   // 2 * x, x.grad() untouched
/// \endcode

#include <graphify/autograd/GradMode.h>
#include <graphify/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gfy::autograd {

using Variable = Tensor;
using variable_list = std::vector<Tensor>;
class Node;

/// Where a gradient goes: input slot `input_nr` of `function`.
struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool is_valid() const { return function != nullptr; }
};

/// A backward function (LibTorch's `torch::autograd::Node`): receives the gradients of the
/// forward op's outputs (its "inputs") and returns one gradient per next edge (the forward op's
/// inputs). Nodes are made by the runtime; users read `name()` and `next_edges()`.
class Node : public std::enable_shared_from_this<Node> {
public:
  Node();
  virtual ~Node() = default;
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;
  /// "MulBackward0", "AccumulateGrad", ...
  virtual std::string name() const = 0;
  const std::vector<Edge> &next_edges() const { return next_edges_; }
  const Edge &next_edge(size_t i) const { return next_edges_.at(i); }
  /// Number of gradients the node returns (one per next edge).
  size_t num_outputs() const { return next_edges_.size(); }
  /// Creation order; the engine runs later nodes first.
  uint64_t sequence_nr() const { return sequence_nr_; }

  // --- for the engine and the recorders (src/autograd) ---
  /// The shape and dtype each returned gradient must have (checked by the engine).
  struct InputMeta {
    std::vector<int64_t> sizes;
    ScalarType dtype = kFloat;
    Device device;
  };
  std::vector<Edge> next_edges_;
  std::vector<InputMeta> input_meta_; ///< per next edge
  uint32_t num_inputs_ = 1;           ///< gradients it receives
  /// Non-leaf tensors whose `.grad()` is kept (`retain_grad()`): (input slot, tensor).
  std::vector<std::pair<uint32_t, std::weak_ptr<TensorImpl>>> retained_;
  virtual variable_list apply(variable_list &&grads) = 0;
  /// Frees saved tensors after a backward pass without retain_graph.
  virtual void release_variables() {}

private:
  uint64_t sequence_nr_;
};

/// Computes the gradients of `tensors` (with `grad_tensors` as their incoming gradients; a
/// scalar may omit it) and accumulates them into the `.grad()` of the leaves, or of `inputs`
/// only when given. `create_graph` is not supported (throws).
void backward(const variable_list &tensors, const variable_list &grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
              const variable_list &inputs = {});

/// Returns the gradients of `outputs` with respect to `inputs` without touching any `.grad()`.
/// An input that does not reach the outputs is an error unless `allow_unused` (then undefined).
/// \code
///   auto g = gfy::autograd::grad({loss}, {w}, {}, /*retain_graph=*/true)[0];
/// \endcode
variable_list grad(const variable_list &outputs, const variable_list &inputs, const variable_list &grad_outputs = {},
                   std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                   bool allow_unused = false);

} // namespace gfy::autograd
