// Front-ends of creation, copy/conversion and elementwise ops. Type promotion follows LibTorch's
// result_type exactly (dimensioned tensors > 0-d tensors > wrapped numbers, by category), so the
// same expression gives the same dtype here and in LibTorch.
#include "OpsCommon.h"

#include <cmath>
#include <limits>

namespace gfy {
namespace detail {

void check_defined(const Tensor &t, const char *what) {
  GFY_CHECK(t.defined(), "Expected a proper Tensor but got an undefined Tensor for argument '", what, "'");
}

Device common_device(std::initializer_list<const Tensor *> tensors) {
  std::optional<Device> dev;
  bool dev_is_host_scalar = false;
  for (const Tensor *t : tensors) {
    if (!t->defined()) continue;
    const Device d = t->device();
    if (!dev) {
      dev = d;
      dev_is_host_scalar = t->dim() == 0 && d.pageable_host_;
    } else if (dev_is_host_scalar && d.type() == dev->type() && !d.pageable_host_) {
      // A 0-d tensor a factory made in host memory joins an op on the device the graph runs on,
      // as LibTorch's CPU 0-d joins a CUDA op: the result is on that device (Types.h, Device).
      dev = d;
      dev_is_host_scalar = false;
    } else if (d.type() != dev->type()) {
      // LibTorch lets a CPU 0-d tensor join a CUDA op; anything else is an error.
      if (t->dim() == 0 && d.is_cpu()) continue;
      throw Error(str_cat("Expected all tensors to be on the same device, but found at least two devices, ",
                          dev->str(), " and ", d.str(), "!"));
    }
  }
  return dev.value_or(Device(kCPU));
}

namespace {
struct PromoState {
  std::optional<ScalarType> dim, zero, wrapped;
  void add(ScalarType t, int64_t ndim, bool is_wrapped) {
    auto &slot = is_wrapped ? wrapped : ndim > 0 ? dim : zero;
    // A wrapped floating number counts as the default dtype, as in LibTorch.
    if (is_wrapped && isFloatingType(t)) t = get_default_dtype();
    slot = slot ? promote_types(*slot, t) : t;
  }
};
std::optional<ScalarType> combine(std::optional<ScalarType> higher, std::optional<ScalarType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (isFloatingType(*higher)) return higher;
  if (*higher == kBool || isFloatingType(*lower)) return promote_types(*higher, *lower);
  return higher;
}
ScalarType finish(const PromoState &s) {
  auto r = combine(s.dim, combine(s.zero, s.wrapped));
  return r.value_or(get_default_dtype());
}
} // namespace

ScalarType result_type(std::initializer_list<const Tensor *> tensors) {
  PromoState s;
  for (const Tensor *t : tensors)
    if (t->defined()) {
      const TensorImpl &i = *t->unsafeGetTensorImpl();
      s.add(i.dtype, int64_t(i.sizes.size()), i.wrapped_number);
    }
  return finish(s);
}


Tensor scalar_to_tensor(const Scalar &s, ScalarType dtype, Device device) {
  // On the CPU the device is kept as given: a factory's default (`torch::tensor(conf)` in a
  // region) is pageable host memory, whose copy to a device capture refuses, as LibTorch's would sync.
  Tensor out = make_tensor({}, dtype, device.is_cpu() ? device : Device(kCPU));
  char *p = out.unsafeGetTensorImpl()->data();
  switch (dtype) {
  case kBool: *reinterpret_cast<bool *>(p) = s.toBool(); break;
  case kByte: *reinterpret_cast<uint8_t *>(p) = s.to<uint8_t>(); break;
  case kChar: *reinterpret_cast<int8_t *>(p) = s.to<int8_t>(); break;
  case kShort: *reinterpret_cast<int16_t *>(p) = s.to<int16_t>(); break;
  case kInt: *reinterpret_cast<int32_t *>(p) = s.toInt(); break;
  case kLong: *reinterpret_cast<int64_t *>(p) = s.toLong(); break;
  case kFloat: *reinterpret_cast<float *>(p) = s.toFloat(); break;
  case kDouble: *reinterpret_cast<double *>(p) = s.toDouble(); break;
  case kHalf: *reinterpret_cast<Half *>(p) = s.toHalf(); break;
  case kBFloat16: *reinterpret_cast<BFloat16 *>(p) = s.toBFloat16(); break;
  }
  if (!device.is_cpu()) {
    // A constant made here, not a user's host tensor: copied through the backend, which is legal
    // under capture (the CUDA backend passes up to 256 bytes as a kernel argument, so the value
    // becomes part of the graph), where copy_ between devices is refused.
    Tensor on_device = make_tensor({}, dtype, device);
    backend_for(device.type()).copy_from_host(on_device.unsafeGetTensorImpl()->data(), p, element_size(dtype));
    return on_device;
  }
  return out;
}

Tensor cast(const Tensor &t, ScalarType dtype) {
  if (t.scalar_type() == dtype) return t;
  return t.to(dtype);
}

} // namespace detail

ScalarType result_type(const Tensor &a, const Tensor &b) { return detail::result_type({&a, &b}); }
ScalarType result_type(const Tensor &a, const Scalar &b) {
  detail::PromoState s;
  const TensorImpl &i = detail::impl_of(a);
  s.add(i.dtype, int64_t(i.sizes.size()), i.wrapped_number);
  s.add(b.type(), 0, true);
  return detail::finish(s);
}
ScalarType result_type(const Scalar &a, const Tensor &b) { return result_type(b, a); }
ScalarType result_type(const Scalar &a, const Scalar &b) {
  detail::PromoState s;
  s.add(a.type(), 0, true);
  s.add(b.type(), 0, true);
  return detail::finish(s);
}

using namespace detail;

// --- creation -----------------------------------------------------------------------------------

namespace {
/// `TensorOptions().requires_grad(true)`: the new tensor is a leaf that requires grad (set once
/// it is filled, so that filling is not an in-place op on such a leaf).
Tensor leaf(Tensor t, const TensorOptions &o) {
  if (o.requires_grad_) t.requires_grad_(true);
  return t;
}
} // namespace

Tensor empty(IntArrayRef size, const TensorOptions &o) { return leaf(make_tensor(size, o.dtype(), o.device()), o); }

Tensor full(IntArrayRef size, const Scalar &v, const TensorOptions &o) {
  ScalarType dt = o.has_dtype() ? o.dtype().toScalarType() : v.isFloatingPoint() ? get_default_dtype() : v.type();
  Tensor t = make_tensor(size, dt, o.device());
  return leaf(t.fill_(v), o);
}
Tensor zeros(IntArrayRef size, const TensorOptions &o) { return full(size, 0, o.dtype(o.dtype())); }
Tensor ones(IntArrayRef size, const TensorOptions &o) { return full(size, 1, o.dtype(o.dtype())); }

namespace {
TensorOptions like_options(const Tensor &t, const TensorOptions &o) {
  check_defined(t, "self");
  return TensorOptions()
      .dtype(o.has_dtype() ? o.dtype().toScalarType() : t.scalar_type())
      .device(o.has_device() ? o.device() : t.device())
      .requires_grad(o.requires_grad_);
}
} // namespace
Tensor empty_like(const Tensor &t, const TensorOptions &o) { return empty(t.sizes(), like_options(t, o)); }
Tensor zeros_like(const Tensor &t, const TensorOptions &o) { return zeros(t.sizes(), like_options(t, o)); }
Tensor ones_like(const Tensor &t, const TensorOptions &o) { return ones(t.sizes(), like_options(t, o)); }
Tensor full_like(const Tensor &t, const Scalar &v, const TensorOptions &o) { return full(t.sizes(), v, like_options(t, o)); }
Tensor rand_like(const Tensor &t, const TensorOptions &o) { return rand(t.sizes(), like_options(t, o)); }
Tensor randn_like(const Tensor &t, const TensorOptions &o) { return randn(t.sizes(), like_options(t, o)); }

Tensor arange(const Scalar &end, const TensorOptions &o) { return arange(0, end, 1, o); }
Tensor arange(const Scalar &start, const Scalar &end, const TensorOptions &o) { return arange(start, end, 1, o); }
Tensor arange(const Scalar &start, const Scalar &end, const Scalar &step, const TensorOptions &o) {
  const bool integral = start.isIntegral(true) && end.isIntegral(true) && step.isIntegral(true);
  const ScalarType dt = o.has_dtype() ? o.dtype().toScalarType() : integral ? kLong : get_default_dtype();
  const double s = start.toDouble(), e = end.toDouble(), st = step.toDouble();
  GFY_CHECK(st != 0, "step must be nonzero");
  GFY_CHECK(std::isfinite(s) && std::isfinite(e), "unsupported range: ", s, " -> ", e);
  GFY_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), "upper bound and larger bound inconsistent with step sign");
  const int64_t n = integral ? (end.toLong() - start.toLong() + step.toLong() - (step.toLong() > 0 ? 1 : -1)) / step.toLong()
                             : int64_t(std::ceil((e - s) / st));
  Tensor out = make_tensor({std::max<int64_t>(n, 0)}, dt, o.device());
  OpCall c;
  c.op = OpId::arange;
  c.out = {out};
  c.alpha = s;
  c.beta = st;
  run(std::move(c), dt);
  return leaf(out, o);
}

