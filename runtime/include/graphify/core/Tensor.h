#pragma once
/// \file
/// gfy::Tensor: a strided view (sizes, strides, storage offset, dtype) of a reference-counted
/// Storage that lives on one device. Copies of a Tensor share the same TensorImpl, exactly as
/// LibTorch's at::Tensor; views share the Storage.
///
/// \code
///   gfy::Tensor x = gfy::randn({4, 3});
///   gfy::Tensor y = x.t().contiguous() * 2 + 1;      // views, broadcasting, scalars
///   auto [vals, idx] = y.max(/*dim=*/1, /*keepdim=*/true);
///   float first = y.index({0, 0}).item<float>();
/// \endcode

#include <graphify/core/TensorAccessor.h>
#include <graphify/core/Types.h>

#include <functional>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace gfy {

class Backend;
class Tensor;
namespace indexing {
class TensorIndex;
}
namespace autograd {
class Node;
struct AutogradMeta;
} // namespace autograd

/// A device buffer. Allocated through the owning backend's caching allocator and handed back
/// to it when the last view dies.
struct Storage {
  void *data = nullptr;
  size_t nbytes = 0;
  Device device;
  Backend *backend = nullptr; ///< null for external memory (from_blob): never freed here
  std::function<void(void *)> deleter; ///< from_blob's optional deleter
  /// Bumped by every kernel that writes the buffer; autograd compares it with the value a saved
  /// tensor had, to refuse gradients computed from overwritten values (LibTorch's version counter,
  /// shared by a tensor and its views).
  uint32_t version = 0;
  Storage() = default;
  Storage(const Storage &) = delete;
  Storage &operator=(const Storage &) = delete;
  ~Storage();
};

/// The state a Tensor handle points at. Invariant: `numel` is the product of `sizes`, and every
/// element addressed by sizes/strides/offset lies inside `storage` (checked when views are made).
struct TensorImpl {
  std::shared_ptr<Storage> storage;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides; ///< in elements
  int64_t offset = 0;           ///< in elements
  int64_t numel = 1;
  ScalarType dtype = kFloat;
  bool contiguous = true;     ///< row-major dense, cached when the impl is made
  bool wrapped_number = false; ///< a host Scalar wrapped as a 0-d tensor (type promotion)
  bool is_view = false;        ///< made from another tensor's storage (detail::make_view)
  /// Autograd state (requires_grad, grad, grad_fn); null for tensors that never took part in
  /// autograd, so the no-grad path costs one pointer test per operand.
  std::shared_ptr<autograd::AutogradMeta> autograd_meta;
  /// Address of element 0 (no capture check: for kernels).
  char *data() const { return static_cast<char *>(storage->data) + offset * int64_t(element_size(dtype)); }
  void refresh(); ///< recompute numel and contiguous after sizes/strides change
};

/// A handle to a tensor (see file comment). Default-constructed handles are undefined.
class Tensor {
public:
  using SL = std::source_location;

  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  Tensor(const Tensor &) = default;
  Tensor(Tensor &&) noexcept = default;
  ~Tensor() = default;
  /// Assigning to a named tensor rebinds the handle, as in LibTorch.
  Tensor &operator=(const Tensor &) & = default;
  Tensor &operator=(Tensor &&) & noexcept = default;
  /// Assigning to a temporary writes into the elements it views, as LibTorch's rvalue
  /// assignments do: `x[i] = v` copies `v` (broadcast), `x[i][0] = 0` fills.
  /// \code
  ///   x.select(0, 2) = y;   // x's third row is now y
  ///   x[1][0] = 0;
  /// \endcode
  Tensor &operator=(const Tensor &src) && { return copy_(src); }
  Tensor &operator=(const Scalar &value) && { return fill_(value); }

