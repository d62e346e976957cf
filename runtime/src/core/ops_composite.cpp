// Tensor functions built only from other front-end ops (no kernel of their own): statistics,
// norms, rearrangements, triangular masks and rounding. Because every step is an existing op,
// each composite runs on every backend and records into a graph like its parts; the price is a
// few temporaries, which these (rarely hot) functions can afford. Semantics follow LibTorch 1.13,
// including its dtype rules and the error messages of the checks that are cheap to reproduce.
#include "OpsCommon.h"

#include "../autograd/Derivatives.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gfy {
using detail::check_defined;
using detail::maybe_wrap_dim;

namespace {

/// The dims a reduction over `dim` covers (all of them when `dim` is empty), wrapped and checked.
std::vector<int64_t> reduced_dims(const Tensor &a, IntArrayRef dim) {
  std::vector<int64_t> out;
  if (dim.empty()) {
    for (int64_t d = 0; d < a.dim(); ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dim) out.push_back(maybe_wrap_dim(d, a.dim()));
  return out;
}

int64_t reduced_numel(const Tensor &a, const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= a.dim() == 0 ? 1 : a.size(d);
  return n;
}

void check_floating(const Tensor &a, const char *what) {
  check_defined(a, "self");
  GFY_CHECK(a.is_floating_point(), what, ": input dtype should be floating point, but got ", to_string(a.scalar_type()));
}

// |x| < 2^52 holds exactly for the values whose integer part an int64 conversion computes
// exactly; it is false for NaN and ±inf, and every float at or beyond it is already integral.
Tensor exactly_convertible(const Tensor &x) { return x.abs() < 4503599627370496.0; }

/// trunc(x) for a floating x, as a long tensor, with the non-convertible elements zeroed first
/// (converting them would be undefined behaviour).
Tensor trunc_long(const Tensor &x, const Tensor &small) { return where(small, x, 0).to(kLong); }

/// `new_*` options: the caller's, completed by the tensor's dtype and device.
TensorOptions merged_options(const Tensor &self, const TensorOptions &o) {
  return TensorOptions()
      .dtype(o.has_dtype() ? o.dtype().toScalarType() : self.scalar_type())
      .device(o.has_device() ? o.device() : self.device());
}

} // namespace

// --- statistics -----------------------------------------------------------------------------------

Tensor var(const Tensor &a, IntArrayRef dim, bool unbiased, bool keepdim) {
  check_defined(a, "self");
  GFY_CHECK(a.is_floating_point(), "std and var only support floating point and complex dtypes");
  const std::vector<int64_t> dims = reduced_dims(a, dim);
  const int64_t n = reduced_numel(a, dims);
  Tensor centred = a - a.mean(dims, /*keepdim=*/true);
  // n - 1 == 0 divides 0 by 0: NaN, as LibTorch (which also warns).
  return (centred * centred).sum(dims, keepdim) / double(std::max<int64_t>(n - (unbiased ? 1 : 0), 0));
}
Tensor var(const Tensor &a, bool unbiased) { return var(a, IntArrayRef{}, unbiased, false); }
Tensor std(const Tensor &a, IntArrayRef dim, bool unbiased, bool keepdim) { return var(a, dim, unbiased, keepdim).sqrt(); }
Tensor std(const Tensor &a, bool unbiased) { return var(a, unbiased).sqrt(); }
Tensor var(const Tensor &a, int dim) { return var(a, IntArrayRef{int64_t(dim)}); }
Tensor std(const Tensor &a, int dim) { return std(a, IntArrayRef{int64_t(dim)}); }
std::tuple<Tensor, Tensor> var_mean(const Tensor &a, bool unbiased) { return var_mean(a, IntArrayRef{}, unbiased); }
std::tuple<Tensor, Tensor> std_mean(const Tensor &a, bool unbiased) { return std_mean(a, IntArrayRef{}, unbiased); }
std::tuple<Tensor, Tensor> var_mean(const Tensor &a, int dim) { return var_mean(a, IntArrayRef{int64_t(dim)}); }
std::tuple<Tensor, Tensor> std_mean(const Tensor &a, int dim) { return std_mean(a, IntArrayRef{int64_t(dim)}); }
std::tuple<Tensor, Tensor> var_mean(const Tensor &a, IntArrayRef dim, bool unbiased, bool keepdim) {
  return {var(a, dim, unbiased, keepdim), a.mean(reduced_dims(a, dim), keepdim)};
}
std::tuple<Tensor, Tensor> std_mean(const Tensor &a, IntArrayRef dim, bool unbiased, bool keepdim) {
  return {std(a, dim, unbiased, keepdim), a.mean(reduced_dims(a, dim), keepdim)};
}

Tensor norm(const Tensor &a, std::optional<Scalar> p, IntArrayRef dim, bool keepdim) {
  check_floating(a, "linalg.vector_norm");
  const double order = p ? p->toDouble() : 2.0;
  const std::vector<int64_t> dims = reduced_dims(a, dim);
  Tensor m = a.abs();
  if (order == 2) return (a * a).sum(dims, keepdim).sqrt();
  if (order == 1) return m.sum(dims, keepdim);
  if (std::isinf(order)) return order > 0 ? m.amax(dims, keepdim) : m.amin(dims, keepdim);
  if (order == 0) return (a != 0).to(a.scalar_type()).sum(dims, keepdim);
  return m.pow(order).sum(dims, keepdim).pow(1.0 / order);
}
Tensor norm(const Tensor &a, const Scalar &p) { return norm(a, std::optional<Scalar>(p), IntArrayRef{}, false); }

Tensor logsumexp(const Tensor &a, IntArrayRef dim, bool keepdim) {
  check_defined(a, "self");
  Tensor x = a.is_floating_point() ? a : a.to(get_default_dtype());
  std::vector<int64_t> dims = reduced_dims(x, dim);
  // Shift by the maximum for stability; an infinite maximum would turn inf - inf into NaN.
  Tensor m = x.amax(dims, /*keepdim=*/true);
  m = where(m.abs() == std::numeric_limits<double>::infinity(), 0, m);
  Tensor out = (x - m).exp().sum(dims, /*keepdim=*/true).log() + m;
  if (keepdim) return out;
  std::sort(dims.begin(), dims.end());
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) out = out.squeeze(*it);
  return out;
}

