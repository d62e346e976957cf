// Tensor metadata, views and host reads. Invariant: a view never addresses memory outside its
// storage; every view constructor checks its arguments (dims, ranges, sizes) and throws
// gfy::Error with LibTorch's wording before any TensorImpl is made. A view of a tensor that
// requires grad gets the history of its view op (src/autograd/Derivatives.cpp); a view made
// inside an op's front-end gets none and is refused as a kernel operand (AutogradMeta.h).
#include <graphify/core/Backend.h>
#include <graphify/core/Functions.h>
#include <graphify/graph/Graph.h>

#include "OpsCommon.h"

#include "../autograd/Derivatives.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <sstream>

namespace gfy {

constexpr int64_t kMaxTensorDims = 25;

Storage::~Storage() {
  if (backend) backend->deallocate(data, nbytes);
  else if (deleter) deleter(data);
}

namespace {

/// The product of `sizes`, or nullopt when it does not fit in int64_t.
std::optional<int64_t> checked_product(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    if (__builtin_mul_overflow(n, s, &n)) return std::nullopt;
  return n;
}

} // namespace

void TensorImpl::refresh() {
  // Every view constructor validates its sizes; this is the last line of defence, so that a
  // negative size (found by fuzzing expand) can never reach a kernel as a loop bound.
  for (int64_t s : sizes)
    GFY_CHECK(s >= 0, "internal error: a view with negative size ", s, " in ", IntArrayRef(sizes));
  // A view (expand, as_strided) can name more elements than memory holds; LibTorch's wording.
  const std::optional<int64_t> n = checked_product(sizes);
  GFY_CHECK(n.has_value(), "numel: integer multiplication overflow");
  numel = *n;
  contiguous = true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) {
      contiguous = false;
      break;
    }
    expected *= sizes[i];
  }
}