Tensor linspace(const Scalar &start, const Scalar &end, int64_t steps, const TensorOptions &o) {
  GFY_CHECK(steps >= 0, "number of steps must be non-negative");
  const ScalarType dt = o.has_dtype() ? o.dtype().toScalarType() : get_default_dtype();
  Tensor out = make_tensor({steps}, dt, o.device());
  OpCall c;
  c.op = OpId::arange;
  c.out = {out};
  c.alpha = start.toDouble();
  c.beta = steps > 1 ? (end.toDouble() - start.toDouble()) / double(steps - 1) : 0.0;
  run(std::move(c), dt);
  return leaf(out, o);
}

namespace {
Tensor random_op(OpId op, IntArrayRef size, const TensorOptions &o, double a, double b, ScalarType dt) {
  Tensor out = make_tensor(size, dt, o.device());
  OpCall c;
  c.op = op;
  c.out = {out};
  c.alpha = a;
  c.beta = b;
  run(std::move(c), dt);
  return leaf(out, o);
}
} // namespace

Tensor rand(IntArrayRef size, const TensorOptions &o) {
  GFY_CHECK(isFloatingType(o.dtype()), "\"check_uniform_bounds\" not implemented for '", to_string(o.dtype()), "'");
  return random_op(OpId::uniform, size, o, 0, 1, o.dtype());
}
Tensor randn(IntArrayRef size, const TensorOptions &o) {
  GFY_CHECK(isFloatingType(o.dtype()), "\"", kernel_name("normal_kernel", o.device()), "\" not implemented for '",
            to_string(o.dtype()), "'");
  return random_op(OpId::normal, size, o, 0, 1, o.dtype());
}
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions &o) { return randint(0, high, size, o); }
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions &o) {
  GFY_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  const ScalarType dt = o.has_dtype() ? o.dtype().toScalarType() : kLong;
  GFY_CHECK(dt != kBool, "randint is not implemented for Bool");
  if (isIntegralType(dt, false) && dt != kLong) {
    // LibTorch checks both ends against the dtype (uint8 draws from [0, 256) at most).
    const double lo = dt == kByte ? 0.0 : -std::ldexp(1.0, int(8 * element_size(dt)) - 1);
    const double hi = dt == kByte ? 255.0 : std::ldexp(1.0, int(8 * element_size(dt)) - 1) - 1;
    GFY_CHECK(double(low) >= lo && double(low) <= hi, "from is out of bounds for ", TypeMeta(dt).name());
    GFY_CHECK(double(high - 1) >= lo && double(high - 1) <= hi, "to - 1 is out of bounds for ", TypeMeta(dt).name());
  }
  return random_op(OpId::randint, size, o, double(low), double(high), dt);
}
Tensor eye(int64_t n, const TensorOptions &o) {
  GFY_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  Tensor out = zeros({n, n}, o);
  if (n > 0) make_view(out, {n}, {n + 1}, 0).fill_(1);
  return leaf(out, o);
}

Tensor scalar_tensor(const Scalar &s, const TensorOptions &o) {
  // LibTorch's scalar_tensor takes its dtype from the options alone (default float), whatever
  // the scalar's kind; gfy::tensor(3) is the one that gives Long.
  return leaf(detail::scalar_to_tensor(s, o.dtype(), o.device()), o);
}

namespace {
template <class T> Tensor tensor_from(const T *data, size_t n, ScalarType natural, const TensorOptions &o) {
  // Host values are copied element by element into host memory (pageable while a graph is
  // captured: a copy to the device the graph runs on is refused there, as LibTorch's would sync),
  // then to the device the options name.
  Tensor host = make_tensor({int64_t(n)}, natural, detail::factory_default_device());
  T *p = reinterpret_cast<T *>(host.unsafeGetTensorImpl()->data());
  for (size_t i = 0; i < n; ++i) p[i] = data[i];
  Tensor r = o.has_dtype() ? cast(host, o.dtype()) : host;
  return leaf(o.has_device() ? r.to(o.device()) : r, o);
}
} // namespace
Tensor tensor(std::initializer_list<float> v, const TensorOptions &o) { return tensor_from(v.begin(), v.size(), kFloat, o); }
Tensor tensor(std::initializer_list<double> v, const TensorOptions &o) {
  // LibTorch's braced double list becomes the default dtype (float32).
  std::vector<double> d(v);
  Tensor t = tensor_from(d.data(), d.size(), kDouble, TensorOptions());
  return leaf(cast(t, o.has_dtype() ? o.dtype().toScalarType() : get_default_dtype()).to(o.device()), o);
}
Tensor tensor(std::initializer_list<int> v, const TensorOptions &o) {
  std::vector<int64_t> d(v.begin(), v.end());
  return tensor_from(d.data(), d.size(), kLong, o);
}
Tensor tensor(std::initializer_list<int64_t> v, const TensorOptions &o) { return tensor_from(v.begin(), v.size(), kLong, o); }
Tensor tensor(std::initializer_list<bool> v, const TensorOptions &o) { return tensor_from(v.begin(), v.size(), kBool, o); }
Tensor tensor(const detail::TensorDataContainer &v, const TensorOptions &o) { return leaf(v.convert_to_tensor(o), o); }
Tensor detail::vector_tensor(const std::vector<float> &v, const TensorOptions &o) { return tensor_from(v.data(), v.size(), kFloat, o); }
Tensor detail::vector_tensor(const std::vector<double> &v, const TensorOptions &o) {
  // As LibTorch: a list of doubles becomes the default dtype unless one is given.
  Tensor t = tensor_from(v.data(), v.size(), kDouble, TensorOptions());
  return leaf(cast(t, o.has_dtype() ? o.dtype().toScalarType() : get_default_dtype()).to(o.device()), o);
}
Tensor detail::vector_tensor(const std::vector<int> &v, const TensorOptions &o) { return tensor_from(v.data(), v.size(), kInt, o); }
Tensor detail::vector_tensor(const std::vector<int64_t> &v, const TensorOptions &o) { return tensor_from(v.data(), v.size(), kLong, o); }
Tensor detail::vector_tensor(const std::vector<uint8_t> &v, const TensorOptions &o) { return tensor_from(v.data(), v.size(), kByte, o); }
Tensor detail::vector_tensor(const std::vector<int8_t> &v, const TensorOptions &o) { return tensor_from(v.data(), v.size(), kChar, o); }
Tensor detail::vector_tensor(const std::vector<int16_t> &v, const TensorOptions &o) { return tensor_from(v.data(), v.size(), kShort, o); }
Tensor detail::vector_tensor(const std::vector<bool> &v, const TensorOptions &o) {
  std::vector<char> b(v.begin(), v.end());
  Tensor host = make_tensor({int64_t(v.size())}, kBool, Device(kCPU));
  bool *p = reinterpret_cast<bool *>(host.unsafeGetTensorImpl()->data());
  for (size_t i = 0; i < b.size(); ++i) p[i] = b[i] != 0;
  return cast(host, o.has_dtype() ? o.dtype().toScalarType() : kBool).to(o.device());
}
Tensor tensor(double v, const TensorOptions &o) { return scalar_tensor(v, o.has_dtype() ? o : o.dtype(get_default_dtype())); }
Tensor tensor(float v, const TensorOptions &o) { return scalar_tensor(v, o.has_dtype() ? o : o.dtype(kFloat)); }
Tensor tensor(int v, const TensorOptions &o) { return scalar_tensor(int64_t(v), o.has_dtype() ? o : o.dtype(kLong)); }
Tensor tensor(int64_t v, const TensorOptions &o) { return scalar_tensor(v, o.has_dtype() ? o : o.dtype(kLong)); }
Tensor tensor(bool v, const TensorOptions &o) { return scalar_tensor(v, o.has_dtype() ? o : o.dtype(kBool)); }