// --- rearrangements ---------------------------------------------------------------------------------

Tensor repeat(const Tensor &a, IntArrayRef repeats) {
  check_defined(a, "self");
  const int64_t n = int64_t(repeats.size());
  GFY_CHECK(n >= a.dim(), "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  // (s0, s1, ...) viewed as (1, s0, 1, s1, ...), expanded to (r0, s0, r1, s1, ...), then merged.
  std::vector<int64_t> interleaved, expanded, merged;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = repeats[size_t(i)];
    GFY_CHECK(r >= 0, "Trying to create tensor with negative dimension ", r, ": ", repeats);
    const int64_t s = i < n - a.dim() ? 1 : a.size(i - (n - a.dim()));
    interleaved.insert(interleaved.end(), {1, s});
    expanded.insert(expanded.end(), {r, s});
    merged.push_back(r * s);
  }
  return a.reshape(interleaved).expand(expanded).contiguous().view(merged);
}

Tensor flip(const Tensor &a, IntArrayRef dims) {
  check_defined(a, "self");
  std::vector<bool> seen(size_t(std::max<int64_t>(a.dim(), 1)), false);
  Tensor out = a;
  for (int64_t d : dims) {
    d = maybe_wrap_dim(d, a.dim());
    GFY_CHECK(!seen[size_t(d)], "dims has duplicates, original flip dims size=", dims.size());
    seen[size_t(d)] = true;
    if (a.dim() == 0) continue;
    const int64_t n = a.size(d);
    out = out.index_select(d, arange(n - 1, -1, -1, TensorOptions().dtype(kLong).device(a.device())));
  }
  return out.is_same(a) ? a.clone() : out;
}

