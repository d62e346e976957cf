#pragma once
// Helpers shared by the op front-ends (src/core/ops_*.cpp). A front-end checks arguments with
// LibTorch's messages, computes the result dtype and shape, allocates outputs and then hands one
// OpCall to detail::run (Dispatch.cpp) — the single path shared by eager execution and graph
// capture.
#include <graphify/core/Backend.h>
#include <graphify/core/Functions.h>
#include <graphify/graph/Graph.h>

#include <optional>
#include <ostream>
#include <vector>

namespace gfy::detail {

std::vector<int64_t> contiguous_strides(IntArrayRef sizes);
int64_t maybe_wrap_dim(int64_t dim, int64_t ndim, bool scalar_ok = true);
const TensorImpl &impl_of(const Tensor &t);
Scalar read_scalar(const TensorImpl &t, int64_t linear);

/// LibTorch's result_type over tensors: dimensioned tensors outrank 0-d tensors, which outrank
/// wrapped numbers, unless the lower tier is of a higher category (bool < integral < floating).
ScalarType result_type(std::initializer_list<const Tensor *> tensors);

/// A 0-d tensor holding `s` converted to `dtype`, on `device` (host write; no kernel).
Tensor scalar_to_tensor(const Scalar &s, ScalarType dtype, Device device);
/// Allocates a contiguous tensor like `sizes`, on the device of `like`.
inline Tensor alloc(IntArrayRef sizes, ScalarType dtype, const Tensor &like) {
  return make_tensor(sizes, dtype, like.device());
}
/// Throws unless all defined tensors are on one device; returns it.
Device common_device(std::initializer_list<const Tensor *> tensors);

/// LibTorch's name of the kernel `op` on `device` ("hypot_cpu", "hypot_cuda"), as its
/// `"<kernel>" not implemented for '<dtype>'` errors spell it.
inline std::string kernel_name(std::string_view op, Device device) {
  return std::string(op) + (device.is_cuda() ? "_cuda" : "_cpu");
}
/// Converts `t` to `dtype` (a copy op) unless it already has it.
Tensor cast(const Tensor &t, ScalarType dtype);
void check_defined(const Tensor &t, const char *what);

/// Ops along one dim of a contiguous input (cumsum, softmax, log_softmax): `in` converted to `t`
/// and made contiguous, `op` run along `dim` into an output of its shape.
inline Tensor along_dim(OpId op, const Tensor &in, int64_t dim, ScalarType t, OpCall c = {}) {
  Tensor x = cast(in, t).contiguous();
  Tensor out = make_tensor(x.sizes(), t, x.device());
  c.op = op;
  c.in.insert(c.in.begin(), x);
  c.out = {out};
  c.dim = x.dim() == 0 ? 0 : dim;
  run(std::move(c), t);
  return out;
}

/// LibTorch's tensor printing (Formatting.cpp), without the capture check (callers do it);
/// `linesize` is the width rows are wrapped to.
void print_tensor(std::ostream &os, const Tensor &t, int64_t linesize);

} // namespace gfy::detail