Tensor from_blob(void *data, IntArrayRef sizes, const TensorOptions &o) {
  return from_blob(data, sizes, IntArrayRef(contiguous_strides(sizes)), o);
}
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions &o) {
  GFY_CHECK(sizes.size() == strides.size(), "from_blob: sizes and strides must have the same length");
  GFY_CHECK(sizes.size() <= 25, "tensors have at most 25 dimensions, got ", int64_t(sizes.size()));
  GFY_CHECK(data != nullptr || sizes.empty() || std::count(sizes.begin(), sizes.end(), 0) > 0,
            "from_blob: data pointer is null");
  int64_t extent = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    GFY_CHECK(sizes[i] >= 0 && strides[i] >= 0, "from_blob: negative size or stride");
    if (sizes[i] == 0) extent = 0;
  }
  auto storage = std::make_shared<Storage>();
  storage->data = data;
  storage->device = o.device();
  if (extent != 0) {
    int64_t last = 0;
    for (size_t i = 0; i < sizes.size(); ++i) last += (sizes[i] - 1) * strides[i];
    storage->nbytes = size_t(last + 1) * element_size(o.dtype());
  }
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes = sizes.vec();
  impl->strides = strides.vec();
  impl->dtype = o.dtype();
  impl->refresh();
  return leaf(Tensor(std::move(impl)), o);
}
Tensor from_blob(void *data, IntArrayRef sizes, const std::function<void(void *)> &deleter, const TensorOptions &o) {
  Tensor t = from_blob(data, sizes, o);
  t.unsafeGetTensorImpl()->storage->deleter = deleter;
  return t;
}

// --- copies and conversions ---------------------------------------------------------------------

Tensor &Tensor::copy_(const Tensor &src, bool) const {
  check_defined(*this, "self");
  check_defined(src, "src");
  if (src.device() != device()) {
    // Cross-device copy: through the host. Recording this would need a device copy node; a trace
    // keeps the values it copied (a constant, with the host read's TracerWarning).
    GFY_CHECK(!is_capturing() || is_tracing(), "copy_ between devices cannot be captured");
    Tensor s = src.contiguous();
    Tensor staged = make_tensor(s.sizes(), s.scalar_type(), device());
    const size_t bytes = size_t(s.nbytes());
    if (s.is_cpu()) backend_for(device().type()).copy_from_host(staged.unsafeGetTensorImpl()->data(), s.unsafeGetTensorImpl()->data(), bytes);
    else backend_for(s.device().type()).copy_to_host(staged.unsafeGetTensorImpl()->data(), s.unsafeGetTensorImpl()->data(), bytes);
    return copy_(staged);
  }
  Tensor s = src.expand(sizes());
  OpCall c;
  c.op = OpId::copy;
  c.in = {s};
  c.out = {*this};
  run(std::move(c), scalar_type());
  return mutable_self();
}

namespace {
/// A value stored in an integer tensor must fit it (NaN does not), and a finite one stored in a
/// float, half or bfloat16 tensor its range, as LibTorch checks with c10::checked_convert: "value cannot
/// be converted to type uint8_t without overflow".
void check_fits(const Scalar &v, ScalarType t) {
  const double d = v.toDouble();
  switch (t) {
  case kHalf:
    GFY_CHECK(!std::isfinite(d) || std::fabs(d) <= 65504.0, "value cannot be converted to type at::Half without overflow");
    break;
  case kBFloat16:
    GFY_CHECK(!std::isfinite(d) || std::fabs(d) <= 3.3895313892515355e38,
              "value cannot be converted to type at::BFloat16 without overflow");
    break;
  case kFloat:
    GFY_CHECK(!std::isfinite(d) || std::fabs(d) <= double(std::numeric_limits<float>::max()),
              "value cannot be converted to type float without overflow");
    break;
  case kByte: (void)v.to<uint8_t>(); break;
  case kChar: (void)v.to<int8_t>(); break;
  case kShort: (void)v.to<int16_t>(); break;
  case kInt: (void)v.to<int32_t>(); break;
  case kLong: (void)v.to<int64_t>(); break;
  default: break;
  }
}
} // namespace