  // --- metadata (never needs the data, never refused during capture) ---
  bool defined() const { return impl_ != nullptr; }
  int64_t dim() const;
  int64_t ndimension() const { return dim(); }
  int64_t numel() const;
  int64_t size(int64_t d) const;
  IntArrayRef sizes() const;
  int64_t stride(int64_t d) const;
  IntArrayRef strides() const;
  int64_t storage_offset() const;
  ScalarType scalar_type() const;
  TypeMeta dtype() const { return scalar_type(); }
  Device device() const;
  TensorOptions options() const;
  /// LibTorch's deprecated type object: device type and dtype (`x.type().scalarType()`).
  const DeprecatedTypeProperties &type() const;
  bool is_contiguous() const;
  /// Whether the strides are exactly `format`'s (ChannelsLast: 4-d, channels innermost).
  bool is_contiguous(MemoryFormat format) const;
  /// ChannelsLast / ChannelsLast3d when the strides order the dims that way (LibTorch's
  /// heuristic, ambiguous cases Contiguous), else Contiguous.
  MemoryFormat suggest_memory_format(bool channels_last_strides_exact_match = false) const;
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  /// The CUDA device index, -1 on the CPU (LibTorch's get_device()).
  int64_t get_device() const { return is_cuda() ? (device().index() < 0 ? 0 : device().index()) : -1; }
  bool is_sparse() const { return false; }
  [[deprecated("Tensor.is_variable() is deprecated; everything is a variable now.")]] bool is_variable() const noexcept {
    return true;
  }
  bool is_floating_point() const { return isFloatingType(scalar_type()); }
  int64_t element_size() const { return int64_t(gfy::element_size(scalar_type())); }
  int64_t nbytes() const { return numel() * element_size(); }
  bool requires_grad() const;
  bool is_same(const Tensor &o) const { return impl_ == o.impl_; }
  TensorImpl *unsafeGetTensorImpl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl> &impl() const { return impl_; }
  std::string toString() const;

  // --- autograd (graphify/autograd/Autograd.h; LibTorch's semantics and messages) ---
  /// Makes a floating leaf track gradients (`x.requires_grad_()`); only leaves may change it.
  Tensor &requires_grad_(bool requires_grad = true) const;
  void set_requires_grad(bool requires_grad) { requires_grad_(requires_grad); }
  /// The accumulated gradient of a leaf; undefined until a backward pass reaches it.
  const Tensor &grad() const;
  Tensor &mutable_grad() const;
  /// Back-propagates from this tensor (a scalar, unless `gradient` is given) into the leaves.
  void backward(const Tensor &gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false, std::optional<std::vector<Tensor>> inputs = std::nullopt) const;
  /// True for tensors made by the user (not by an op on tensors that require grad).
  bool is_leaf() const;
  /// The node that computes this tensor's gradient, or null for leaves.
  const std::shared_ptr<autograd::Node> &grad_fn() const;
  uint32_t output_nr() const;
  /// Keeps `.grad()` of a non-leaf after backward.
  void retain_grad() const;
  bool retains_grad() const;
  /// Detaches in place: this handle stops tracking history.
  Tensor &detach_() const;
  /// The same data without autograd history (as `detach()`).
  Tensor data() const { return detach(); }
  bool is_view() const { return defined() && impl_->is_view; }
  int64_t _version() const;