// unfold gathers the windows with one index_select (window w, element j at w * step + j) and moves
// the element axis last: a copy, so writes through it do not reach self as LibTorch's view's do,
// but it differentiates and captures like index_select.
Tensor Tensor::unfold(int64_t dimension, int64_t size, int64_t step) const {
  check_defined(*this, "self");
  const int64_t d = maybe_wrap_dim(dimension, dim());
  const int64_t max_size = dim() == 0 ? 1 : this->size(d);
  GFY_CHECK(size <= max_size, "maximum size for tensor at dimension ", d, " is ", max_size, " but size is ", size);
  GFY_CHECK(step > 0, "step is ", step, " but must be > 0");
  GFY_CHECK(size >= 0, "size is ", size, " but must be >= 0");
  if (dim() == 0) return reshape({1}).narrow(0, 0, size).clone();
  const int64_t windows = (max_size - size) / step + 1;
  const TensorOptions longs = TensorOptions().dtype(kLong).device(device());
  const Tensor positions = (arange(windows, longs) * step).unsqueeze(1) + arange(size, longs).unsqueeze(0);
  std::vector<int64_t> shape = sizes().vec();
  shape[size_t(d)] = windows;
  shape.insert(shape.begin() + d + 1, size);
  std::vector<int64_t> order;
  for (int64_t k = 0; k < int64_t(shape.size()); ++k)
    if (k != d + 1) order.push_back(k);
  order.push_back(d + 1);
  return index_select(d, positions.reshape({-1})).view(shape).permute(order);
}

Tensor fliplr(const Tensor &a) {
  check_defined(a, "self");
  GFY_CHECK(a.dim() >= 2, "Input must be >= 2-d.");
  return flip(a, {1});
}

Tensor flipud(const Tensor &a) {
  check_defined(a, "self");
  GFY_CHECK(a.dim() >= 1, "Input must be >= 1-d.");
  return flip(a, {0});
}

Tensor roll(const Tensor &a, IntArrayRef shifts, IntArrayRef dims) {
  check_defined(a, "self");
  GFY_CHECK(!shifts.empty(), "`shifts` required");
  if (dims.empty()) {
    GFY_CHECK(shifts.size() == 1, "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:0");
    return roll(a.flatten(), shifts, 0).view(a.sizes());
  }
  GFY_CHECK(shifts.size() == dims.size(), "shifts and dimensions must align. shifts: ", shifts.size(),
            ", dims:", dims.size());
  Tensor out = a;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = maybe_wrap_dim(dims[i], a.dim());
    const int64_t n = out.size(d);
    if (n == 0) continue;
    const int64_t s = ((shifts[i] % n) + n) % n; // the last s elements move to the front
    if (s != 0) out = cat({out.narrow(d, n - s, s), out.narrow(d, 0, n - s)}, d);
  }
  return out.is_same(a) ? a.clone() : out;
}

namespace {
/// Keeps the elements of the last two dims whose column - row is within `keep(col - row)`.
template <class Keep> Tensor triangle(const Tensor &a, const char *name, Keep keep) {
  check_defined(a, "self");
  GFY_CHECK(a.dim() >= 2, name, ": input tensor must have at least 2 dimensions");
  const auto opts = TensorOptions().dtype(kLong).device(a.device());
  Tensor rows = arange(a.size(-2), opts).unsqueeze(1), cols = arange(a.size(-1), opts).unsqueeze(0);
  return a.masked_fill(keep(cols - rows).logical_not(), 0);
}
} // namespace

Tensor tril(const Tensor &a, int64_t diagonal) {
  return triangle(a, "tril", [&](const Tensor &offset) { return offset <= diagonal; });
}
Tensor triu(const Tensor &a, int64_t diagonal) {
  return triangle(a, "triu", [&](const Tensor &offset) { return offset >= diagonal; });
}