Tensor &Tensor::fill_(const Scalar &v) const {
  check_defined(*this, "self");
  OpCall c;
  c.op = OpId::fill;
  c.out = {*this};
  c.alpha = v.toDouble();
  // Integers above 2^53 do not survive a double; carry them exactly in `k`.
  c.k = v.isFloatingPoint() ? 0 : v.toLong();
  check_fits(v, scalar_type());
  c.flag = !v.isFloatingPoint();
  run(std::move(c), scalar_type());
  return mutable_self();
}
Tensor &Tensor::fill_(const Tensor &v) const {
  GFY_CHECK(v.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", v.dim(), " dimensions.");
  // `x.fill_(x[0])`: LibTorch reads the value before writing (a clone when it aliases self), so
  // the overlap rule of copy_ does not apply to it.
  return copy_(v.unsafeGetTensorImpl()->storage == impl_of(*this).storage ? v.clone() : v);
}
Tensor &Tensor::zero_() const { return fill_(0); }

Tensor Tensor::to(ScalarType dtype, bool, bool copy) const {
  check_defined(*this, "self");
  if (dtype == scalar_type() && !copy) return *this;
  Tensor out = make_tensor(sizes(), dtype, device());
  out.copy_(*this);
  return out;
}
Tensor Tensor::to(Device d, ScalarType dtype, bool, bool copy, SL loc) const {
  check_defined(*this, "self");
  // Capture models a CUDA graph with the CPU standing in for the device (Types.h, Device): a
  // copy to a CPU named as such (`to(kCPU)`) is a device-to-host sync, even from a CPU tensor,
  // unless the tensor is in host memory already; a copy to a tensor's device of a tensor a
  // factory built in host memory inside the region is a host-to-device copy from pageable memory.
  const bool in_host_memory = device().pageable_host_;
  if (d.is_cpu() && !d.of_tensor_ && !in_host_memory) detail::on_host_read("to(kCPU)", loc);
  if (d.is_cpu() && d.of_tensor_ && in_host_memory && !d.pageable_host_) {
    detail::on_host_to_device_copy("to(device)", loc);
    Tensor out = make_tensor(sizes(), dtype, Device(kCPU));
    out.copy_(*this);
    return out;
  }
  if (d.type() == device().type()) return to(dtype, false, copy);
  Tensor out = make_tensor(sizes(), dtype, d);
  out.copy_(*this);
  return out;
}
Tensor Tensor::to(const TensorOptions &o, SL loc) const {
  return to(o.has_device() ? o.device() : device(), o.has_dtype() ? o.dtype().toScalarType() : scalar_type(), false, false, loc);
}
Tensor Tensor::cpu(SL loc) const {
  if (!device().pageable_host_) detail::on_host_read("cpu()", loc);
  return to(Device(kCPU), scalar_type(), false, false, loc);
}
Tensor Tensor::cuda() const { return to(Device(kCUDA)); }

Tensor Tensor::contiguous() const {
  check_defined(*this, "self");
  if (is_contiguous()) return *this;
  return clone();
}
Tensor Tensor::clone() const {
  check_defined(*this, "self");
  Tensor out = make_tensor(sizes(), scalar_type(), device());
  out.copy_(*this);
  return out;
}


// --- elementwise front-ends ----------------------------------------------------------------------

std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  // From the last dimension backwards, so the first mismatch reported is LibTorch's.
  for (size_t i = n; i-- > 0;) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da == db || db == 1) out[i] = da;
    else if (da == 1) out[i] = db;
    else
      throw Error(str_cat("The size of tensor a (", da, ") must match the size of tensor b (", db,
                          ") at non-singleton dimension ", int64_t(i)));
  }
  return out;
}

std::vector<Tensor> broadcast_tensors(const std::vector<Tensor> &tensors) {
  std::vector<int64_t> shape;
  for (auto &t : tensors) shape = broadcast_shapes(shape, t.sizes());
  std::vector<Tensor> out;
  for (auto &t : tensors) out.push_back(t.expand(shape));
  return out;
}

namespace {

// Float: floating function of two arguments (atan2), integers computed in the default dtype.
// FloatOnly: no integer kernel at all (hypot). NoBool: integer and floating kernels, none for
// bool (fmod, remainder, floor_divide).
enum class Kind { Arith, TrueDiv, Float, FloatOnly, NoBool, Compare, Logical, Bitwise, Pow };

ScalarType compute_dtype(Kind kind, OpId op, ScalarType promoted, Device device) {
  switch (kind) {
  case Kind::TrueDiv:
  case Kind::Float: return isFloatingType(promoted) ? promoted : get_default_dtype();
  case Kind::FloatOnly:
    GFY_CHECK(isFloatingType(promoted), "\"", kernel_name(op_name(op), device), "\" not implemented for '",
              to_string(promoted), "'");
    return promoted;
  case Kind::NoBool:
    // LibTorch names floor_divide's kernel after its rounding mode.
    GFY_CHECK(promoted != kBool, "\"",
              kernel_name(op == OpId::floor_divide ? std::string_view("div_floor") : op_name(op), device),
              "\" not implemented for 'Bool'");
    return promoted;
  case Kind::Bitwise:
    GFY_CHECK(!isFloatingType(promoted), "\"", kernel_name(op_name(op), device), "\" not implemented for '",
              to_string(promoted), "'");
    return promoted;
  case Kind::Arith:
    GFY_CHECK(!(op == OpId::sub && promoted == kBool),
              "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
              "operator instead.");
    return promoted;
  case Kind::Pow: return promoted == kBool ? kLong : promoted;
  default: return promoted;
  }
}

ScalarType output_dtype(Kind kind, ScalarType compute) {
  return kind == Kind::Compare || kind == Kind::Logical ? kBool : compute;
}

/// The one binary front-end. `self_out` non-null means in-place into *self_out.
Tensor binary(OpId op, Kind kind, const Tensor &a, const Tensor &b, double alpha, Tensor *self_out = nullptr) {
  check_defined(a, "self");
  check_defined(b, "other");
  const Device dev = common_device({&a, &b});
  const ScalarType promoted = result_type({&a, &b});
  ScalarType ct = compute_dtype(kind, op, promoted, dev);
  const ScalarType ot = output_dtype(kind, ct);
  std::vector<int64_t> shape = broadcast_shapes(a.sizes(), b.sizes());
  Tensor out;
  if (self_out) {
    out = *self_out;
    GFY_CHECK(IntArrayRef(shape) == out.sizes(), "output with shape ", out.sizes(),
              " doesn't match the broadcast shape ", IntArrayRef(shape));
    GFY_CHECK(can_cast(ot, out.scalar_type()), "result type ", to_string(ot), " can't be cast to the desired output type ",
              to_string(out.scalar_type()));
    // Computing in self's dtype avoids a temporary; for the one narrowing case allowed
    // (float32 += float64 tensor) LibTorch rounds the same way at the end.
    if (kind != Kind::Compare && kind != Kind::Logical) ct = out.scalar_type();
  } else {
    out = make_tensor(shape, ot, dev);
  }
  Tensor ca = cast(a, ct).expand(shape), cb = cast(b, ct).expand(shape);
  OpCall c;
  c.op = op;
  c.in = {ca, cb};
  c.out = {out};
  c.alpha = alpha;
  run(std::move(c), ct);
  return out;
}

/// `v` as the integer dtype `ct` holds it after a two's-complement cast (modular since C++20).
int64_t wrap_to(int64_t v, ScalarType ct) {
  switch (ct) {
    case kByte: return static_cast<uint8_t>(v);
    case kChar: return static_cast<int8_t>(v);
    case kShort: return static_cast<int16_t>(v);
    case kInt: return static_cast<int32_t>(v);
    default: return v;
  }
}

/// The Scalar operand of a binary op in its compute dtype. LibTorch wraps an integer into a long
/// tensor and casts that to the compute dtype, so a value outside an integer dtype wraps around
/// (uint8 + 300 adds 44, `b < -1` compares with 255): the same cast, done on the host so that no
/// extra op runs (or lands on a tape). pow reads its exponent with a checked conversion instead,
/// as fill_ and full do.
Tensor scalar_operand(Kind kind, const Scalar &s, ScalarType ct, Device device) {
  if (kind == Kind::Pow || !s.isIntegral(false) || !isIntegralType(ct, false)) return scalar_to_tensor(s, ct, device);
  return scalar_to_tensor(Scalar(wrap_to(s.to<int64_t>(), ct)), ct, device);
}

Tensor binary_scalar(OpId op, Kind kind, const Tensor &a, const Scalar &s, double alpha, Tensor *self_out = nullptr) {
  check_defined(a, "self");
  const ScalarType promoted = result_type(a, s);
  ScalarType ct = compute_dtype(kind, op, promoted, a.device());
  if (self_out && kind != Kind::Compare && kind != Kind::Logical) {
    GFY_CHECK(can_cast(output_dtype(kind, ct), a.scalar_type()), "result type ", to_string(output_dtype(kind, ct)),
              " can't be cast to the desired output type ", to_string(a.scalar_type()));
    ct = a.scalar_type();
  }
  Tensor st = scalar_operand(kind, s, ct, a.device());
  st.unsafeGetTensorImpl()->wrapped_number = true;
  return binary(op, kind, a, st, alpha, self_out);
}

Tensor scalar_binary(OpId op, Kind kind, const Scalar &s, const Tensor &b) {
  check_defined(b, "other");
  const ScalarType ct = compute_dtype(kind, op, result_type(b, s), b.device());
  Tensor st = scalar_operand(kind, s, ct, b.device());
  st.unsafeGetTensorImpl()->wrapped_number = true;
  return binary(op, kind, st, b, 1.0);
}

enum class UKind { Same, Float, Bool };

Tensor unary(OpId op, UKind kind, const Tensor &a, Tensor *self_out = nullptr) {
  check_defined(a, "self");
  const ScalarType in = a.scalar_type();
  ScalarType ct = kind == UKind::Float && !isFloatingType(in) ? get_default_dtype() : in;
  if (op == OpId::neg) GFY_CHECK(in != kBool, "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                                              "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  const ScalarType ot = kind == UKind::Bool ? kBool : ct;
  Tensor out;
  if (self_out) {
    out = *self_out;
    GFY_CHECK(can_cast(ot, out.scalar_type()), "result type ", to_string(ot), " can't be cast to the desired output type ",
              to_string(out.scalar_type()));
  } else {
    out = make_tensor(a.sizes(), ot, a.device());
  }
  OpCall c;
  c.op = op;
  c.in = {cast(a, ct)};
  c.out = {out};
  run(std::move(c), ct);
  return out;
}

} // namespace

#define GFY_BINARY_FN(fn, OP, KIND)                                                                \
  Tensor fn(const Tensor &a, const Tensor &b) { return binary(OpId::OP, Kind::KIND, a, b, 1.0); }
GFY_BINARY_FN(mul, mul, Arith)
GFY_BINARY_FN(div, div, TrueDiv)
GFY_BINARY_FN(pow, pow, Pow)
GFY_BINARY_FN(maximum, maximum, Arith)
GFY_BINARY_FN(minimum, minimum, Arith)
GFY_BINARY_FN(eq, eq, Compare)
GFY_BINARY_FN(ne, ne, Compare)
GFY_BINARY_FN(lt, lt, Compare)
GFY_BINARY_FN(le, le, Compare)
GFY_BINARY_FN(gt, gt, Compare)
GFY_BINARY_FN(ge, ge, Compare)
GFY_BINARY_FN(logical_and, logical_and, Logical)
GFY_BINARY_FN(logical_or, logical_or, Logical)
GFY_BINARY_FN(bitwise_and, bitwise_and, Bitwise)
GFY_BINARY_FN(bitwise_or, bitwise_or, Bitwise)
GFY_BINARY_FN(bitwise_xor, bitwise_xor, Bitwise)
#undef GFY_BINARY_FN
#define GFY_BITWISE_FN(fn)                                                                         \
  Tensor fn(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::fn, Kind::Bitwise, a, b, 1.0); } \
  Tensor fn(const Scalar &a, const Tensor &b) { return scalar_binary(OpId::fn, Kind::Bitwise, a, b); }    \
  Tensor Tensor::fn(const Tensor &o) const { return gfy::fn(*this, o); }                          \
  Tensor Tensor::fn(const Scalar &o) const { return gfy::fn(*this, o); }                          \
  Tensor &Tensor::fn##_(const Tensor &o) const {                                                         \
    binary(OpId::fn, Kind::Bitwise, *this, o, 1.0, &mutable_self());                                          \
    return mutable_self();                                                                                  \
  }                                                                                                \
  Tensor &Tensor::fn##_(const Scalar &o) const {                                                         \
    binary_scalar(OpId::fn, Kind::Bitwise, *this, o, 1.0, &mutable_self());                                   \
    return mutable_self();                                                                                  \
  }