  // --- host reads: refused (CaptureError) while capturing, warned while tracing ---
  Scalar item(SL loc = SL::current()) const;
  template <class T> T item(SL loc = SL::current()) const { return item(loc).to<T>(); }
  bool is_nonzero(SL loc = SL::current()) const;
  /// Typed pointer to element 0 (checks the dtype, as LibTorch).
  template <class T> T *data_ptr(SL loc = SL::current()) const {
    check_data_ptr(CppTypeToScalarType<std::remove_cv_t<T>>::value, loc);
    return reinterpret_cast<T *>(raw_data());
  }
  void *data_ptr(SL loc = SL::current()) const;
  /// LibTorch's deprecated spelling of data_ptr<T>() (old detection kernels still use it).
  template <class T>
  [[deprecated("Tensor.data<T>() is deprecated. Please use Tensor.data_ptr<T>() instead.")]] T *
  data(SL loc = SL::current()) const {
    return data_ptr<T>(loc);
  }
  /// Indexed host access to a CPU tensor's elements (TensorAccessor.h): checks the number of
  /// dims and the dtype, as LibTorch; the accessor must not outlive the tensor.
  template <class T, size_t N> TensorAccessor<T, N> accessor(SL loc = SL::current()) const & {
    GFY_CHECK(dim() == static_cast<int64_t>(N), "TensorAccessor expected ", N, " dims but tensor has ", dim());
    GFY_CHECK(is_cpu(), "accessor() reads the tensor's memory on the host, but the tensor is not on the CPU");
    T *p = data_ptr<T>(loc);
    return TensorAccessor<T, N>(p, sizes().data(), strides().data());
  }
  /// A temporary's accessor would dangle (LibTorch deletes it too).
  template <class T, size_t N> TensorAccessor<T, N> accessor() && = delete;
  Tensor cpu(SL loc = SL::current()) const;
  Tensor cuda() const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false,
            SL loc = SL::current()) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(TypeMeta dtype, bool non_blocking = false, bool copy = false) const {
    return to(dtype.toScalarType(), non_blocking, copy);
  }
  Tensor to(const TensorOptions &options, SL loc = SL::current()) const;
  /// Other's dtype and device, as LibTorch.
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false, SL loc = SL::current()) const {
    return to(other.device(), other.scalar_type(), non_blocking, copy, loc);
  }
  Tensor type_as(const Tensor &other) const { return to(other.scalar_type()); }
  Tensor toType(ScalarType t) const { return to(t); }

  // --- views (share storage) ---
  Tensor view(IntArrayRef size) const;
  Tensor view_as(const Tensor &other) const { return view(other.sizes()); }
  Tensor reshape(IntArrayRef shape) const;
  Tensor reshape_as(const Tensor &other) const { return reshape(other.sizes()); }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  /// In-place metadata changes, as LibTorch: every handle to this tensor sees the new shape.
  Tensor &squeeze_() const;
  Tensor &squeeze_(int64_t dim) const;
  Tensor &unsqueeze_(int64_t dim) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor permute(IntArrayRef dims) const;
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_as(const Tensor &other) const { return expand(other.sizes()); }
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor operator[](int64_t index) const { return select(0, index); }
  /// `x[t]` with a 0-d integer tensor: the row at the position it holds, read on the host as
  /// LibTorch does (`dets[order[0]][2]`); any other tensor throws, as there.
  Tensor operator[](const Tensor &index) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  Tensor detach() const;
  /// Dense copy when not already contiguous (recorded as a copy op while capturing).
  Tensor contiguous() const;
  /// A dense copy laid out as `format` (itself when it already is).
  Tensor contiguous(MemoryFormat format) const;
  Tensor clone() const;

  // --- indexing (see graphify/core/Indexing.h) ---
  Tensor index(std::initializer_list<indexing::TensorIndex> indices, SL loc = SL::current()) const;
  Tensor index(const std::vector<indexing::TensorIndex> &indices, SL loc = SL::current()) const;
  /// With `accumulate`, values at repeated indices are summed (as LibTorch's index_put_).
  Tensor &index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor &value,
                     bool accumulate = false, SL loc = SL::current());
  Tensor &index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar &value,
                     SL loc = SL::current());
  Tensor &index_put_(const std::vector<indexing::TensorIndex> &indices, const Tensor &value,
                     bool accumulate = false, SL loc = SL::current());
  Tensor &index_put_(const std::vector<indexing::TensorIndex> &indices, const Scalar &value,
                     SL loc = SL::current());
  Tensor &scatter_(int64_t dim, const Tensor &index, const Tensor &src) const;
  Tensor &scatter_(int64_t dim, const Tensor &index, const Scalar &value) const;
  Tensor scatter_add(int64_t dim, const Tensor &index, const Tensor &src) const;
  Tensor &scatter_add_(int64_t dim, const Tensor &index, const Tensor &src) const;
  /// self[..., index[i], ...] = source[..., i, ...] along `dim` (index: long, 0-d or 1-d).
  Tensor &index_copy_(int64_t dim, const Tensor &index, const Tensor &source) const;
  Tensor index_copy(int64_t dim, const Tensor &index, const Tensor &source) const;
  /// Adds alpha * source's slices into self's slices at `index` along `dim` (repeated indices add up).
  Tensor &index_add_(int64_t dim, const Tensor &index, const Tensor &source, const Scalar &alpha = 1) const;
  Tensor index_add(int64_t dim, const Tensor &index, const Tensor &source, const Scalar &alpha = 1) const;
  /// LibTorch's aliases: not_equal is ne, argwhere is nonzero.
  Tensor not_equal(const Tensor &o) const { return ne(o); }
  Tensor not_equal(const Scalar &o) const { return ne(o); }
  Tensor argwhere(SL loc = SL::current()) const { return nonzero(loc); }
  /// self[..., index[i], ...] = value along `dim` (a Scalar or a 0-d tensor, converted to self's dtype).
  Tensor &index_fill_(int64_t dim, const Tensor &index, const Scalar &value) const;
  Tensor &index_fill_(int64_t dim, const Tensor &index, const Tensor &value) const;
  Tensor index_fill(int64_t dim, const Tensor &index, const Scalar &value) const;
  Tensor index_fill(int64_t dim, const Tensor &index, const Tensor &value) const;

  // --- in-place ---
  Tensor &copy_(const Tensor &src, bool non_blocking = false) const;
  Tensor &fill_(const Scalar &value) const;
  Tensor &fill_(const Tensor &value) const;
  Tensor &zero_() const;
  Tensor &add_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &add_(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor &sub_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &sub_(const Scalar &other, const Scalar &alpha = 1) const;
  Tensor &mul_(const Tensor &other) const;
  Tensor &mul_(const Scalar &other) const;
  Tensor &div_(const Tensor &other) const;
  Tensor &div_(const Scalar &other) const;
  Tensor &masked_fill_(const Tensor &mask, const Scalar &value) const;
  Tensor &masked_fill_(const Tensor &mask, const Tensor &value) const;
  Tensor &clamp_(std::optional<Scalar> min = std::nullopt, std::optional<Scalar> max = std::nullopt) const;
  Tensor &relu_() const;
  Tensor &sigmoid_() const;
  Tensor &tanh_() const;
  Tensor &exp_() const;
  Tensor &neg_() const;
  // The maps of ops.def (GFY_MAP_OP rows), in place: sin_(), atan2_(other), ... (none for predicates)
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits) GFY_TENSOR_MAP_INPLACE_##promotion(GFY_TENSOR_MAP_INPLACE_##kind, name)
#define GFY_TENSOR_MAP_INPLACE_unary(name) Tensor &name##_() const;
#define GFY_TENSOR_MAP_INPLACE_binary(name) Tensor &name##_(const Tensor &other) const;
#define GFY_TENSOR_MAP_INPLACE_to_float(declare, name) declare(name)
#define GFY_TENSOR_MAP_INPLACE_float_only(declare, name) declare(name)
#define GFY_TENSOR_MAP_INPLACE_to_bool(declare, name)
#include <graphify/ops.def>
#undef GFY_TENSOR_MAP_INPLACE_to_bool
#undef GFY_TENSOR_MAP_INPLACE_float_only
#undef GFY_TENSOR_MAP_INPLACE_to_float
#undef GFY_TENSOR_MAP_INPLACE_binary
#undef GFY_TENSOR_MAP_INPLACE_unary
#undef GFY_MAP_OP
#undef GFY_OP
  Tensor &fmod_(const Tensor &other) const;
  Tensor &fmod_(const Scalar &other) const;
  Tensor &remainder_(const Tensor &other) const;
  Tensor &remainder_(const Scalar &other) const;
  Tensor &floor_divide_(const Tensor &other) const;
  Tensor &floor_divide_(const Scalar &other) const;
  Tensor &lerp_(const Tensor &end, const Scalar &weight) const;
  Tensor &lerp_(const Tensor &end, const Tensor &weight) const;
  Tensor &uniform_(double from = 0, double to = 1) const;
  Tensor &normal_(double mean = 0, double std = 1) const;
  /// Fills with draws of Exp(lambd) (floating dtypes).
  Tensor &exponential_(double lambd = 1) const;
  /// Fills with 0 or 1, 1 with probability p (a number in [0, 1], or a tensor broadcast to self).
  Tensor &bernoulli_(double p = 0.5) const;
  Tensor &bernoulli_(const Tensor &p) const;
  Tensor &operator+=(const Tensor &o) { return add_(o); }
  Tensor &operator+=(const Scalar &o) { return add_(o); }
  Tensor &operator-=(const Tensor &o) { return sub_(o); }
  Tensor &operator-=(const Scalar &o) { return sub_(o); }
  Tensor &operator*=(const Tensor &o) { return mul_(o); }
  Tensor &operator*=(const Scalar &o) { return mul_(o); }
  Tensor &operator/=(const Tensor &o) { return div_(o); }
  Tensor &operator/=(const Scalar &o) { return div_(o); }
  Tensor &operator&=(const Tensor &o) { return bitwise_and_(o); }
  Tensor &operator|=(const Tensor &o) { return bitwise_or_(o); }
  Tensor &operator^=(const Tensor &o) { return bitwise_xor_(o); }

  // --- math (same semantics as the free functions in Functions.h) ---
  Tensor square() const { return mul(*this); }
  // The maps of ops.def (GFY_MAP_OP rows): sin(), atan2(other), ... (gfy::sin, gfy::atan2).
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits) GFY_TENSOR_MAP_##kind(name)
#define GFY_TENSOR_MAP_unary(name) Tensor name() const;
#define GFY_TENSOR_MAP_binary(name) Tensor name(const Tensor &other) const;
#include <graphify/ops.def>
#undef GFY_TENSOR_MAP_binary
#undef GFY_TENSOR_MAP_unary
#undef GFY_MAP_OP
#undef GFY_OP
  /// In place, the result converted to this tensor's dtype (1 or 0), as LibTorch's.
  Tensor &logical_not_() const;
  Tensor &logical_and_(const Tensor &other) const;
  Tensor &logical_or_(const Tensor &other) const;
  Tensor &logical_xor_(const Tensor &other) const;
  Tensor bitwise_and(const Tensor &other) const;
  Tensor bitwise_and(const Scalar &other) const;
  Tensor bitwise_or(const Tensor &other) const;
  Tensor bitwise_or(const Scalar &other) const;
  Tensor bitwise_xor(const Tensor &other) const;
  Tensor bitwise_xor(const Scalar &other) const;
  Tensor &bitwise_not_() const;
  Tensor &bitwise_and_(const Tensor &other) const;
  Tensor &bitwise_and_(const Scalar &other) const;
  Tensor &bitwise_or_(const Tensor &other) const;
  Tensor &bitwise_or_(const Scalar &other) const;
  Tensor &bitwise_xor_(const Tensor &other) const;
  Tensor &bitwise_xor_(const Scalar &other) const;
  Tensor eq(const Tensor &o) const;
  Tensor eq(const Scalar &o) const;
  Tensor ne(const Tensor &o) const;
  Tensor ne(const Scalar &o) const;
  Tensor lt(const Tensor &o) const;
  Tensor lt(const Scalar &o) const;
  Tensor le(const Tensor &o) const;
  Tensor le(const Scalar &o) const;
  Tensor gt(const Tensor &o) const;
  Tensor gt(const Scalar &o) const;
  Tensor ge(const Tensor &o) const;
  Tensor ge(const Scalar &o) const;
  /// In-place comparisons: self becomes (self OP other) as 0/1 in self's dtype; other broadcasts
  /// to self's shape.
  Tensor &eq_(const Tensor &o) const;
  Tensor &eq_(const Scalar &o) const;
  Tensor &ne_(const Tensor &o) const;
  Tensor &ne_(const Scalar &o) const;
  Tensor &lt_(const Tensor &o) const;
  Tensor &lt_(const Scalar &o) const;
  Tensor &le_(const Tensor &o) const;
  Tensor &le_(const Scalar &o) const;
  Tensor &gt_(const Tensor &o) const;
  Tensor &gt_(const Scalar &o) const;
  Tensor &ge_(const Tensor &o) const;
  Tensor &ge_(const Scalar &o) const;

  // --- reductions ---
  /// `x.max(other)`: LibTorch's elementwise overload, `maximum`.
  Tensor max(const Tensor &other) const { return maximum(other); }
  /// `x.min(other)`: LibTorch's elementwise overload, `minimum`.
  Tensor min(const Tensor &other) const { return minimum(other); }

  // --- composites (see the free functions of the same names in Functions.h) ---
  /// `x.var(0)` reduces dim 0, as LibTorch's C++-only overload (without it, 0 would convert to
  /// `unbiased`).
  Tensor var(int dim) const { return var(IntArrayRef{int64_t(dim)}); }
  Tensor std(int dim) const { return std(IntArrayRef{int64_t(dim)}); }
  /// The windows of `size` elements every `step` along `dimension`, as a new last dim: shape
  /// (..., (n - size) / step + 1, ..., size). A copy here, a view in LibTorch (docs/compat.md).
  Tensor unfold(int64_t dimension, int64_t size, int64_t step) const;
  Tensor clip(std::optional<Scalar> min = std::nullopt, std::optional<Scalar> max = std::nullopt) const {
    return clamp(min, max);
  }
  bool is_same_size(const Tensor &other) const { return sizes() == other.sizes(); }
  /// New tensors with this tensor's dtype and device unless `options` say otherwise.
  Tensor new_empty(IntArrayRef size, const TensorOptions &options = {}) const;
  Tensor new_zeros(IntArrayRef size, const TensorOptions &options = {}) const;
  Tensor new_ones(IntArrayRef size, const TensorOptions &options = {}) const;
  Tensor new_full(IntArrayRef size, const Scalar &fill_value, const TensorOptions &options = {}) const;

  // --- linear algebra ---

  // --- methods that only forward to a function (generated from core/tensor_methods.txt) ---
