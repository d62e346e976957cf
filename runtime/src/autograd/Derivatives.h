#pragma once
// The derivatives table (Derivatives.cpp), read by the kernel recorder (Record.cpp) and by the
// front-ends that carry their own derivative. PyTorch declares its derivatives once in
// derivatives.yaml; here each differentiable ops.def kernel has one `KernelDerivative`, found by
// OpId, and the view ops and a few front-ends have one `record_*` function each.
#include "AutogradMeta.h"

namespace gfy::autograd::detail {

/// What a kernel's derivative sees: the launch's scalars and the operands it saved, the incoming
/// gradient of each output, and which inputs want a gradient.
struct GradCtx {
  const OpCall &call;                           ///< saved operands only; the others are undefined
  const variable_list &grads;                   ///< per output of the launch
  const std::vector<Node::InputMeta> &meta;     ///< per edge: inputs, then the overwritten output
  const std::vector<Edge> &edges;
  size_t num_in;
  const Tensor &g(size_t j = 0) const { return grads[j]; }
  const Tensor &in(size_t i) const { return call.in[i]; }
  const Tensor &out(size_t j) const { return call.out[j]; }
  IntArrayRef in_sizes(size_t i) const { return IntArrayRef(meta[i].sizes); }
  TensorOptions in_options(size_t i) const { return TensorOptions().dtype(meta[i].dtype).device(meta[i].device); }
  bool needs(size_t i) const { return i < edges.size() && edges[i].is_valid(); }
  /// In-place into a tensor with history that no input aliases: edge num_in is its old history.
  bool has_old_out() const { return edges.size() > num_in; }
};
using Formula = variable_list (*)(const GradCtx &);

/// Operand bits of `saves` / `shapes`: in[i] and out[j].
constexpr unsigned IN(int i) { return 1u << i; }
constexpr unsigned OUT(int j) { return 1u << (8 + j); }
constexpr unsigned ALL_IN_FROM_1 = 0xFEu; ///< every input but in[0] (index tensors)

struct KernelDerivative {
  bool defined = false;
  unsigned saves = 0;     ///< operands whose values the formula reads (version-checked, freed after backward)
  unsigned shapes = 0;    ///< operands whose sizes/strides only it reads
  /// Inputs among `saves` whose values only the other inputs' gradients read (mul: each one's
  /// for the other's; div: the dividend's for the divisor's): kept only when another input needs
  /// a gradient, as LibTorch saves them, so `y = x * 2; x.add_(1)` leaves y's backward valid.
  unsigned for_others = 0;
  unsigned outputs = OUT(0); ///< differentiable outputs (OUT bits)
  /// The kernel writes all of out[0] without reading it (copy, fill): written in place over a
  /// tensor with history, the old history receives zeros.
  bool overwrites = false;
  /// The formula also returns a gradient for the overwritten out[0] (index_put).
  bool grads_old_out = false;
  Formula formula = nullptr;
};

/// The entry of `op`; `defined` is false when its derivative is not implemented.
const KernelDerivative &kernel_derivative(OpId op);

// --- view ops: the view's gradient mapped back to its base's shape ------------------------------
void record_reshape(const Tensor &view, const Tensor &base);
void record_transpose(const Tensor &view, const Tensor &base, int64_t dim0, int64_t dim1);
void record_permute(const Tensor &view, const Tensor &base, IntArrayRef dims);
void record_expand(const Tensor &view, const Tensor &base);
void record_slice(const Tensor &view, const Tensor &base, int64_t dim, int64_t start, int64_t end, int64_t step);
void record_select(const Tensor &view, const Tensor &base, int64_t dim, int64_t index);

// --- front-ends with their own derivative --------------------------------------------------------
/// cat of `inputs` along `dim` into `out`.
void record_cat(const Tensor &out, const std::vector<Tensor> &inputs, int64_t dim);
/// out = gather(self, dim, index).
void record_gather(const Tensor &out, const Tensor &self, int64_t dim, const Tensor &index);
/// embedding(weight, indices, padding_idx): the row of padding_idx gets no gradient.
void record_embedding(const Tensor &out, const Tensor &weight, const Tensor &indices, int64_t padding_idx);
/// A function of `input` whose derivative is zero everywhere (floor, sign, round, ...).
void record_zero_derivative(const Tensor &out, const Tensor &input, const char *name);

} // namespace gfy::autograd::detail