GFY_BITWISE_FN(bitwise_and)
GFY_BITWISE_FN(bitwise_or)
GFY_BITWISE_FN(bitwise_xor)
#undef GFY_BITWISE_FN
Tensor max(const Tensor &a, const Tensor &b) { return maximum(a, b); }
Tensor min(const Tensor &a, const Tensor &b) { return minimum(a, b); }

Tensor fmod(const Tensor &a, const Tensor &b) { return binary(OpId::fmod, Kind::NoBool, a, b, 1.0); }
Tensor fmod(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::fmod, Kind::NoBool, a, b, 1.0); }
Tensor remainder(const Tensor &a, const Tensor &b) { return binary(OpId::remainder, Kind::NoBool, a, b, 1.0); }
Tensor remainder(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::remainder, Kind::NoBool, a, b, 1.0); }
Tensor remainder(const Scalar &a, const Tensor &b) { return scalar_binary(OpId::remainder, Kind::NoBool, a, b); }
Tensor floor_divide(const Tensor &a, const Tensor &b) { return binary(OpId::floor_divide, Kind::NoBool, a, b, 1.0); }
Tensor floor_divide(const Tensor &a, const Scalar &b) {
  return binary_scalar(OpId::floor_divide, Kind::NoBool, a, b, 1.0);
}

namespace {

/// lerp and lerp_: no type promotion in LibTorch, every operand must have self's dtype.
Tensor lerp_impl(const Tensor &a, const Tensor &end, const Tensor *weight, double w, Tensor *self_out) {
  check_defined(a, "self");
  check_defined(end, "end");
  if (weight) check_defined(*weight, "weight");
  const ScalarType t = a.scalar_type();
  GFY_CHECK(end.scalar_type() == t, "expected dtype ", TypeMeta(t).name(), " for `end` but got dtype ",
            TypeMeta(end.scalar_type()).name());
  GFY_CHECK(!weight || weight->scalar_type() == t, "expected dtype ", TypeMeta(t).name(), " for `weight` but got dtype ",
            TypeMeta(weight->scalar_type()).name());
  GFY_CHECK(isFloatingType(t), "\"lerp_kernel_", weight ? "tensor" : "scalar", "\" not implemented for '", to_string(t), "'");
  const Device dev = weight ? common_device({&a, &end, weight}) : common_device({&a, &end});
  std::vector<int64_t> shape = broadcast_shapes(a.sizes(), end.sizes());
  if (weight) shape = broadcast_shapes(shape, weight->sizes());
  Tensor out;
  if (self_out) {
    out = *self_out;
    GFY_CHECK(IntArrayRef(shape) == out.sizes(), "output with shape ", out.sizes(), " doesn't match the broadcast shape ",
              IntArrayRef(shape));
  } else {
    out = make_tensor(shape, t, dev);
  }
  OpCall c;
  c.op = OpId::lerp;
  c.in = {a.expand(shape), end.expand(shape)};
  if (weight) c.in.push_back(weight->expand(shape));
  c.out = {out};
  c.flag = weight != nullptr;
  c.alpha = w;
  run(std::move(c), t);
  return out;
}
} // namespace
Tensor lerp(const Tensor &a, const Tensor &end, const Scalar &weight) {
  return lerp_impl(a, end, nullptr, weight.toDouble(), nullptr);
}
Tensor lerp(const Tensor &a, const Tensor &end, const Tensor &weight) { return lerp_impl(a, end, &weight, 0, nullptr); }

Tensor cumprod(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype) {
  // An op along one dim like cumsum (src/core/ops_reduction.cpp): contiguous input, (outer, n,
  // inner) lanes; it lives here with the elementwise math LibTorch programs reach for beside it.
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  const ScalarType t = dtype ? *dtype : isIntegralType(a.scalar_type(), true) ? kLong : a.scalar_type();
  Tensor x = cast(a, t).contiguous();
  Tensor out = make_tensor(x.sizes(), t, x.device());
  OpCall c;
  c.op = OpId::cumprod;
  c.in = {x};
  c.out = {out};
  c.dim = x.dim() == 0 ? 0 : dim;
  run(std::move(c), t);
  return out;
}

