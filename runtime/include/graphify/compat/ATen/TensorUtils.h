#pragma once
/// \file
/// `#include <ATen/TensorUtils.h>` under graphify::torch_compat: the shim's <torch/torch.h> and
/// ATen's argument checks that C++ operators call before their kernels (`at::TensorArg`,
/// `at::checkAllSameType`, `at::checkDim`, ...), with LibTorch 1.13's messages:
/// \code
///   at::TensorArg boxes_t{boxes, "boxes", 1}, scores_t{scores, "scores", 2};
///   at::CheckedFrom c = "nms_cpu";
///   at::checkAllSameType(c, {boxes_t, scores_t});   // "Expected tensor for argument #1 'boxes' to
///                                                   //  have the same type as tensor for ..."
/// \endcode
#include <torch/torch.h>

#include <algorithm>
#include <sstream>

namespace at {

/// A tensor argument with its name and 1-based position (0 names `self` or the result).
struct TensorArg {
  const Tensor &tensor;
  const char *name;
  int pos;
  TensorArg(const Tensor &tensor, const char *name, int pos) : tensor(tensor), name(name), pos(pos) {}
  TensorArg(Tensor &&tensor, const char *name, int pos) = delete;  // would dangle, as LibTorch's
  const Tensor *operator->() const { return &tensor; }
  const Tensor &operator*() const { return tensor; }
};

/// The same, for the checks that read only the geometry (LibTorch keeps sizes and strides; this
/// keeps the tensor, which shares them).
struct TensorGeometryArg {
  Tensor tensor;
  const char *name;
  int pos;
  /* implicit */ TensorGeometryArg(TensorArg arg) : tensor(arg.tensor), name(arg.name), pos(arg.pos) {}
  TensorGeometryArg(Tensor tensor, const char *name, int pos) : tensor(std::move(tensor)), name(name), pos(pos) {}
  const Tensor *operator->() const { return &tensor; }
  const Tensor &operator*() const { return tensor; }
};

using CheckedFrom = const char *;

inline std::ostream &operator<<(std::ostream &out, const TensorGeometryArg &t) {
  if (t.pos == 0) return out << "'" << t.name << "'";
  return out << "argument #" << t.pos << " '" << t.name << "'";
}
inline std::ostream &operator<<(std::ostream &out, const TensorArg &t) { return out << TensorGeometryArg(t); }

namespace gfy_checks {
inline std::string while_checking(CheckedFrom c) { return std::string(" (while checking arguments for ") + c + ")"; }
} // namespace gfy_checks

inline void checkDim(CheckedFrom c, const TensorGeometryArg &t, int64_t dim) {
  TORCH_CHECK(t->dim() == dim, "Expected ", dim, "-dimensional tensor, but got ", t->dim(),
              "-dimensional tensor for ", t, gfy_checks::while_checking(c));
}
inline void checkDim(CheckedFrom c, const Tensor &tensor, const char *name, int pos, int64_t dim) {
  checkDim(c, TensorGeometryArg(tensor, name, pos), dim);
}
inline void checkDimRange(CheckedFrom c, const TensorGeometryArg &t, int64_t dim_start, int64_t dim_end) {
  TORCH_CHECK(t->dim() >= dim_start && t->dim() < dim_end, "Expected ", dim_start, " to ", (dim_end - 1),
              " dimensions, but got ", t->dim(), "-dimensional tensor for ", t, gfy_checks::while_checking(c));
}
inline void checkSameDim(CheckedFrom c, const TensorGeometryArg &t1, const TensorGeometryArg &t2) {
  TORCH_CHECK(t1->dim() == t2->dim(), "Expected tensor for ", t1, " to have the same dimension as tensor for ", t2,
              "; but ", t1->dim(), " does not equal ", t2->dim(), gfy_checks::while_checking(c));
}
inline void checkContiguous(CheckedFrom c, const TensorGeometryArg &t) {
  TORCH_CHECK(t->is_contiguous(), "Expected contiguous tensor, but got non-contiguous tensor for ", t,
              gfy_checks::while_checking(c));
}
inline void checkAllContiguous(CheckedFrom c, ArrayRef<TensorArg> ts) {
  for (const TensorArg &t : ts)
    if (t->defined()) checkContiguous(c, t);
}
inline void checkSize(CheckedFrom c, const TensorGeometryArg &t, IntArrayRef sizes) {
  checkDim(c, t, int64_t(sizes.size()));
  TORCH_CHECK(t->sizes().vec() == sizes.vec(), "Expected tensor of size ", sizes, ", but got tensor of size ",
              t->sizes(), " for ", t, gfy_checks::while_checking(c));
}
inline void checkSize(CheckedFrom c, const TensorGeometryArg &t, int64_t dim, int64_t size) {
  TORCH_CHECK(t->size(dim) == size, "Expected tensor to have size ", size, " at dimension ", dim,
              ", but got size ", t->size(dim), " for ", t, gfy_checks::while_checking(c));
}
inline void checkNumel(CheckedFrom c, const TensorGeometryArg &t, int64_t numel) {
  TORCH_CHECK(t->numel() == numel, "Expected tensor for ", t, " to have ", numel, " elements; but it actually has ",
              t->numel(), " elements", gfy_checks::while_checking(c));
}
inline void checkSameNumel(CheckedFrom c, const TensorArg &t1, const TensorArg &t2) {
  TORCH_CHECK(t1->numel() == t2->numel(), "Expected tensor for ", t1,
              " to have same number of elements as tensor for ", t2, "; but ", t1->numel(), " does not equal ",
              t2->numel(), gfy_checks::while_checking(c));
}
inline void checkSameSize(CheckedFrom c, const TensorArg &t1, const TensorArg &t2) {
  TORCH_CHECK(t1->sizes().vec() == t2->sizes().vec(), "Expected tensor for ", t1, " to have same size as tensor for ",
              t2, "; but ", t1->sizes(), " does not equal ", t2->sizes(), gfy_checks::while_checking(c));
}
inline void checkScalarType(CheckedFrom c, const TensorArg &t, ScalarType s) {
  TORCH_CHECK(t->scalar_type() == s, "Expected tensor for ", t, " to have scalar type ", s, "; but got ",
              t->type().toString(), " instead", gfy_checks::while_checking(c));
}
inline void checkScalarTypes(CheckedFrom c, const TensorArg &t, ArrayRef<ScalarType> l) {
  if (std::find(l.begin(), l.end(), t->scalar_type()) != l.end()) return;
  std::ostringstream oss;
  oss << "Expected tensor for " << t << " to have one of the following scalar types: ";
  for (size_t i = 0; i < l.size(); ++i) oss << (i ? ", " : "") << l[i];
  oss << "; but got " << t->type().toString() << " instead" << gfy_checks::while_checking(c);
  TORCH_CHECK(false, oss.str());
}
inline void checkSameGPU(CheckedFrom c, const TensorArg &t1, const TensorArg &t2) {
  if (t1->is_cpu() || t2->is_cpu()) {
    std::ostringstream oss;
    if (t1->is_cpu()) oss << "Tensor for " << t1 << " is on CPU, ";
    if (t2->is_cpu()) oss << "Tensor for " << t2 << " is on CPU, ";
    oss << "but expected " << ((!(t1->is_cpu() || t2->is_cpu())) ? "them" : "it") << " to be on GPU"
        << gfy_checks::while_checking(c);
    TORCH_CHECK(false, oss.str());
  }
  TORCH_CHECK(t1->get_device() == t2->get_device(), "Expected tensor for ", t1,
              " to have the same device as tensor for ", t2, "; but device ", t1->get_device(), " does not equal ",
              t2->get_device(), gfy_checks::while_checking(c));
}
inline void checkSameType(CheckedFrom c, const TensorArg &t1, const TensorArg &t2) {
  TORCH_CHECK(t1->scalar_type() == t2->scalar_type() && t1->device().type() == t2->device().type(),
              "Expected tensor for ", t1, " to have the same type as tensor for ", t2, "; but type ",
              t1->type().toString(), " does not equal ", t2->type().toString(), gfy_checks::while_checking(c));
}
inline void checkDefined(CheckedFrom c, const TensorArg &t) {
  TORCH_CHECK(t->defined(), "Expected tensor for ", t, " to be non-null, but it was undefined ",
              gfy_checks::while_checking(c));
}
inline void checkAllDefined(CheckedFrom c, ArrayRef<TensorArg> ts) {
  for (const TensorArg &t : ts) checkDefined(c, t);
}
namespace gfy_checks {
// LibTorch's checkAllSame: each defined tensor against the first defined one.
template <class Check> void check_all_same(CheckedFrom c, ArrayRef<TensorArg> ts, Check check) {
  const TensorArg *first = nullptr;
  for (const TensorArg &t : ts) {
    if (!t->defined()) continue;
    if (first) check(c, *first, t);
    else first = &t;
  }
}
} // namespace gfy_checks
inline void checkAllSameNumel(CheckedFrom c, ArrayRef<TensorArg> ts) {
  gfy_checks::check_all_same(c, ts, checkSameNumel);
}
inline void checkAllSameGPU(CheckedFrom c, ArrayRef<TensorArg> ts) { gfy_checks::check_all_same(c, ts, checkSameGPU); }
inline void checkAllSameType(CheckedFrom c, ArrayRef<TensorArg> ts) { gfy_checks::check_all_same(c, ts, checkSameType); }
inline void checkDeviceType(CheckedFrom c, ArrayRef<Tensor> tensors, DeviceType device_type) {
  for (const Tensor &t : tensors)
    if (t.defined())
      TORCH_CHECK(t.device().type() == device_type, "Expected tensor to have ", device_type,
                  " DeviceType, but got tensor with ", t.device().type(), " DeviceType ",
                  "(while checking arguments for ", c, ")");
}
inline void checkDeviceType(CheckedFrom c, const Tensor &t, DeviceType device_type) {
  checkDeviceType(c, ArrayRef<Tensor>{t}, device_type);
}

} // namespace at