#include <graphify/core/TensorMethods.inc>

private:
  // In-place methods are const, as LibTorch's: a Tensor is a handle, and writing through it
  // changes the shared TensorImpl, not the handle (`p.grad().zero_()` on the const reference
  // `grad()` returns is ordinary user code). They hand out the handle itself as LibTorch does.
  Tensor &mutable_self() const { return const_cast<Tensor &>(*this); }
  void check_data_ptr(ScalarType requested, const SL &loc) const;
  void *raw_data() const;
  std::shared_ptr<TensorImpl> impl_;
};

std::ostream &operator<<(std::ostream &os, const Tensor &t);
/// Prints like `std::cout << t` but names the caller in a CaptureError.
void print(std::ostream &os, const Tensor &t, std::source_location loc = std::source_location::current());
/// LibTorch's `at::print(stream, t, linesize)`: rows wrapped at `linesize` columns.
std::ostream &print(std::ostream &os, const Tensor &t, int64_t linesize,
                    std::source_location loc = std::source_location::current());
/// LibTorch's `at::print(t)`: prints to std::cout.
void print(const Tensor &t, int64_t linesize = 80, std::source_location loc = std::source_location::current());

// Operators, tensor ⊕ tensor and both scalar orders.
Tensor operator-(const Tensor &a);
Tensor operator~(const Tensor &a);
#define GFY_DECLARE_BINARY_OPERATOR(op)                                                            \
  Tensor operator op(const Tensor &a, const Tensor &b);                                            \
  Tensor operator op(const Tensor &a, const Scalar &b);                                            \
  Tensor operator op(const Scalar &a, const Tensor &b);
GFY_DECLARE_BINARY_OPERATOR(+)
GFY_DECLARE_BINARY_OPERATOR(-)
GFY_DECLARE_BINARY_OPERATOR(*)
GFY_DECLARE_BINARY_OPERATOR(/)
GFY_DECLARE_BINARY_OPERATOR(<)
GFY_DECLARE_BINARY_OPERATOR(<=)
GFY_DECLARE_BINARY_OPERATOR(>)
GFY_DECLARE_BINARY_OPERATOR(>=)
GFY_DECLARE_BINARY_OPERATOR(==)
GFY_DECLARE_BINARY_OPERATOR(!=)
GFY_DECLARE_BINARY_OPERATOR(&)
GFY_DECLARE_BINARY_OPERATOR(|)
GFY_DECLARE_BINARY_OPERATOR(^)
GFY_DECLARE_BINARY_OPERATOR(%)
#undef GFY_DECLARE_BINARY_OPERATOR

} // namespace gfy