Tensor add(const Tensor &a, const Tensor &b, const Scalar &alpha) { return binary(OpId::add, Kind::Arith, a, b, alpha.toDouble()); }
Tensor add(const Tensor &a, const Scalar &b, const Scalar &alpha) {
  return binary_scalar(OpId::add, Kind::Arith, a, b, alpha.toDouble());
}
Tensor sub(const Tensor &a, const Tensor &b, const Scalar &alpha) { return binary(OpId::sub, Kind::Arith, a, b, alpha.toDouble()); }
Tensor sub(const Tensor &a, const Scalar &b, const Scalar &alpha) {
  return binary_scalar(OpId::sub, Kind::Arith, a, b, alpha.toDouble());
}
Tensor mul(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::mul, Kind::Arith, a, b, 1.0); }
Tensor div(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::div, Kind::TrueDiv, a, b, 1.0); }
Tensor pow(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::pow, Kind::Pow, a, b, 1.0); }
Tensor pow(const Scalar &a, const Tensor &b) { return scalar_binary(OpId::pow, Kind::Pow, a, b); }

Tensor neg(const Tensor &a) { return unary(OpId::neg, UKind::Same, a); }
Tensor abs(const Tensor &a) {
  if (a.defined() && a.scalar_type() == kBool) return a.clone();
  return unary(OpId::abs, UKind::Same, a);
}
Tensor exp(const Tensor &a) { return unary(OpId::exp, UKind::Float, a); }
Tensor log(const Tensor &a) { return unary(OpId::log, UKind::Float, a); }
Tensor sqrt(const Tensor &a) { return unary(OpId::sqrt, UKind::Float, a); }
Tensor rsqrt(const Tensor &a) { return unary(OpId::rsqrt, UKind::Float, a); }
Tensor square(const Tensor &a) { return mul(a, a); }
Tensor relu(const Tensor &a) {
  GFY_CHECK(!a.defined() || a.scalar_type() != kBool, "\"", kernel_name("clamp_min", a.device()),
            "\" not implemented for 'Bool'");
  return unary(OpId::relu, UKind::Same, a);
}
Tensor gelu(const Tensor &a, const std::string &approximate) {
  GFY_CHECK(approximate == "none" || approximate == "tanh", "approximate argument must be either none or tanh.");
  check_defined(a, "self");
  GFY_CHECK(isFloatingType(a.scalar_type()), "\"GeluKernelImpl\" not implemented for '", to_string(a.scalar_type()), "'");
  Tensor out = make_tensor(a.sizes(), a.scalar_type(), a.device());
  OpCall c;
  c.op = OpId::gelu;
  c.in = {a};
  c.out = {out};
  c.flag = approximate == "tanh";
  run(std::move(c), a.scalar_type());
  return out;
}
Tensor sigmoid(const Tensor &a) { return unary(OpId::sigmoid, UKind::Float, a); }
Tensor tanh(const Tensor &a) { return unary(OpId::tanh, UKind::Float, a); }
// Maps (ops.def's GFY_MAP_OP rows): the function, the method and (but for predicates) the
// in-place method, checked and promoted as the row's `promotion` says.
#define GFY_MAP_KIND_unary_to_float UKind::Float
#define GFY_MAP_KIND_unary_to_bool UKind::Bool
#define GFY_MAP_KIND_binary_to_float Kind::Float
#define GFY_MAP_KIND_binary_float_only Kind::FloatOnly
#define GFY_MAP_FUNCTION_unary(name, k)                                                            \
  Tensor name(const Tensor &a) { return unary(OpId::name, k, a); }                                 \
  Tensor Tensor::name() const { return gfy::name(*this); }
#define GFY_MAP_INPLACE_unary(name, k)                                                             \
  Tensor &Tensor::name##_() const {                                                                \
    unary(OpId::name, k, *this, &mutable_self());                                                  \
    return mutable_self();                                                                         \
  }
#define GFY_MAP_FUNCTION_binary(name, k)                                                           \
  Tensor name(const Tensor &a, const Tensor &b) { return binary(OpId::name, k, a, b, 1.0); }       \
  Tensor Tensor::name(const Tensor &other) const { return gfy::name(*this, other); }
#define GFY_MAP_INPLACE_binary(name, k)                                                            \
  Tensor &Tensor::name##_(const Tensor &other) const {                                             \
    binary(OpId::name, k, *this, other, 1.0, &mutable_self());                                     \
    return mutable_self();                                                                         \
  }
#define GFY_MAP_INPLACE_IF_to_float(inplace, name, k) inplace(name, k)
#define GFY_MAP_INPLACE_IF_float_only(inplace, name, k) inplace(name, k)
#define GFY_MAP_INPLACE_IF_to_bool(inplace, name, k)
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits)                                          \
  GFY_MAP_FUNCTION_##kind(name, GFY_MAP_KIND_##kind##_##promotion)                                 \
  GFY_MAP_INPLACE_IF_##promotion(GFY_MAP_INPLACE_##kind, name, GFY_MAP_KIND_##kind##_##promotion)
#include <graphify/ops.def>
#undef GFY_MAP_OP
#undef GFY_OP
#undef GFY_MAP_INPLACE_IF_to_bool
#undef GFY_MAP_INPLACE_IF_float_only
#undef GFY_MAP_INPLACE_IF_to_float
#undef GFY_MAP_INPLACE_binary
#undef GFY_MAP_FUNCTION_binary
#undef GFY_MAP_INPLACE_unary
#undef GFY_MAP_FUNCTION_unary
#undef GFY_MAP_KIND_binary_float_only
#undef GFY_MAP_KIND_binary_to_float
#undef GFY_MAP_KIND_unary_to_bool
#undef GFY_MAP_KIND_unary_to_float
Tensor logical_not(const Tensor &a) { return unary(OpId::logical_not, UKind::Bool, a); }
Tensor bitwise_not(const Tensor &a) {
  GFY_CHECK(!a.defined() || !a.is_floating_point(), "\"", kernel_name("bitwise_not", a.device()),
            "\" not implemented for '", to_string(a.scalar_type()), "'");
  return unary(OpId::bitwise_not, UKind::Same, a);
}

namespace {
Tensor clamp_impl(const Tensor &a, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor *self_out) {
  check_defined(a, "self");
  GFY_CHECK(lo || hi, "torch.clamp: At least one of 'min' or 'max' must not be None");
  GFY_CHECK(a.scalar_type() != kBool, "\"", kernel_name("clamp", a.device()), "\" not implemented for 'Bool'");
  ScalarType ct = a.scalar_type();
  if (lo) ct = promote_types(ct, result_type(a, *lo));
  if (hi) ct = promote_types(ct, result_type(a, *hi));
  if (self_out) {
    GFY_CHECK(can_cast(ct, a.scalar_type()), "result type ", to_string(ct), " can't be cast to the desired output type ",
              to_string(a.scalar_type()));
    ct = a.scalar_type();
  }
  // LibTorch converts each bound to the compute dtype with a checked conversion.
  if (lo) check_fits(*lo, ct);
  if (hi) check_fits(*hi, ct);
  Tensor out = self_out ? *self_out : make_tensor(a.sizes(), ct, a.device());
  OpCall c;
  c.op = OpId::clamp;
  c.in = {cast(a, ct)};
  c.out = {out};
  c.flag = lo.has_value();
  c.flag2 = hi.has_value();
  c.alpha = lo ? lo->toDouble() : 0;
  c.beta = hi ? hi->toDouble() : 0;
  run(std::move(c), ct);
  return out;
}
} // namespace
Tensor clamp(const Tensor &a, std::optional<Scalar> lo, std::optional<Scalar> hi) { return clamp_impl(a, lo, hi, nullptr); }
Tensor clamp_min(const Tensor &a, const Scalar &lo) { return clamp_impl(a, lo, std::nullopt, nullptr); }
Tensor clamp_max(const Tensor &a, const Scalar &hi) { return clamp_impl(a, std::nullopt, hi, nullptr); }