Tensor diag(const Tensor &a, int64_t diagonal) {
  check_defined(a, "self");
  GFY_CHECK(a.dim() == 1 || a.dim() == 2, "diag(): Supports 1D or 2D tensors. Got ", a.dim(), "D");
  const auto opts = TensorOptions().dtype(kLong).device(a.device());
  const int64_t row0 = std::max<int64_t>(0, -diagonal), col0 = std::max<int64_t>(0, diagonal);
  if (a.dim() == 1) {
    const int64_t n = a.size(0), m = n + std::abs(diagonal);
    Tensor pos = arange(n, opts);
    // index_put_ of a fresh zero matrix: records the gradient of the values when they need one.
    return zeros({m, m}, a.options()).index_put_({pos + row0, pos + col0}, a);
  }
  const int64_t len = std::max<int64_t>(0, std::min(a.size(0) - row0, a.size(1) - col0));
  Tensor pos = arange(len, opts);
  return a.index({pos + row0, pos + col0});
}

// --- elementwise ------------------------------------------------------------------------------------

Tensor reciprocal(const Tensor &a) {
  check_defined(a, "self");
  return 1.0 / a; // true division: integers give the default float dtype, as LibTorch
}

namespace {
/// Step functions have a zero derivative wherever they have one (LibTorch's): computed without
/// history, then given a node that returns zeros, so that the composite's pieces (a where()
/// that passes `a` through for huge values) never leak a gradient.
Tensor zero_derivative(const Tensor &a, const char *name, Tensor (*f)(const Tensor &)) {
  Tensor out;
  {
    NoGradGuard no_grad;
    out = f(a);
  }
  autograd::detail::record_zero_derivative(out, a, name);
  return out;
}
} // namespace

Tensor sign(const Tensor &a) {
  check_defined(a, "self");
  if (autograd::detail::any_requires_grad({a})) return zero_derivative(a, "SignBackward0", sign);
  GFY_CHECK(a.scalar_type() != kBool, "Boolean inputs not supported for sign(), use logical_not() instead... or abs()");
  // NaN compares false both ways, so its sign is 0, as LibTorch's.
  const ScalarType t = a.scalar_type();
  return (a > 0).to(t) - (a < 0).to(t);
}

Tensor trunc(const Tensor &a) {
  check_defined(a, "self");
  if (autograd::detail::any_requires_grad({a})) return zero_derivative(a, "TruncBackward0", trunc);
  if (!a.is_floating_point()) return a.clone();
  Tensor small = exactly_convertible(a);
  return where(small, trunc_long(a, small).to(a.scalar_type()), a);
}

Tensor floor(const Tensor &a) {
  check_defined(a, "self");
  if (autograd::detail::any_requires_grad({a})) return zero_derivative(a, "FloorBackward0", floor);
  if (!a.is_floating_point()) return a.clone();
  Tensor small = exactly_convertible(a);
  Tensor t = trunc_long(a, small).to(a.scalar_type());
  return where(small, t - (t > a).to(a.scalar_type()), a);
}

Tensor ceil(const Tensor &a) {
  check_defined(a, "self");
  if (autograd::detail::any_requires_grad({a})) return zero_derivative(a, "CeilBackward0", ceil);
  if (!a.is_floating_point()) return a.clone();
  Tensor small = exactly_convertible(a);
  Tensor t = trunc_long(a, small).to(a.scalar_type());
  return where(small, t + (t < a).to(a.scalar_type()), a);
}

Tensor round(const Tensor &a) {
  check_defined(a, "self");
  if (autograd::detail::any_requires_grad({a})) return zero_derivative(a, "RoundBackward0", round);
  if (!a.is_floating_point()) return a.clone();
  // Half to even, as LibTorch (std::nearbyint): x - floor(x) is exact, so the tie test is too.
  Tensor small = exactly_convertible(a);
  Tensor t = trunc_long(a, small);
  Tensor f = t - (t.to(a.scalar_type()) > a).to(kLong); // floor, as long
  Tensor frac = a - f.to(a.scalar_type());
  Tensor up = (frac > 0.5).logical_or((frac == 0.5).logical_and((f & 1) != 0));
  return where(small, (f + up.to(kLong)).to(a.scalar_type()), a);
}

Tensor isinf(const Tensor &a) {
  check_defined(a, "self");
  if (!a.is_floating_point()) return zeros_like(a, kBool);
  return a.abs() == std::numeric_limits<double>::infinity();
}