namespace detail {

std::vector<int64_t> contiguous_strides(IntArrayRef sizes) {
  std::vector<int64_t> st(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    st[i] = s;
    s *= std::max<int64_t>(sizes[i], 1);
  }
  return st;
}

Tensor make_tensor(IntArrayRef sizes, ScalarType dtype, Device device) {
  GFY_CHECK(int64_t(sizes.size()) <= kMaxTensorDims, "tensors have at most ", kMaxTensorDims, " dimensions, got ",
            int64_t(sizes.size()));
  for (int64_t s : sizes) GFY_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", sizes);
  // Checked before allocating: an overflowed product would allocate a small buffer that the
  // kernels then overrun. LibTorch's wording (c10::computeStorageNbytesContiguous).
  const std::optional<int64_t> n = checked_product(sizes);
  int64_t nbytes = 0;
  GFY_CHECK(n.has_value() && !__builtin_mul_overflow(*n, int64_t(element_size(dtype)), &nbytes),
            "Storage size calculation overflowed with sizes=", sizes);
  const int64_t numel = *n;
  Backend &be = backend_for(device.type());
  auto storage = std::make_shared<Storage>();
  storage->nbytes = size_t(nbytes);
  storage->data = be.allocate(storage->nbytes);
  storage->device = device;
  storage->backend = &be;
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes = sizes.vec();
  impl->strides = contiguous_strides(sizes);
  impl->dtype = dtype;
  impl->numel = numel;
  impl->contiguous = true;
  return Tensor(std::move(impl));
}

Tensor make_view(const Tensor &base, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset) {
  GFY_CHECK(int64_t(sizes.size()) <= kMaxTensorDims, "tensors have at most ", kMaxTensorDims, " dimensions");
  auto impl = std::make_shared<TensorImpl>();
  const TensorImpl *b = base.unsafeGetTensorImpl();
  impl->storage = b->storage;
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = b->dtype;
  impl->is_view = true;
  impl->refresh();
  Tensor v(std::move(impl));
  if (autograd::detail::needs_view_history(base)) autograd::detail::mark_untracked_view(v);
  return v;
}

Tensor wrap_scalar(const Scalar &s, Device device) {
  const ScalarType t = s.type();
  Tensor out = make_tensor({}, t, kCPU);
  char *p = out.unsafeGetTensorImpl()->data();
  switch (t) {
  case kBool: *reinterpret_cast<bool *>(p) = s.toBool(); break;
  case kLong: *reinterpret_cast<int64_t *>(p) = s.toLong(); break;
  default: *reinterpret_cast<double *>(p) = s.toDouble(); break;
  }
  out.unsafeGetTensorImpl()->wrapped_number = true;
  if (!device.is_cpu()) {
    Tensor d = out.to(device);
    d.unsafeGetTensorImpl()->wrapped_number = true;
    return d;
  }
  return out;
}

int64_t maybe_wrap_dim(int64_t dim, int64_t ndim, bool scalar_ok) {
  int64_t n = ndim;
  if (n == 0 && scalar_ok) n = 1;
  if (dim < -n || dim >= n)
    throw Error(str_cat("Dimension out of range (expected to be in range of [", -n, ", ", n - 1, "], but got ", dim,
                        ")"));
  return dim < 0 ? dim + n : dim;
}

/// LibTorch's computeStride: strides for viewing (oldshape, oldstride) as newshape without a
/// copy, or nullopt when a new dimension would span two non-contiguous chunks.
std::optional<std::vector<int64_t>> compute_stride(IntArrayRef oldshape, IntArrayRef oldstride, IntArrayRef newshape) {
  if (oldshape.empty()) return std::vector<int64_t>(newshape.size(), 1);
  int64_t numel = 1;
  for (int64_t s : oldshape) numel *= s;
  if (numel == 0) return contiguous_strides(newshape);
  std::vector<int64_t> newstride(newshape.size());
  int64_t view_d = int64_t(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = int64_t(oldshape.size()) - 1; tensor_d >= 0; tensor_d--) {
    tensor_numel *= oldshape[tensor_d];
    if (tensor_d == 0 ||
        (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        view_d--;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

std::vector<int64_t> infer_size(IntArrayRef shape, int64_t numel) {
  std::vector<int64_t> res = shape.vec();
  int64_t newsize = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < res.size(); ++i) {
    if (res[i] == -1) {
      GFY_CHECK(!infer, "only one dimension can be inferred");
      infer = i;
    } else {
      GFY_CHECK(res[i] >= 0, "invalid shape dimension ", res[i]);
      GFY_CHECK(!__builtin_mul_overflow(newsize, res[i], &newsize), "shape '", shape,
                "' is invalid for input of size ", numel);
    }
  }
  if (infer) {
    GFY_CHECK(newsize != 0 && numel % newsize == 0, "shape '", shape, "' is invalid for input of size ", numel);
    res[*infer] = numel / newsize;
  } else {
    GFY_CHECK(newsize == numel, "shape '", shape, "' is invalid for input of size ", numel);
  }
  return res;
}

const TensorImpl &impl_of(const Tensor &t) {
  GFY_CHECK(t.defined(), "Expected a proper Tensor but got an undefined Tensor (default-constructed handle)");
  return *t.unsafeGetTensorImpl();
}

/// Reads element `i` of a CPU-resident contiguous-or-not tensor as a double/int64 Scalar.
Scalar read_scalar(const TensorImpl &t, int64_t linear) {
  int64_t off = 0, rem = linear;
  for (size_t d = t.sizes.size(); d-- > 0;) {
    off += (rem % t.sizes[d]) * t.strides[d];
    rem /= t.sizes[d];
  }
  const char *p = t.data() + off * int64_t(element_size(t.dtype));
  switch (t.dtype) {
  case kBool: return Scalar(*reinterpret_cast<const bool *>(p));
  case kByte: return Scalar(*reinterpret_cast<const uint8_t *>(p));
  case kChar: return Scalar(*reinterpret_cast<const int8_t *>(p));
  case kShort: return Scalar(*reinterpret_cast<const int16_t *>(p));
  case kInt: return Scalar(*reinterpret_cast<const int32_t *>(p));
  case kLong: return Scalar(*reinterpret_cast<const int64_t *>(p));
  case kFloat: return Scalar(*reinterpret_cast<const float *>(p));
  case kDouble: return Scalar(*reinterpret_cast<const double *>(p));
  case kHalf: return Scalar(*reinterpret_cast<const Half *>(p));
  case kBFloat16: return Scalar(*reinterpret_cast<const BFloat16 *>(p));
  }
  return Scalar();
}

} // namespace detail

using detail::impl_of;
using detail::make_view;
using detail::maybe_wrap_dim;
namespace ad = autograd::detail;

// --- metadata -----------------------------------------------------------------------------------

int64_t Tensor::dim() const { return int64_t(impl_of(*this).sizes.size()); }
int64_t Tensor::numel() const { return impl_of(*this).numel; }
int64_t Tensor::size(int64_t d) const { return impl_of(*this).sizes[maybe_wrap_dim(d, dim(), false)]; }
IntArrayRef Tensor::sizes() const { return IntArrayRef(impl_of(*this).sizes); }
int64_t Tensor::stride(int64_t d) const { return impl_of(*this).strides[maybe_wrap_dim(d, dim(), false)]; }
IntArrayRef Tensor::strides() const { return IntArrayRef(impl_of(*this).strides); }
int64_t Tensor::storage_offset() const { return impl_of(*this).offset; }
ScalarType Tensor::scalar_type() const { return impl_of(*this).dtype; }
Device Tensor::device() const {
  Device d = impl_of(*this).storage->device;
  d.of_tensor_ = true;
  return d;
}
namespace {
/// Gives `self` the shape of `view` (a view of the same storage), in place.
Tensor &adopt_shape(Tensor &self, const Tensor &view) {
  TensorImpl &dst = *self.unsafeGetTensorImpl();
  const TensorImpl &src = *view.unsafeGetTensorImpl();
  if (src.autograd_meta && src.autograd_meta->grad_fn) {
    // The view's history (a reshape back to the old shape) becomes this tensor's.
    GFY_CHECK(!(self.is_leaf() && self.requires_grad()),
              "a leaf Variable that requires grad is being used in an in-place operation.");
    ad::materialize(self).grad_fn = src.autograd_meta->grad_fn;
    dst.autograd_meta->output_nr = src.autograd_meta->output_nr;
  }
  dst.sizes = src.sizes;
  dst.strides = src.strides;
  dst.offset = src.offset;
  dst.refresh();
  return self;
}
} // namespace

Tensor &Tensor::squeeze_() const { return adopt_shape(mutable_self(), squeeze()); }
Tensor &Tensor::squeeze_(int64_t dim) const { return adopt_shape(mutable_self(), squeeze(dim)); }
Tensor &Tensor::unsqueeze_(int64_t dim) const { return adopt_shape(mutable_self(), unsqueeze(dim)); }

TensorOptions Tensor::options() const {
  TensorOptions o = TensorOptions().dtype(scalar_type()).device(device());
  o.layout_set_ = true;
  return o;
}
const DeprecatedTypeProperties &Tensor::type() const {
  detail::check_defined(*this, "self");
  return deprecated_type_properties(device().type(), scalar_type());
}
bool Tensor::is_contiguous() const { return impl_of(*this).contiguous; }
void *Tensor::raw_data() const { return impl_of(*this).data(); }

void Tensor::check_data_ptr(ScalarType requested, const SL &loc) const {
  detail::on_host_read("data_ptr()", loc);
  GFY_CHECK(scalar_type() == requested, "expected scalar type ", requested, " but found ", scalar_type());
}

void *Tensor::data_ptr(SL loc) const {
  detail::on_host_read("data_ptr()", loc);
  return raw_data();
}

// --- host reads ---------------------------------------------------------------------------------

Scalar Tensor::item(SL loc) const {
  const TensorImpl &t = impl_of(*this);
  detail::on_host_read("item()", loc);
  GFY_CHECK(t.numel == 1, "a Tensor with ", t.numel, " elements cannot be converted to Scalar");
  if (!t.storage->device.is_cpu()) return to(Device(kCPU), loc).item(loc);
  return detail::read_scalar(t, 0);
}

bool Tensor::is_nonzero(SL loc) const {
  const TensorImpl &t = impl_of(*this);
  detail::on_host_read("is_nonzero()", loc);
  GFY_CHECK(t.numel != 0, "Boolean value of Tensor with no values is ambiguous");
  GFY_CHECK(t.numel == 1, "Boolean value of Tensor with more than one value is ambiguous");
  return item(loc).toBool();
}

// --- views ------------------------------------------------------------------------------------

Tensor Tensor::view(IntArrayRef size) const {
  const TensorImpl &t = impl_of(*this);
  auto shape = detail::infer_size(size, t.numel);
  auto st = detail::compute_stride(t.sizes, t.strides, shape);
  GFY_CHECK(st.has_value(),
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead.");
  Tensor v = make_view(*this, std::move(shape), std::move(*st), t.offset);
  if (ad::needs_view_history(*this)) ad::record_reshape(v, *this);
  return v;
}

Tensor Tensor::reshape(IntArrayRef shape) const {
  const TensorImpl &t = impl_of(*this);
  auto sz = detail::infer_size(shape, t.numel);
  if (auto st = detail::compute_stride(t.sizes, t.strides, sz)) {
    Tensor v = make_view(*this, std::move(sz), std::move(*st), t.offset);
    if (ad::needs_view_history(*this)) ad::record_reshape(v, *this);
    return v;
  }
  // Not viewable: a copy, which is no view (LibTorch's _unsafe_view of a contiguous clone), so
  // is_view() and the in-place rules of autograd see a tensor of its own (found by
  // tests/differential/fuzz_aliasing.cpp).
  Tensor copy = contiguous().view(sz);
  copy.unsafeGetTensorImpl()->is_view = false;
  return copy;
}

Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  const int64_t n = dim();
  start_dim = maybe_wrap_dim(start_dim, n);
  end_dim = maybe_wrap_dim(end_dim, n);
  GFY_CHECK(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (n == 0) return reshape({1});
  if (start_dim == end_dim) return *this;
  std::vector<int64_t> shape;
  int64_t prod = 1;
  for (int64_t i = 0; i < n; ++i) {
    if (i < start_dim || i > end_dim) shape.push_back(size(i));
    else {
      prod *= size(i);
      if (i == end_dim) shape.push_back(prod);
    }
  }
  return reshape(shape);
}

Tensor Tensor::squeeze() const {
  const TensorImpl &t = impl_of(*this);
  std::vector<int64_t> sz, st;
  for (size_t i = 0; i < t.sizes.size(); ++i)
    if (t.sizes[i] != 1) {
      sz.push_back(t.sizes[i]);
      st.push_back(t.strides[i]);
    }
  Tensor v = make_view(*this, sz, st, t.offset);
  if (ad::needs_view_history(*this)) ad::record_reshape(v, *this);
  return v;
}

Tensor Tensor::squeeze(int64_t d) const {
  const TensorImpl &t = impl_of(*this);
  d = maybe_wrap_dim(d, dim());
  if (t.sizes.empty() || t.sizes[d] != 1) {
    Tensor v = make_view(*this, t.sizes, t.strides, t.offset);
    if (ad::needs_view_history(*this)) ad::share_history(v, *this);
    return v;
  }
  auto sz = t.sizes, st = t.strides;
  sz.erase(sz.begin() + d);
  st.erase(st.begin() + d);
  Tensor v = make_view(*this, sz, st, t.offset);
  if (ad::needs_view_history(*this)) ad::record_reshape(v, *this);
  return v;
}

Tensor Tensor::unsqueeze(int64_t d) const {
  const TensorImpl &t = impl_of(*this);
  d = maybe_wrap_dim(d, dim() + 1);
  auto sz = t.sizes, st = t.strides;
  int64_t s = d < int64_t(sz.size()) ? sz[d] * st[d] : 1;
  sz.insert(sz.begin() + d, 1);
  st.insert(st.begin() + d, s);
  Tensor v = make_view(*this, sz, st, t.offset);
  if (ad::needs_view_history(*this)) ad::record_reshape(v, *this);
  return v;
}

Tensor Tensor::transpose(int64_t d0, int64_t d1) const {
  const TensorImpl &t = impl_of(*this);
  d0 = maybe_wrap_dim(d0, dim());
  d1 = maybe_wrap_dim(d1, dim());
  auto sz = t.sizes, st = t.strides;
  if (!sz.empty()) {
    std::swap(sz[d0], sz[d1]);
    std::swap(st[d0], st[d1]);
  }
  Tensor v = make_view(*this, sz, st, t.offset);
  if (ad::needs_view_history(*this)) {
    if (d0 == d1) ad::share_history(v, *this);
    else ad::record_transpose(v, *this, d0, d1);
  }
  return v;
}

Tensor Tensor::t() const {
  GFY_CHECK(dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", dim(), "D");
  if (dim() < 2) return transpose(0, 0);
  return transpose(0, 1);
}

Tensor Tensor::permute(IntArrayRef dims) const {
  const TensorImpl &t = impl_of(*this);
  const int64_t n = dim();
  GFY_CHECK(int64_t(dims.size()) == n, "permute(sparse_coo): number of dimensions in the tensor input does not match "
                                       "the length of the desired ordering of dimensions i.e. input.dim() = ",
            n, " is not equal to len(dims) = ", int64_t(dims.size()));
  std::vector<int64_t> sz(n), st(n);
  std::vector<bool> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    int64_t d = maybe_wrap_dim(dims[i], n);
    GFY_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sz[i] = t.sizes[d];
    st[i] = t.strides[d];
  }
  Tensor v = make_view(*this, sz, st, t.offset);
  if (ad::needs_view_history(*this)) ad::record_permute(v, *this, dims);
  return v;
}

Tensor Tensor::expand(IntArrayRef size, bool) const {
  const TensorImpl &t = impl_of(*this);
  const int64_t n = int64_t(size.size()), nd = dim();
  GFY_CHECK(n >= nd, "expand(", to_string(t.dtype), "{", IntArrayRef(t.sizes), "}, size=", size,
            "): the number of sizes provided (", n, ") must be greater or equal to the number of dimensions in the "
            "tensor (", nd, ")");
  std::vector<int64_t> sz(n), st(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t off = nd - n + i;
    const int64_t have = off >= 0 ? t.sizes[off] : 1;
    const int64_t have_st = off >= 0 ? t.strides[off] : 0;
    int64_t want = size[i];
    if (want == -1) {
      GFY_CHECK(off >= 0, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ",
                i);
      want = have;
    }
    GFY_CHECK(want >= 0, "The expanded size of the tensor (", want, ") isn't allowed: sizes must be non-negative (-1 "
              "keeps a dimension). Target sizes: ", size, ".  Tensor sizes: ", IntArrayRef(t.sizes));
    if (have == want) {
      sz[i] = want;
      st[i] = have_st;
    } else {
      GFY_CHECK(have == 1, "The expanded size of the tensor (", want, ") must match the existing size (", have,
                ") at non-singleton dimension ", i, ".  Target sizes: ", size, ".  Tensor sizes: ",
                IntArrayRef(t.sizes));
      sz[i] = want;
      st[i] = 0;
    }
  }
  Tensor v = make_view(*this, sz, st, t.offset);
  if (ad::needs_view_history(*this)) {
    // Same shape (every elementwise front-end expands its operands): the gradient is unchanged.
    if (IntArrayRef(sz) == IntArrayRef(t.sizes)) ad::share_history(v, *this);
    else ad::record_expand(v, *this);
  }
  return v;
}

Tensor Tensor::slice(int64_t d, std::optional<int64_t> start_, std::optional<int64_t> end_, int64_t step) const {
  const TensorImpl &t = impl_of(*this);
  GFY_CHECK(dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  d = maybe_wrap_dim(d, dim());
  GFY_CHECK(step > 0, "slice step must be positive");
  const int64_t len = t.sizes[d];
  int64_t start = start_.value_or(0), end = end_.value_or(len);
  if (start < 0) start += len;
  if (end < 0) end += len;
  start = std::clamp<int64_t>(start, 0, len);
  end = std::clamp<int64_t>(end, start, len);
  auto sz = t.sizes, st = t.strides;
  sz[d] = (end - start + step - 1) / step;
  st[d] = t.strides[d] * step;
  Tensor v = make_view(*this, sz, st, t.offset + start * t.strides[d]);
  if (ad::needs_view_history(*this)) ad::record_slice(v, *this, d, start, end, step);
  return v;
}

Tensor Tensor::narrow(int64_t d, int64_t start, int64_t length) const {
  GFY_CHECK(dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  d = maybe_wrap_dim(d, dim());
  const int64_t cur = size(d);
  if (start < 0) start += cur;
  GFY_CHECK(start >= 0 && start <= cur, "start out of range (expected to be in range of [", -cur, ", ", cur,
            "], but got ", start, ")");
  GFY_CHECK(length >= 0 && start <= cur - length, "start (", start, ") + length (", length,
            ") exceeds dimension size (", cur, ").");
  return slice(d, start, start + length, 1);
}

Tensor Tensor::select(int64_t d, int64_t index) const {
  const TensorImpl &t = impl_of(*this);
  GFY_CHECK(dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  d = maybe_wrap_dim(d, dim());
  const int64_t len = t.sizes[d];
  GFY_CHECK(index >= -len && index < len, "select(): index ", index, " out of range for tensor of size ",
            IntArrayRef(t.sizes), " at dimension ", d);
  if (index < 0) index += len;
  auto sz = t.sizes, st = t.strides;
  sz.erase(sz.begin() + d);
  st.erase(st.begin() + d);
  Tensor v = make_view(*this, sz, st, t.offset + index * t.strides[d]);
  if (ad::needs_view_history(*this)) ad::record_select(v, *this, d, index);
  return v;
}

std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t d) const {
  GFY_CHECK(dim() > 0, "chunk expects at least a 1-dimensional tensor");
  GFY_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  d = maybe_wrap_dim(d, dim());
  const int64_t len = size(d);
  const int64_t split_size = (len + chunks - 1) / chunks;
  if (split_size == 0 && len == 0) {
    std::vector<Tensor> out;
    for (int64_t i = 0; i < chunks; ++i) out.push_back(narrow(d, 0, 0));
    return out;
  }
  return split(split_size, d);
}

std::vector<Tensor> Tensor::split(int64_t split_size, int64_t d) const {
  GFY_CHECK(dim() != 0, "split expects at least a 1-dimensional tensor");
  GFY_CHECK(split_size >= 0, "split expects split_size be non-negative, but got split_size=", split_size);
  d = maybe_wrap_dim(d, dim());
  const int64_t len = size(d);
  GFY_CHECK(split_size > 0 || len == 0, "split_size can only be 0 if dimension size is 0, but got dimension size of ",
            len);
  std::vector<Tensor> out;
  if (len == 0) {
    out.push_back(*this);
    return out;
  }
  for (int64_t s = 0; s < len; s += split_size) out.push_back(narrow(d, s, std::min(split_size, len - s)));
  return out;
}

std::vector<Tensor> Tensor::split(IntArrayRef sizes, int64_t d) const {
  d = maybe_wrap_dim(d, dim());
  int64_t total = 0;
  for (int64_t s : sizes) {
    GFY_CHECK(s >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=", sizes);
    total += s;
  }
  GFY_CHECK(total == size(d), "split_with_sizes expects split_sizes to sum exactly to ", size(d),
            " (input tensor's size at dimension ", d, "), but got split_sizes=", sizes);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t s : sizes) {
    out.push_back(narrow(d, start, s));
    start += s;
  }
  return out;
}

std::vector<Tensor> Tensor::split_with_sizes(IntArrayRef sizes, int64_t d) const { return split(sizes, d); }

std::vector<Tensor> Tensor::unbind(int64_t d) const {
  d = maybe_wrap_dim(d, dim(), false);
  std::vector<Tensor> out;
  for (int64_t i = 0; i < size(d); ++i) out.push_back(select(d, i));
  return out;
}

Tensor Tensor::detach() const {
  const TensorImpl &t = impl_of(*this);
  Tensor v = make_view(*this, t.sizes, t.strides, t.offset);
  // An alias without history: not a view for autograd, as LibTorch's detach().
  v.unsafeGetTensorImpl()->autograd_meta.reset();
  v.unsafeGetTensorImpl()->is_view = false;
  return v;
}

// --- printing -----------------------------------------------------------------------------------

std::ostream &operator<<(std::ostream &os, const Tensor &t) {
  print(os, t, std::source_location::current());
  return os;
}

void print(std::ostream &os, const Tensor &t, std::source_location loc) { print(os, t, 80, loc); }

std::ostream &print(std::ostream &os, const Tensor &t, int64_t linesize, std::source_location loc) {
  detail::on_host_read("printing a tensor", loc);
  detail::print_tensor(os, t, linesize);
  return os;
}

void print(const Tensor &t, int64_t linesize, std::source_location loc) { print(std::cout, t, linesize, loc); }

std::string Tensor::toString() const {
  if (!defined()) return "UndefinedType";
  return std::string(is_cpu() ? "CPU" : "CUDA") + to_string(scalar_type()) + "Type";
}

} // namespace gfy