Tensor where(const Tensor &condition, const Tensor &a, const Tensor &b) {
  check_defined(condition, "condition");
  check_defined(a, "self");
  check_defined(b, "other");
  GFY_CHECK(condition.scalar_type() == kBool || condition.scalar_type() == kByte,
            "where expected condition to be a boolean tensor, but got a tensor with dtype ",
            to_string(condition.scalar_type()));
  Tensor cond = condition;
  if (cond.scalar_type() == kByte) {
    detail::warn("where received a uint8 condition tensor. This behavior is deprecated and will be removed in a future "
                 "version of PyTorch. Use a boolean condition instead.");
    cond = cond.to(kBool);
  }
  const Device dev = common_device({&cond, &a, &b});
  const ScalarType ct = result_type({&a, &b});
  std::vector<int64_t> shape = broadcast_shapes(broadcast_shapes(cond.sizes(), a.sizes()), b.sizes());
  Tensor out = make_tensor(shape, ct, dev);
  OpCall c;
  c.op = OpId::where;
  c.in = {cond.expand(shape), cast(a, ct).expand(shape), cast(b, ct).expand(shape)};
  c.out = {out};
  run(std::move(c), ct);
  return out;
}
namespace {
Tensor wrapped(const Scalar &s, const Tensor &like) {
  Tensor t = scalar_to_tensor(s, s.isFloatingPoint() ? kDouble : s.type(), like.device());
  t.unsafeGetTensorImpl()->wrapped_number = true;
  return t;
}
/// A Scalar beside a tensor, in the pair's result dtype through a checked conversion: LibTorch's
/// where refuses 300 beside a uint8 tensor where arithmetic would wrap it.
Tensor wrapped_beside(const Scalar &s, const Tensor &other) {
  Tensor t = scalar_to_tensor(s, result_type(other, s), other.device());
  t.unsafeGetTensorImpl()->wrapped_number = true;
  return t;
}
} // namespace
Tensor where(const Tensor &cond, const Scalar &a, const Tensor &b) { return where(cond, wrapped_beside(a, b), b); }
Tensor where(const Tensor &cond, const Tensor &a, const Scalar &b) { return where(cond, a, wrapped_beside(b, a)); }
Tensor where(const Tensor &cond, const Scalar &a, const Scalar &b) {
  // Two host numbers: LibTorch gives the default dtype for floats, long for ints.
  return where(cond, wrapped(a, cond), wrapped(b, cond));
}

Tensor &Tensor::masked_fill_(const Tensor &mask, const Tensor &value) const {
  check_defined(*this, "self");
  check_defined(mask, "mask");
  check_defined(value, "value");
  // LibTorch's CPU kernel reads a mask that is not bool as bytes: uint8 (deprecated, with a
  // warning) and int8 work; wider integers would be read byte by byte, so they are refused here.
  GFY_CHECK(mask.scalar_type() == kBool || mask.scalar_type() == kByte || mask.scalar_type() == kChar,
            "masked_fill_ only supports boolean masks, but got mask with dtype ", to_string(mask.scalar_type()));
  if (mask.scalar_type() != kBool) {
    // LibTorch's CPU kernel checks every byte as it reads it (its CUDA kernel does not); eager
    // only here, since the check reads the mask on the host, which a captured graph cannot.
    if (!is_capturing() && mask.device().is_cpu())
      GFY_CHECK(mask.eq(0).logical_or(mask.eq(1)).all().item<bool>(), "Mask tensor can take 0 and 1 values only");
    if (mask.scalar_type() == kByte)
      detail::warn("masked_fill_ received a mask with dtype torch.uint8, this behavior is now deprecated,please use "
                   "a mask with dtype torch.bool instead.");
    return masked_fill_(mask.to(kBool), value);
  }
  GFY_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
            value.dim(), " dimension(s).");
  common_device({this, &mask});
  std::vector<int64_t> shape = broadcast_shapes(sizes(), mask.sizes());
  GFY_CHECK(IntArrayRef(shape) == sizes(), "output with shape ", sizes(), " doesn't match the broadcast shape ",
            IntArrayRef(shape));
  OpCall c;
  c.op = OpId::masked_fill;
  // LibTorch reads a 0-d value before writing (its item()), so `x.masked_fill_(m, x[0])` is no
  // overlap: the value is cloned when it aliases self.
  const bool aliases = value.unsafeGetTensorImpl()->storage == impl_of(*this).storage;
  c.in = {*this, mask.expand(sizes()), cast(aliases ? value.clone() : value, scalar_type())};
  c.out = {*this};
  run(std::move(c), scalar_type());
  return mutable_self();
}
Tensor &Tensor::masked_fill_(const Tensor &mask, const Scalar &value) const {
  check_defined(*this, "self");
  return masked_fill_(mask, scalar_to_tensor(value, scalar_type(), device()));
}
Tensor masked_fill(const Tensor &a, const Tensor &mask, const Scalar &value) {
  check_defined(a, "self");
  check_defined(mask, "mask");
  Tensor out = a.expand(broadcast_shapes(a.sizes(), mask.sizes())).clone();
  return out.masked_fill_(mask, value);
}
Tensor masked_fill(const Tensor &a, const Tensor &mask, const Tensor &value) {
  check_defined(a, "self");
  check_defined(mask, "mask");
  Tensor out = a.expand(broadcast_shapes(a.sizes(), mask.sizes())).clone();
  return out.masked_fill_(mask, value);
}

// --- Tensor methods and in-place forms ------------------------------------------------------------

namespace {
/// The in-place comparisons: self takes the comparison's result, 0 or 1 in self's dtype. Other
/// broadcasts to self, never self to other (LibTorch's in-place rule, and its message).
Tensor &assign_comparison(const Tensor &self, const Tensor &result) {
  GFY_CHECK(result.sizes() == self.sizes(), "output with shape ", self.sizes(), " doesn't match the broadcast shape ",
            result.sizes());
  return self.copy_(result);
}
} // namespace

#define GFY_CMP_METHOD(name)                                                                       \
  Tensor name(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::name, Kind::Compare, a, b, 1.0); } \
  Tensor Tensor::name(const Tensor &o) const { return gfy::name(*this, o); }                       \
  Tensor Tensor::name(const Scalar &o) const { return gfy::name(*this, o); }                       \
  Tensor &Tensor::name##_(const Tensor &o) const {                                                 \
    check_defined(*this, "self");                                                                  \
    return assign_comparison(*this, gfy::name(*this, o));                                          \
  }                                                                                                \
  Tensor &Tensor::name##_(const Scalar &o) const {                                                 \
    check_defined(*this, "self");                                                                  \
    return assign_comparison(*this, gfy::name(*this, o));                                          \
  }
GFY_CMP_METHOD(eq)
GFY_CMP_METHOD(ne)
GFY_CMP_METHOD(lt)
GFY_CMP_METHOD(le)
GFY_CMP_METHOD(gt)
GFY_CMP_METHOD(ge)
#undef GFY_CMP_METHOD