Tensor isfinite(const Tensor &a) {
  check_defined(a, "self");
  if (!a.is_floating_point()) return ones_like(a, kBool);
  return a.abs() < std::numeric_limits<double>::infinity(); // false for NaN too
}

Tensor logical_xor(const Tensor &a, const Tensor &b) { return a.to(kBool) != b.to(kBool); }

Tensor silu(const Tensor &a) { return a * sigmoid(a); }

// --- activations ------------------------------------------------------------------------------------
// Floating only, as LibTorch's kernels: an integer input is refused, not promoted.

namespace {
void check_activation_input(const Tensor &a, const char *name) {
  check_defined(a, "self");
  GFY_CHECK(a.is_floating_point(), "\"", name, "\" not implemented for '", to_string(a.scalar_type()), "'");
}
} // namespace

Tensor softplus(const Tensor &a, const Scalar &beta, const Scalar &threshold) {
  check_activation_input(a, "softplus");
  Tensor bx = a * beta;
  return where(bx > threshold, a, log1p(exp(bx)) / beta);
}
Tensor elu(const Tensor &a, const Scalar &alpha, const Scalar &scale, const Scalar &input_scale) {
  check_activation_input(a, "elu");
  return where(a > 0, a * scale, expm1(a * input_scale) * (alpha.toDouble() * scale.toDouble()));
}
Tensor hardswish(const Tensor &a) {
  check_activation_input(a, "hardswish");
  return a * clamp(a + 3, 0, 6) / 6;
}
Tensor mish(const Tensor &a) {
  check_activation_input(a, "mish");
  return a * tanh(log1p(exp(a)));
}
Tensor leaky_relu(const Tensor &a, const Scalar &negative_slope) {
  check_activation_input(a, "leaky_relu");
  return where(a > 0, a, a * negative_slope);
}

// --- products ---------------------------------------------------------------------------------------

Tensor dot(const Tensor &a, const Tensor &b) {
  check_defined(a, "self");
  check_defined(b, "tensor");
  GFY_CHECK(a.dim() == 1 && b.dim() == 1, "1D tensors expected, but got ", a.dim(), "D and ", b.dim(), "D tensors");
  GFY_CHECK(a.scalar_type() == b.scalar_type(), "dot : expected both vectors to have same dtype, but found ",
            to_string(a.scalar_type()), " and ", to_string(b.scalar_type()));
  GFY_CHECK(a.numel() == b.numel(), "inconsistent tensor size, expected tensor [", a.numel(),
            "] and src [", b.numel(), "] to have the same number of elements, but got ", a.numel(), " and ",
            b.numel(), " elements respectively");
  return matmul(a, b);
}

Tensor mv(const Tensor &a, const Tensor &v) {
  check_defined(a, "self");
  check_defined(v, "vec");
  GFY_CHECK(a.dim() == 2 && v.dim() == 1, "vector + matrix @ vector expected, got 1, ", a.dim(), ", ", v.dim());
  GFY_CHECK(a.size(1) == v.size(0), "size mismatch, got input (", a.size(0), "), mat (", a.size(0), "x", a.size(1),
            "), vec (", v.size(0), ")");
  return matmul(a, v);
}

Tensor outer(const Tensor &a, const Tensor &b) {
  check_defined(a, "self");
  check_defined(b, "vec2");
  GFY_CHECK(a.dim() == 1 && b.dim() == 1, "outer: Expected 1-D argument self, but got ", a.dim(), "-D");
  return a.unsqueeze(1) * b.unsqueeze(0);
}

// --- Tensor methods ---------------------------------------------------------------------------------

Tensor Tensor::new_empty(IntArrayRef size, const TensorOptions &options) const {
  return gfy::empty(size, merged_options(*this, options));
}
Tensor Tensor::new_zeros(IntArrayRef size, const TensorOptions &options) const {
  return gfy::zeros(size, merged_options(*this, options));
}
Tensor Tensor::new_ones(IntArrayRef size, const TensorOptions &options) const {
  return gfy::ones(size, merged_options(*this, options));
}
Tensor Tensor::new_full(IntArrayRef size, const Scalar &fill_value, const TensorOptions &options) const {
  return gfy::full(size, fill_value, merged_options(*this, options));
}