Tensor &Tensor::add_(const Tensor &o, const Scalar &al) const { binary(OpId::add, Kind::Arith, *this, o, al.toDouble(), &mutable_self()); return mutable_self(); }
Tensor &Tensor::add_(const Scalar &o, const Scalar &al) const { binary_scalar(OpId::add, Kind::Arith, *this, o, al.toDouble(), &mutable_self()); return mutable_self(); }
Tensor &Tensor::sub_(const Tensor &o, const Scalar &al) const { binary(OpId::sub, Kind::Arith, *this, o, al.toDouble(), &mutable_self()); return mutable_self(); }
Tensor &Tensor::sub_(const Scalar &o, const Scalar &al) const { binary_scalar(OpId::sub, Kind::Arith, *this, o, al.toDouble(), &mutable_self()); return mutable_self(); }
Tensor &Tensor::mul_(const Tensor &o) const { binary(OpId::mul, Kind::Arith, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::mul_(const Scalar &o) const { binary_scalar(OpId::mul, Kind::Arith, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::div_(const Tensor &o) const { binary(OpId::div, Kind::TrueDiv, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::div_(const Scalar &o) const { binary_scalar(OpId::div, Kind::TrueDiv, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::clamp_(std::optional<Scalar> lo, std::optional<Scalar> hi) const { clamp_impl(*this, lo, hi, &mutable_self()); return mutable_self(); }
Tensor &Tensor::relu_() const { unary(OpId::relu, UKind::Same, *this, &mutable_self()); return mutable_self(); }
Tensor &Tensor::sigmoid_() const { unary(OpId::sigmoid, UKind::Float, *this, &mutable_self()); return mutable_self(); }
Tensor &Tensor::tanh_() const { unary(OpId::tanh, UKind::Float, *this, &mutable_self()); return mutable_self(); }
Tensor &Tensor::exp_() const { unary(OpId::exp, UKind::Float, *this, &mutable_self()); return mutable_self(); }
Tensor &Tensor::neg_() const { unary(OpId::neg, UKind::Same, *this, &mutable_self()); return mutable_self(); }
Tensor &Tensor::bitwise_not_() const {
  check_defined(*this, "self");
  GFY_CHECK(!is_floating_point(), "\"", kernel_name("bitwise_not", device()), "\" not implemented for '",
            to_string(scalar_type()), "'");
  unary(OpId::bitwise_not, UKind::Same, *this, &mutable_self());
  return mutable_self();
}
namespace {
/// The logical ops in place: LibTorch computes the bool result and writes it converted to self's
/// dtype, so a float mask becomes 1.0 / 0.0; the other operand broadcasts to self, never self to it.
Tensor &logical_in_place(Tensor &self, const Tensor &other, Tensor (*fn)(const Tensor &, const Tensor &)) {
  check_defined(self, "self");
  check_defined(other, "other");
  const std::vector<int64_t> shape = broadcast_shapes(self.sizes(), other.sizes());
  GFY_CHECK(IntArrayRef(shape) == self.sizes(), "output with shape ", self.sizes(),
            " doesn't match the broadcast shape ", IntArrayRef(shape));
  return self.copy_(fn(self, other));
}
} // namespace
Tensor &Tensor::logical_not_() const {
  check_defined(*this, "self");
  return copy_(gfy::logical_not(*this));
}
Tensor &Tensor::logical_and_(const Tensor &o) const { return logical_in_place(mutable_self(), o, &gfy::logical_and); }
Tensor &Tensor::logical_or_(const Tensor &o) const { return logical_in_place(mutable_self(), o, &gfy::logical_or); }
Tensor &Tensor::logical_xor_(const Tensor &o) const { return logical_in_place(mutable_self(), o, &gfy::logical_xor); }
Tensor &Tensor::fmod_(const Tensor &o) const { binary(OpId::fmod, Kind::NoBool, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::fmod_(const Scalar &o) const { binary_scalar(OpId::fmod, Kind::NoBool, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::remainder_(const Tensor &o) const { binary(OpId::remainder, Kind::NoBool, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::remainder_(const Scalar &o) const { binary_scalar(OpId::remainder, Kind::NoBool, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::floor_divide_(const Tensor &o) const { binary(OpId::floor_divide, Kind::NoBool, *this, o, 1.0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::floor_divide_(const Scalar &o) const {
  binary_scalar(OpId::floor_divide, Kind::NoBool, *this, o, 1.0, &mutable_self());
  return mutable_self();
}
Tensor &Tensor::lerp_(const Tensor &end, const Scalar &w) const { lerp_impl(*this, end, nullptr, w.toDouble(), &mutable_self()); return mutable_self(); }
Tensor &Tensor::lerp_(const Tensor &end, const Tensor &w) const { lerp_impl(*this, end, &w, 0, &mutable_self()); return mutable_self(); }
Tensor &Tensor::uniform_(double from, double to) const {
  check_defined(*this, "self");
  GFY_CHECK(is_floating_point(), "\"check_uniform_bounds\" not implemented for '", to_string(scalar_type()), "'");
  GFY_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  Tensor tmp = random_op(OpId::uniform, sizes(), options(), from, to, scalar_type());
  return copy_(tmp);
}
Tensor &Tensor::normal_(double mean, double std) const {
  check_defined(*this, "self");
  GFY_CHECK(std >= 0, "normal expects std >= 0.0, but found std ", std);
  GFY_CHECK(is_floating_point(), "\"", kernel_name("normal_kernel", device()), "\" not implemented for '",
            to_string(scalar_type()), "'");
  Tensor tmp = random_op(OpId::normal, sizes(), options(), mean, std, scalar_type());
  return copy_(tmp);
}

// --- operators -----------------------------------------------------------------------------------

Tensor operator-(const Tensor &a) { return neg(a); }
Tensor operator~(const Tensor &a) {
  check_defined(a, "self");
  return a.scalar_type() == kBool ? logical_not(a) : bitwise_not(a);
}
#define GFY_OPERATOR(op, fn, OP, KIND)                                                             \
  Tensor operator op(const Tensor &a, const Tensor &b) { return binary(OpId::OP, Kind::KIND, a, b, 1.0); } \
  Tensor operator op(const Tensor &a, const Scalar &b) { return binary_scalar(OpId::OP, Kind::KIND, a, b, 1.0); } \
  Tensor operator op(const Scalar &a, const Tensor &b) { return scalar_binary(OpId::OP, Kind::KIND, a, b); }
GFY_OPERATOR(+, add, add, Arith)
GFY_OPERATOR(-, sub, sub, Arith)
GFY_OPERATOR(*, mul, mul, Arith)
GFY_OPERATOR(/, div, div, TrueDiv)
GFY_OPERATOR(<, lt, lt, Compare)
GFY_OPERATOR(<=, le, le, Compare)
GFY_OPERATOR(>, gt, gt, Compare)
GFY_OPERATOR(>=, ge, ge, Compare)
GFY_OPERATOR(==, eq, eq, Compare)
GFY_OPERATOR(!=, ne, ne, Compare)
GFY_OPERATOR(&, bitwise_and, bitwise_and, Bitwise)
GFY_OPERATOR(|, bitwise_or, bitwise_or, Bitwise)
GFY_OPERATOR(^, bitwise_xor, bitwise_xor, Bitwise)
#undef GFY_OPERATOR
Tensor operator%(const Tensor &a, const Tensor &b) { return remainder(a, b); }
Tensor operator%(const Tensor &a, const Scalar &b) { return remainder(a, b); }
// LibTorch fills a tensor like `b` with `a` and takes the remainder in place: the result has b's
// dtype, not the promoted one (2.5 % an int tensor is 2 % it).
Tensor operator%(const Scalar &a, const Tensor &b) {
  check_defined(b, "other");
  Tensor out = empty_like(b);
  out.fill_(a);
  return out.remainder_(b);
}

} // namespace gfy