// LibTorch's kron: both shapes padded with leading ones to the same rank, then every element of a
// times all of b, laid out as a's dims interleaved with b's.
Tensor kron(const Tensor &a, const Tensor &b) {
  check_defined(a, "self");
  check_defined(b, "other");
  const int64_t nd = std::max(a.dim(), b.dim());
  std::vector<int64_t> ashape(size_t(nd - a.dim()), 1), bshape(size_t(nd - b.dim()), 1);
  for (int64_t s : a.sizes()) ashape.push_back(s);
  for (int64_t s : b.sizes()) bshape.push_back(s);
  std::vector<int64_t> aview, bview, out;
  for (int64_t d = 0; d < nd; ++d) {
    aview.insert(aview.end(), {ashape[size_t(d)], 1});
    bview.insert(bview.end(), {1, bshape[size_t(d)]});
    out.push_back(ashape[size_t(d)] * bshape[size_t(d)]);
  }
  return a.reshape(aview).mul(b.reshape(bview)).reshape(out);
}

// The cross product of 3-vectors along `dim`, as LibTorch's linalg_cross: both operands broadcast,
// (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0) from rotations of the three components.
Tensor linalg_cross(const Tensor &a, const Tensor &b, int64_t dim) {
  check_defined(a, "input");
  check_defined(b, "other");
  GFY_CHECK(a.dim() == b.dim(), "linalg.cross: inputs must have the same number of dimensions.");
  const int64_t given = dim;  // LibTorch's message names the dim as given
  dim = maybe_wrap_dim(dim, a.dim());
  GFY_CHECK(a.size(dim) == 3 && b.size(dim) == 3, "linalg.cross: inputs dimension ", given,
            " must have length 3. Got ", a.size(dim), " and ", b.size(dim));
  const Tensor next = tensor({1, 2, 0}).to(a.device()), prev = tensor({2, 0, 1}).to(b.device());
  return a.index_select(dim, next).mul(b.index_select(dim, prev)).sub(a.index_select(dim, prev).mul(b.index_select(dim, next)));
}
// torch::cross without a dim takes the first dim of size 3 (deprecated in LibTorch, kept as it).
Tensor cross(const Tensor &a, const Tensor &b, std::optional<int64_t> dim) {
  check_defined(a, "input");
  if (!dim)
    for (int64_t d = 0; d < a.dim() && !dim; ++d)
      if (a.size(d) == 3) dim = d;
  GFY_CHECK(dim.has_value(), "no dimension of size 3 in input");
  return linalg_cross(a, b, *dim);
}

Tensor nan_to_num(const Tensor &a, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  check_defined(a, "self");
  if (!a.is_floating_point()) return a.clone();
  const bool f32 = a.scalar_type() == kFloat;
  const double big = f32 ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
  Tensor r = where(isnan(a), detail::scalar_to_tensor(nan.value_or(0.0), a.scalar_type(), a.device()), a);
  r = where(r.eq(INFINITY), detail::scalar_to_tensor(posinf.value_or(big), a.scalar_type(), a.device()), r);
  return where(r.eq(-INFINITY), detail::scalar_to_tensor(neginf.value_or(-big), a.scalar_type(), a.device()), r);
}

// A stable argsort of uniform draws: a uniformly random permutation from the seeded generator.
Tensor randperm(int64_t n, const TensorOptions &options) {
  GFY_CHECK(n >= 0, "n must be non-negative, got", n);
  const ScalarType dt = options.has_dtype() ? options.dtype().toScalarType() : kLong;
  GFY_CHECK(dt != kBool, "randperm is not implemented for Bool");
  Tensor keys = rand({n}, TensorOptions(kDouble).device(options.device()));
  return argsort(keys, /*stable=*/true, 0, false).to(dt);
}

} // namespace gfy
