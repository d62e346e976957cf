// Differential cases, written once against `torch::` and compiled twice (LibTorch, and the bundled
// runtime through graphify::torch_compat). Every case builds its inputs from a fixed formula (no
// RNG), so the two dumps must agree element for element; where LibTorch throws, the runtime must
// throw too. Cases are grouped by DESIGN.md's op list; each group covers the dtype rules and the
// edge values (negatives, zeros, NaN) that a hand-written kernel tends to get wrong.
//
// A case that the runtime cannot compile yet is kept and guarded by GFY_MISSING_<feature> (set by
// tests/differential/CMakeLists.txt for the compat build only); the guard makes that case throw on
// the runtime side, so it shows up as a failing comparison instead of silently disappearing.
#include "dump_main.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace {

using diff::Out;
using diff::S;
using torch::indexing::Ellipsis;
using torch::indexing::None;
using torch::indexing::Slice;

// The i-th value of the input formula: integers in [-6, 6] in an irregular order, zero included.
double formula(int64_t i) { return static_cast<double>((i * 5 + 3) % 13) - 6.0; }

int64_t numel_of(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

template <typename T>
torch::Tensor make(const std::vector<int64_t>& shape, torch::ScalarType dt, double scale,
                   int64_t offset, bool with_nan) {
  std::vector<T> v(static_cast<size_t>(numel_of(shape)));
  for (size_t i = 0; i < v.size(); ++i) {
    double x = formula(static_cast<int64_t>(i) + offset) * scale;
    if (with_nan && i % 4 == 1) x = std::numeric_limits<double>::quiet_NaN();
    v[i] = static_cast<T>(x);
  }
  // from_blob borrows the vector; clone() gives the tensor its own storage.
  return torch::from_blob(v.data(), shape, torch::dtype(dt)).clone();
}

/// Deterministic input of any numeric dtype; floats get `scale` (0.5 by default, so halves appear).
torch::Tensor ramp(const std::vector<int64_t>& shape, torch::ScalarType dt = torch::kFloat,
                   double scale = 0.5, int64_t offset = 0) {
  if (dt == torch::kFloat) return make<float>(shape, dt, scale, offset, false);
  if (dt == torch::kDouble) return make<double>(shape, dt, scale, offset, false);
  if (dt == torch::kInt) return make<int32_t>(shape, dt, 1.0, offset, false);
  if (dt == torch::kLong) return make<int64_t>(shape, dt, 1.0, offset, false);
  if (dt == torch::kBool) return make<float>(shape, torch::kFloat, 1.0, offset, false) > 0;
  throw std::runtime_error("ramp: unsupported dtype");
}

/// Float input with a NaN in every fourth element.
torch::Tensor ramp_nan(const std::vector<int64_t>& shape, int64_t offset = 0) {
  return make<float>(shape, torch::kFloat, 0.5, offset, true);
}

/// Small positive floats (for log, sqrt, division).
torch::Tensor positive(const std::vector<int64_t>& shape, int64_t offset = 0) {
  return ramp(shape, torch::kFloat, 0.25, offset).abs() + 0.5;
}

/// Sets every parameter of a module from the formula, keyed by its name so that registration
/// order does not matter.
void fix_weights(torch::nn::Module& m, double scale = 0.1) {
  torch::NoGradGuard no_grad;
  for (auto& p : m.named_parameters()) {
    int64_t salt = 0;
    for (char ch : p.key()) salt = (salt * 31 + ch) % 97;
    auto& t = p.value();
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < t.dim(); ++d) shape.push_back(t.size(d));
    t.copy_(ramp(shape, torch::kFloat, scale, salt));
  }
}

}  // namespace

// Calls a tensor method only when the tensor type provides it; otherwise the case throws on that
// side. The generic lambda makes `self_` dependent, so a missing member is a substitution failure
// (the case fails its comparison) instead of a build failure of the whole suite.
#define DIFF_TRY_METHOD(obj, call)                                                         \
  [&](auto& self_) -> torch::Tensor {                                                      \
    if constexpr (requires { self_.call; }) {                                              \
      return self_.call;                                                                   \
    } else {                                                                               \
      throw std::runtime_error("not provided by this tensor library: Tensor::" #call);   \
    }                                                                                      \
  }(obj)

// ---------------------------------------------------------------------------------------------
// creation
DIFF_CASE(create_zeros_f32) { return torch::zeros({2, 3}); }
DIFF_CASE(create_zeros_options_i32) { return torch::zeros({2, 3}, torch::TensorOptions().dtype(torch::kInt)); }
DIFF_CASE(create_ones_scalar_type_i64) { return torch::ones({4}, torch::kLong); }
DIFF_CASE(create_ones_dtype_helper_f64) { return torch::ones({2, 2}, torch::dtype(torch::kDouble)); }
DIFF_CASE(create_ones_bool) { return torch::ones({3}, torch::kBool); }
DIFF_CASE(create_full_f32) { return torch::full({2, 2}, 1.5); }
DIFF_CASE(create_full_i64) { return torch::full({3}, 7, torch::kLong); }
DIFF_CASE(create_empty_shape) {
  auto e = torch::empty({3, 0, 2});
  return {torch::zeros_like(e), torch::zeros({0})};
}
DIFF_CASE(create_empty_dtype) { return torch::empty({2, 3}, torch::kInt).fill_(3); }
DIFF_CASE(create_arange_end) { return torch::arange(5); }
DIFF_CASE(create_arange_start_end) { return torch::arange(-3, 4); }
DIFF_CASE(create_arange_step_float) { return torch::arange(0.0, 1.0, 0.25); }
DIFF_CASE(create_arange_options_f32) { return torch::arange(6, torch::kFloat); }
DIFF_CASE(create_arange_negative_step) { return torch::arange(5, -5, -3); }
DIFF_CASE(create_tensor_float_list) { return torch::tensor({1.5f, -2.0f, 0.0f}); }
DIFF_CASE(create_tensor_double_list) { return torch::tensor({1.5, -2.0}); }
DIFF_CASE(create_tensor_int64_list) { return torch::tensor({int64_t{3}, int64_t{-1}, int64_t{0}}); }
DIFF_CASE(create_tensor_scalar) { return torch::tensor(2.5); }
DIFF_CASE(create_from_blob_2d) {
  float data[6] = {1, -2, 0, 4, 5.5f, -6};
  return torch::from_blob(data, {2, 3}, torch::kFloat).clone();
}
DIFF_CASE(create_zeros_like_ones_like) {
  auto x = ramp({2, 3}, torch::kInt);
  return {torch::zeros_like(x), torch::ones_like(x)};
}
DIFF_CASE(create_full_like) { return torch::full_like(ramp({3}), 4.0); }
// Random values differ between implementations by design; only shape, dtype and range must agree.
DIFF_CASE(create_rand_range) {
  torch::manual_seed(7);
  auto r = torch::rand({100});
  return {torch::zeros_like(r), (r >= 0).all(), (r < 1).all()};
}
DIFF_CASE(create_randn_shape) {
  torch::manual_seed(7);
  auto r = torch::randn({3, 4}, torch::kDouble);
  return {torch::zeros_like(r), torch::isnan(r).any()};
}
DIFF_CASE(create_manual_seed_reproducible) {
  torch::manual_seed(42);
  auto a = torch::rand({8});
  torch::manual_seed(42);
  auto b = torch::rand({8});
  return S{a.equal(b) ? 1.0 : 0.0};
}
DIFF_CASE(create_device_options) {
  auto opts = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCPU);
  auto t = torch::ones({2}, opts);
  return {t, torch::ones({1}, torch::TensorOptions().device(torch::Device(torch::kCPU)))};
}

// ---------------------------------------------------------------------------------------------
// elementwise arithmetic and dtype promotion
DIFF_CASE(arith_add_f32) { return ramp({2, 3}) + ramp({2, 3}, torch::kFloat, 0.5, 4); }
DIFF_CASE(arith_sub_mul_div_f32) {
  auto a = ramp({5});
  auto b = positive({5}, 2);
  return {a - b, a * b, a / b};
}
DIFF_CASE(arith_functions) {
  auto a = ramp({4});
  auto b = positive({4}, 1);
  return {torch::add(a, b), torch::sub(a, b), torch::mul(a, b), torch::div(a, b), torch::neg(a)};
}
DIFF_CASE(arith_add_alpha) { return torch::add(ramp({3}), ramp({3}, torch::kFloat, 0.5, 1), 2); }
DIFF_CASE(arith_div_by_zero_f32) { return ramp({6}) / torch::zeros({6}); }
DIFF_CASE(arith_neg_operator) { return -ramp({4}, torch::kLong); }
DIFF_CASE(arith_abs_int) { return ramp({6}, torch::kInt).abs(); }
DIFF_CASE(arith_pow_scalar) { return ramp({5}).pow(2); }
DIFF_CASE(arith_pow_int) { return ramp({5}, torch::kLong).pow(3); }
DIFF_CASE(arith_sqrt_rsqrt) { return {positive({4}).sqrt(), positive({4}).rsqrt()}; }
DIFF_CASE(arith_exp_log) { return {ramp({5}).exp(), positive({5}).log(), torch::exp(ramp({2}))}; }
DIFF_CASE(arith_log_nonpositive) { return torch::log(ramp({6})); }
DIFF_CASE(arith_maximum_minimum) {
  auto a = ramp({5});
  auto b = ramp({5}, torch::kFloat, 0.5, 3);
  return {torch::maximum(a, b), torch::minimum(a, b)};
}
DIFF_CASE(arith_maximum_nan) { return torch::maximum(ramp_nan({8}), ramp({8})); }
DIFF_CASE(arith_nan_propagation) {
  auto x = ramp_nan({8});
  return {x + 1, x * 0, x.exp(), x.relu(), x.sigmoid()};
}
DIFF_CASE(arith_inplace_ops) {
  auto x = ramp({4});
  x.add_(1).mul_(2).sub_(0.5).div_(4);
  return x;
}
DIFF_CASE(arith_inplace_tensor_operand) {
  auto x = ramp({2, 3});
  x += ramp({3}, torch::kFloat, 1.0, 5);
  x *= 2;
  return x;
}
DIFF_CASE(arith_inplace_int_by_float_errors) {
  auto x = ramp({3}, torch::kLong);
  x.mul_(ramp({3}));  // result type float cannot be cast to long in place
  return x;
}
DIFF_CASE(arith_scalar_left) { return 1 - ramp({3}); }
DIFF_CASE(arith_scalar_reverse_div) { return 2.0 / positive({3}); }

// promotion
DIFF_CASE(promote_int_plus_float) { return ramp({3}, torch::kInt) + ramp({3}); }
DIFF_CASE(promote_long_plus_int) { return ramp({3}, torch::kLong) + ramp({3}, torch::kInt); }
DIFF_CASE(promote_float_plus_double) { return ramp({3}) + ramp({3}, torch::kDouble); }
DIFF_CASE(promote_bool_plus_int) { return ramp({4}, torch::kBool) + ramp({4}, torch::kInt); }
DIFF_CASE(promote_bool_plus_bool) { return ramp({4}, torch::kBool) + ramp({4}, torch::kBool, 1.0, 2); }
DIFF_CASE(promote_bool_times_float) { return ramp({4}, torch::kBool) * ramp({4}); }
DIFF_CASE(promote_int_div_int) { return ramp({5}, torch::kInt) / positive({5}).to(torch::kInt); }
DIFF_CASE(promote_long_div_long_by_zero) { return ramp({4}, torch::kLong) / torch::zeros({4}, torch::kLong); }
DIFF_CASE(promote_long_times_float_scalar) { return ramp({3}, torch::kLong) * 2.5; }
DIFF_CASE(promote_long_plus_int_scalar) { return ramp({3}, torch::kLong) + 1; }
DIFF_CASE(promote_int_plus_int_scalar) { return ramp({3}, torch::kInt) + 100; }
DIFF_CASE(promote_float_times_double_scalar) { return ramp({3}) * 0.1; }
DIFF_CASE(promote_bool_plus_float_scalar) { return ramp({3}, torch::kBool) + 1.5; }
DIFF_CASE(promote_bool_plus_int_scalar) { return ramp({3}, torch::kBool) + 2; }
DIFF_CASE(promote_zero_dim_double_with_float) { return ramp({3}) + torch::tensor(1.5, torch::kDouble); }
DIFF_CASE(promote_zero_dim_float_with_int) { return ramp({3}, torch::kInt) + torch::tensor(1.5f); }
DIFF_CASE(promote_zero_dim_long_with_int) { return ramp({3}, torch::kInt) + torch::tensor(int64_t{5}); }
DIFF_CASE(promote_zero_dim_both) { return torch::tensor(2) + torch::tensor(0.5); }
DIFF_CASE(promote_where_mixed) { return torch::where(ramp({4}, torch::kBool), ramp({4}, torch::kInt), ramp({4}, torch::kDouble)); }
DIFF_CASE(promote_cat_mixed) { return torch::cat({ramp({2}, torch::kInt), ramp({2})}); }
DIFF_CASE(promote_sum_int_is_long) { return {ramp({4}, torch::kInt).sum(), ramp({4}, torch::kBool).sum()}; }
DIFF_CASE(promote_to_conversions) {
  auto x = ramp({6}, torch::kFloat, 0.75);  // includes -4.5, -0.75, 0, 3.75 ...
  return {x.to(torch::kLong), x.to(torch::kInt), x.to(torch::kBool), x.to(torch::kDouble),
          x.to(torch::kBool).to(torch::kFloat)};
}

// comparisons and logic
DIFF_CASE(compare_all_ops) {
  auto a = ramp({6});
  auto b = ramp({6}, torch::kFloat, 0.5, 2);
  return {a == b, a != b, a < b, a <= b, a > b, a >= b};
}
DIFF_CASE(compare_scalar) {
  auto a = ramp({6});
  return {a > 0, a <= 0, a == 0, a != 1.5, 0 < a};
}
DIFF_CASE(compare_methods) {
  auto a = ramp({4});
  return {a.eq(0), a.ne(0), a.lt(1), a.le(1), a.gt(-1), a.ge(-1)};
}
DIFF_CASE(compare_mixed_dtypes) { return ramp({5}, torch::kInt) < ramp({5}); }
DIFF_CASE(compare_nan) {
  auto x = ramp_nan({8});
  return {x == x, x != x, x > 0, x <= 0, torch::isnan(x)};
}
DIFF_CASE(logic_not_and_or) {
  auto m = ramp({6}) > 0;
  auto n = ramp({6}, torch::kFloat, 0.5, 1) < 0;
  return {~m, m & n, m | n, torch::logical_not(m), torch::logical_and(m, n), torch::logical_or(m, n)};
}
DIFF_CASE(logic_logical_not_float) { return torch::logical_not(ramp({5})); }

// ---------------------------------------------------------------------------------------------
// unary nn functions
DIFF_CASE(unary_relu_sigmoid_tanh) {
  auto x = ramp({7});
  return {torch::relu(x), torch::sigmoid(x), torch::tanh(x), x.relu(), x.sigmoid(), x.tanh()};
}
DIFF_CASE(unary_relu_int) { return torch::relu(ramp({5}, torch::kLong)); }
DIFF_CASE(unary_gelu) { return torch::gelu(ramp({7})); }
DIFF_CASE(unary_sigmoid_int_promotes) { return torch::sigmoid(ramp({3}, torch::kInt)); }
DIFF_CASE(unary_large_values) {
  auto x = ramp({6}, torch::kFloat, 20.0);  // +-120: exp overflows, sigmoid/tanh saturate
  return {x.exp(), x.sigmoid(), x.tanh()};
}
DIFF_CASE(clamp_min_max) {
  auto x = ramp({7});
  return {x.clamp(-1, 1), torch::clamp(x, -0.5, 2.0), x.clamp_min(0), x.clamp_max(0.5)};
}
DIFF_CASE(clamp_optional_bounds) {
  auto x = ramp({7});
  return {torch::clamp(x, c10::nullopt, 1.0), torch::clamp(x, -1.0, c10::nullopt)};
}
DIFF_CASE(clamp_int) { return ramp({7}, torch::kInt).clamp(-2, 3); }
DIFF_CASE(clamp_nan) { return ramp_nan({8}).clamp(-1, 1); }
DIFF_CASE(clamp_inplace) {
  auto x = ramp({5});
  x.clamp_(0, 1);
  return x;
}

// ---------------------------------------------------------------------------------------------
// elementwise math: floating functions (integers promote to the default dtype; outside the domain
// the result is NaN), atan2, hypot, fmod / remainder / floor_divide, lerp
namespace {
/// Floats with the IEEE specials: NaN, +-inf, +-0, and ordinary values of both signs.
torch::Tensor specials() {
  const float inf = std::numeric_limits<float>::infinity();
  return torch::tensor({std::numeric_limits<float>::quiet_NaN(), inf, -inf, 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f});
}
/// An integer divisor without zeros: the formula's values with 0 replaced by 3 (signs of both kinds).
torch::Tensor nonzero_divisor(const std::vector<int64_t>& shape, torch::ScalarType dt, int64_t offset = 0) {
  auto d = ramp(shape, dt, 1.0, offset);
  return torch::where(d == 0, torch::full_like(d, 3), d);
}
}  // namespace

DIFF_CASE(math_trig_hyperbolic) {
  auto x = ramp({13});  // -3 .. 3 by halves
  return {torch::sin(x), torch::cos(x), torch::tan(x), torch::atan(x),
          torch::sinh(x), torch::cosh(x), torch::asinh(x), torch::tanh(x)};
}
DIFF_CASE(math_inverse_trig_domain) {
  auto x = ramp({13}, torch::kFloat, 0.25);  // -1.5 .. 1.5: NaN outside [-1, 1], atanh(+-1) = +-inf
  return {torch::asin(x), torch::acos(x), torch::atanh(x), torch::asin(torch::tensor({2.0f})),
          torch::acosh(ramp({13}, torch::kFloat, 1.0))};  // acosh: NaN below 1, 0 at 1
}
DIFF_CASE(math_exp_log_family) {
  auto x = ramp({13});  // log1p(-1) = -inf, log1p(< -1) and log2/log10 of negatives are NaN
  return {torch::erf(x), torch::erfc(x), torch::log1p(x), torch::expm1(x),
          torch::log2(x), torch::log10(x), torch::exp2(x)};
}
DIFF_CASE(math_methods) {
  auto x = ramp({7}, torch::kFloat, 0.25);
  return {x.sin(), x.cos(), x.tan(), x.asin(), x.acos(), x.atan(), x.sinh(), x.cosh(), x.asinh(),
          x.atanh(), x.erf(), x.erfc(), x.log1p(), x.expm1(), x.log2(), x.log10(), x.exp2(),
          (x + 2).acosh()};
}
DIFF_CASE(math_specials) {
  auto x = specials();
  return {x.sin(), x.cos(), x.tan(), x.asin(), x.atan(), x.sinh(), x.cosh(), x.asinh(), x.acosh(),
          x.atanh(), x.erf(), x.erfc(), x.log1p(), x.expm1(), x.log2(), x.log10(), x.exp2()};
}
DIFF_CASE(math_large_values) {
  auto x = ramp({6}, torch::kFloat, 20.0);  // +-120: sinh/cosh/exp2/expm1 overflow, erfc underflows
  return {x.sinh(), x.cosh(), x.exp2(), x.expm1(), x.erfc(), x.atan(), x.asinh()};
}
DIFF_CASE(math_int_promotes) {
  auto i = ramp({7}, torch::kInt);
  auto l = ramp({7}, torch::kLong);
  return {torch::sin(i), l.cos(), torch::exp2(l), i.log2(), torch::erf(ramp({4}, torch::kBool)),
          torch::atan(l), torch::log1p(i)};
}
DIFF_CASE(math_double) {
  auto x = ramp({9}, torch::kDouble, 0.3);
  return {x.sin(), x.acos(), x.erfc(), x.expm1(), x.log1p(), x.exp2(), x.atanh()};
}
DIFF_CASE(math_noncontiguous) {
  auto x = ramp({3, 4}).t();
  return {x.sin(), torch::log1p(x.abs()), torch::atan2(x, ramp({4, 3}, torch::kFloat, 0.5, 5))};
}
DIFF_CASE(math_inplace) {
  auto a = ramp({5});
  auto b = ramp({5}, torch::kFloat, 0.25);
  auto c = ramp({5}, torch::kDouble);
  a.sin_().cos_();
  b.asin_();
  c.exp2_().log2_();
  auto d = ramp({5});
  d.erf_();
  d.expm1_();
  return {a, b, c, d};
}
DIFF_CASE(math_inplace_int_errors) {
  auto x = ramp({3}, torch::kLong);
  x.sin_();  // result type Float can't be cast to the desired output type Long
  return x;
}
DIFF_CASE(math_atan2) {
  auto y = ramp({13});
  auto x = ramp({13}, torch::kFloat, 0.5, 4);  // zeros on both sides, every quadrant
  return {torch::atan2(y, x), y.atan2(x), torch::atan2(y, torch::zeros({13})),
          torch::atan2(torch::zeros({13}), x)};
}
DIFF_CASE(math_atan2_int_broadcast) {
  return {torch::atan2(ramp({3, 1}, torch::kInt), ramp({4}, torch::kLong)),
          torch::atan2(ramp({4}, torch::kBool), ramp({4}, torch::kBool, 1.0, 1)),
          torch::atan2(ramp({3}), ramp({3}, torch::kDouble))};
}
DIFF_CASE(math_atan2_specials) {
  auto x = specials();
  return {torch::atan2(x, x.flip({0})), torch::atan2(x, torch::ones({9}))};
}
DIFF_CASE(math_atan2_inplace) {
  auto y = ramp({5});
  y.atan2_(ramp({5}, torch::kFloat, 0.5, 2));
  return y;
}
DIFF_CASE(math_atan2_inplace_int_errors) {
  auto y = ramp({3}, torch::kLong);
  y.atan2_(ramp({3}, torch::kLong, 1.0, 1));
  return y;
}
DIFF_CASE(math_hypot) {
  auto a = ramp({7});
  auto b = ramp({7}, torch::kFloat, 0.5, 3);
  auto c = ramp({7}, torch::kDouble);
  c.hypot_(ramp({7}, torch::kDouble, 0.5, 1));
  return {torch::hypot(a, b), a.hypot(torch::zeros({1})), torch::hypot(specials(), specials().flip({0})), c};
}
DIFF_CASE(math_hypot_int_errors) { return torch::hypot(ramp({3}, torch::kLong), ramp({3}, torch::kLong)); }
DIFF_CASE(math_fmod_remainder_float) {
  auto a = ramp({13});
  auto b = ramp({13}, torch::kFloat, 0.75, 5);  // divisors of both signs, and zero (NaN)
  return {torch::fmod(a, b), torch::remainder(a, b), a.fmod(b), a.remainder(b)};
}
DIFF_CASE(math_fmod_remainder_scalar) {
  auto a = ramp({13});
  return {torch::fmod(a, 2), torch::fmod(a, -1.5), torch::remainder(a, 2), torch::remainder(a, -1.5),
          a.fmod(0.75), a.remainder(0.75), torch::remainder(5, nonzero_divisor({13}, torch::kLong)),
          torch::remainder(2.5, nonzero_divisor({13}, torch::kInt))};
}
DIFF_CASE(math_fmod_remainder_int) {
  auto a = ramp({13}, torch::kLong);
  auto b = nonzero_divisor({13}, torch::kLong, 4);
  auto i = ramp({13}, torch::kInt);
  return {torch::fmod(a, b), torch::remainder(a, b), torch::fmod(i, 4), torch::remainder(i, -4),
          torch::remainder(i, b), torch::fmod(a, 2.5), torch::remainder(i, 2.5)};
}
DIFF_CASE(math_fmod_remainder_specials) {
  auto x = specials();
  auto y = x.flip({0});
  return {torch::fmod(x, y), torch::remainder(x, y), torch::remainder(x, 2), torch::fmod(x, -2)};
}
DIFF_CASE(math_fmod_int_by_zero_errors) { return torch::fmod(ramp({5}, torch::kLong), torch::zeros({5}, torch::kLong)); }
DIFF_CASE(math_remainder_int_by_zero_errors) { return torch::remainder(ramp({5}, torch::kInt), 0); }
DIFF_CASE(math_fmod_bool_errors) { return torch::fmod(ramp({4}, torch::kBool), ramp({4}, torch::kBool)); }
DIFF_CASE(math_remainder_bool_errors) { return torch::remainder(ramp({4}, torch::kBool), ramp({4}, torch::kBool)); }
DIFF_CASE(math_floor_divide_float) {
  auto a = ramp({13});
  auto b = ramp({13}, torch::kFloat, 0.75, 5);  // x / 0 gives +-inf or NaN
  return {torch::floor_divide(a, b), a.floor_divide(b), torch::floor_divide(a, 2),
          torch::floor_divide(a, -0.75), torch::floor_divide(torch::tensor({0.3f, -0.3f, 7.0f}), 0.1)};
}
DIFF_CASE(math_floor_divide_int) {
  // LibTorch 1.13 rounds toward -inf: -7 // 2 == -4 (earlier versions truncated to -3).
  auto a = ramp({13}, torch::kLong);
  auto b = nonzero_divisor({13}, torch::kLong, 4);
  return {torch::floor_divide(a, b), torch::floor_divide(a, 2), torch::floor_divide(a, -2),
          torch::floor_divide(ramp({13}, torch::kInt), 3), torch::floor_divide(a, 2.5),
          torch::floor_divide(ramp({4}, torch::kBool), 2)};
}
DIFF_CASE(math_floor_divide_specials) {
  auto x = specials();
  return {torch::floor_divide(x, x.flip({0})), torch::floor_divide(x, 3), torch::floor_divide(x, -0.0)};
}
DIFF_CASE(math_div_rounding_modes) {
  // trunc rounds toward zero, floor toward -inf; integers stay integers, floats are rounded.
  auto a = ramp({13}, torch::kLong);
  auto b = nonzero_divisor({13}, torch::kLong, 4);
  auto f = ramp({13});
  auto g = ramp({13}, torch::kFloat, 0.75, 5);
  return {torch::div(a, b, "trunc"), torch::div(a, b, "floor"), torch::div(a, -3, "trunc"),
          a.div(3, "floor"), torch::div(ramp({13}, torch::kInt), b, "trunc"), torch::div(a, 2.5, "trunc"),
          torch::div(f, g, "trunc"), f.div(g, "floor"), torch::div(f, -0.75, "trunc"),
          torch::div(specials(), 3, "trunc"), torch::div(a, b, c10::nullopt)};
}
DIFF_CASE(math_div_trunc_int_by_zero_errors) {
  return torch::div(ramp({5}, torch::kLong), torch::zeros({5}, torch::kLong), "trunc");
}
DIFF_CASE(math_div_unknown_rounding_mode_errors) { return torch::div(ramp({5}), 2, "round"); }
DIFF_CASE(math_floor_divide_int_by_zero_errors) {
  return torch::floor_divide(ramp({5}, torch::kLong), torch::zeros({5}, torch::kLong));
}
DIFF_CASE(math_floor_divide_bool_errors) { return torch::floor_divide(ramp({4}, torch::kBool), ramp({4}, torch::kBool)); }
DIFF_CASE(math_div_family_inplace) {
  auto a = ramp({6}, torch::kLong);
  auto b = ramp({6}, torch::kLong);
  auto c = ramp({6}, torch::kLong);
  auto d = ramp({6});
  a.fmod_(4);
  b.remainder_(nonzero_divisor({6}, torch::kLong, 2));
  c.floor_divide_(-4);
  d.remainder_(torch::tensor(1.25f)).floor_divide_(0.25).fmod_(ramp({6}, torch::kFloat, 1.0, 3));
  return {a, b, c, d};
}
DIFF_CASE(math_div_family_inplace_int_by_float_errors) {
  auto x = ramp({4}, torch::kLong);
  x.floor_divide_(2.5);  // result type Float can't be cast to Long
  return x;
}
DIFF_CASE(math_lerp) {
  auto a = ramp({7});
  auto b = ramp({7}, torch::kFloat, 1.5, 3);
  auto w = ramp({7}, torch::kFloat, 0.25, 1);  // weights on both sides of 0.5, negative, above 1
  return {torch::lerp(a, b, 0.25), torch::lerp(a, b, 0.75), a.lerp(b, 1.0), a.lerp(b, -0.5),
          torch::lerp(a, b, w), a.lerp(b, w)};
}
DIFF_CASE(math_lerp_broadcast_double) {
  auto a = ramp({3, 1}, torch::kDouble);
  auto b = ramp({4}, torch::kDouble, 0.5, 2);
  return {torch::lerp(a, b, 0.3), torch::lerp(a, b, ramp({3, 4}, torch::kDouble, 0.1, 1)),
          torch::lerp(ramp_nan({8}), ramp({8}), 0.5)};
}
DIFF_CASE(math_lerp_inplace) {
  auto a = ramp({2, 3});
  a.lerp_(ramp({3}, torch::kFloat, 0.5, 4), 0.6);
  auto b = ramp({4});
  b.lerp_(ramp({4}, torch::kFloat, 0.5, 1), ramp({4}, torch::kFloat, 0.25, 2));
  return {a, b};
}
DIFF_CASE(math_lerp_int_errors) { return torch::lerp(ramp({3}, torch::kLong), ramp({3}, torch::kLong), 0.5); }
DIFF_CASE(math_lerp_dtype_mismatch_errors) { return torch::lerp(ramp({3}), ramp({3}, torch::kDouble), 0.5); }
DIFF_CASE(math_lerp_weight_dtype_mismatch_errors) {
  return torch::lerp(ramp({3}), ramp({3}), ramp({3}, torch::kDouble));
}
DIFF_CASE(math_lerp_inplace_cannot_grow_errors) {
  auto a = ramp({3});
  a.lerp_(ramp({2, 3}), 0.5);
  return a;
}

// ---------------------------------------------------------------------------------------------
// where / masked_fill
DIFF_CASE(where_tensor_tensor) {
  auto x = ramp({2, 3});
  return torch::where(x > 0, x * 2, x + 2);
}
DIFF_CASE(where_zero_dim_condition) {
  // Seed 002's fix: the condition is a 0-d tensor broadcast against the arms.
  auto x = ramp({3});
  return {torch::where(x.sum() > 0, x * 2, x + 2), torch::where(x.sum() < 0, x * 2, x + 2)};
}
DIFF_CASE(where_scalar_other) {
  auto x = ramp({5});
  return torch::where(x > 0, x, 0);
}
DIFF_CASE(where_scalar_self) {
  auto x = ramp({5});
  return torch::where(x > 0, 1.0, x);
}
DIFF_CASE(where_broadcast) { return torch::where(ramp({3, 1}) > 0, ramp({1, 4}), ramp({4}, torch::kFloat, 1.0, 9)); }
DIFF_CASE(where_method) {
  auto x = ramp({4});
  auto other = ramp({4}, torch::kFloat, 0.5, 1);
  return DIFF_TRY_METHOD(x, where(x > 0, other));
}
DIFF_CASE(where_nan) {
  auto x = ramp_nan({8});
  return torch::where(x > 0, x, torch::zeros_like(x));
}
DIFF_CASE(where_non_bool_condition_errors) { return torch::where(ramp({3}), ramp({3}), ramp({3})); }
DIFF_CASE(where_shape_mismatch_errors) { return torch::where(ramp({3}) > 0, ramp({4}), ramp({3})); }
DIFF_CASE(masked_fill_scalar) {
  auto x = ramp({2, 3});
  return x.masked_fill(x < 0, -1);
}
DIFF_CASE(masked_fill_inplace_broadcast_mask) {
  auto x = ramp({2, 3});
  x.masked_fill_(ramp({3}) == 0, 1e-4);
  return x;
}
DIFF_CASE(masked_fill_zero_dim_tensor_value) {
  auto x = ramp({4});
  return x.masked_fill(x > 0, torch::tensor(9.0f));
}
DIFF_CASE(masked_fill_int) {
  auto x = ramp({5}, torch::kLong);
  return x.masked_fill(x > 0, 7);
}
DIFF_CASE(masked_fill_non_bool_mask_errors) {
  auto x = ramp({4});
  return x.masked_fill(ramp({4}, torch::kLong), 1.0);
}

// ---------------------------------------------------------------------------------------------
// broadcasting
DIFF_CASE(broadcast_column_row) { return ramp({3, 1}) + ramp({1, 4}, torch::kFloat, 0.5, 3); }
DIFF_CASE(broadcast_trailing) { return ramp({2, 3, 4}) * ramp({4}, torch::kFloat, 0.5, 1); }
DIFF_CASE(broadcast_middle_one) { return ramp({2, 1, 4}) - ramp({3, 1}); }
DIFF_CASE(broadcast_zero_dim) { return ramp({2, 2}) + torch::tensor(3.0f); }
DIFF_CASE(broadcast_empty) { return ramp({0, 3}) + ramp({3}); }
DIFF_CASE(broadcast_mismatch_errors) { return ramp({3}) + ramp({4}); }
DIFF_CASE(broadcast_mismatch_2d_errors) { return ramp({2, 3}) * ramp({3, 2}); }
DIFF_CASE(broadcast_inplace_cannot_grow_errors) {
  auto x = ramp({3});
  x.add_(ramp({2, 3}));
  return x;
}

// ---------------------------------------------------------------------------------------------
// reductions
DIFF_CASE(reduce_full) {
  auto x = ramp({3, 4});
  return {x.sum(), x.mean(), x.max(), x.min(), x.argmax(), x.argmin()};
}
DIFF_CASE(reduce_dim) {
  auto x = ramp({3, 4});
  return {x.sum(0), x.sum(1), x.mean(1), x.sum(-1), x.argmax(1), x.argmax(0)};
}
DIFF_CASE(reduce_dim_keepdim) {
  auto x = ramp({2, 3, 4});
  return {x.sum(1, true), x.mean(-1, true), x.argmax(2, true), x.sum(std::vector<int64_t>{0, 2}), x.sum(std::vector<int64_t>{0, 2}, true)};
}
DIFF_CASE(reduce_max_min_dim_tuple) {
  auto x = ramp({3, 5});
  auto mx = x.max(1);
  auto [mn_v, mn_i] = torch::min(x, 0, true);
  return {std::get<0>(mx), std::get<1>(mx), mn_v, mn_i};
}
DIFF_CASE(reduce_max_ties_first_index) {
  auto x = torch::tensor({1.0f, 3.0f, 3.0f, 0.0f, 3.0f});
  return {x.argmax(), std::get<1>(x.max(0)), x.argmin()};
}
DIFF_CASE(reduce_int_dtypes) {
  auto x = ramp({2, 3}, torch::kInt);
  return {x.sum(), x.sum(1), x.max(), x.argmax(1), x.sum(0, false, torch::kDouble)};
}
DIFF_CASE(reduce_mean_int_errors) { return ramp({4}, torch::kLong).mean(); }
DIFF_CASE(reduce_mean_dtype_arg) { return ramp({4}, torch::kLong).mean(torch::kFloat); }
DIFF_CASE(reduce_any_all) {
  auto m = ramp({2, 3}) > 0;
  return {m.any(), m.all(), m.any(1), m.all(0), ramp({3}).any(), torch::zeros({0}, torch::kBool).all()};
}
DIFF_CASE(reduce_nan) {
  auto x = ramp_nan({2, 4});
  return {x.sum(), x.mean(1), x.max(), x.min(), x.argmax(), std::get<0>(x.max(1)), std::get<1>(x.max(1))};
}
DIFF_CASE(reduce_empty) {
  auto e = torch::zeros({0});
  return {e.sum(), e.mean()};
}
DIFF_CASE(reduce_empty_max_errors) { return torch::zeros({0}).max(); }
DIFF_CASE(reduce_bad_dim_errors) { return ramp({2, 3}).sum(2); }
DIFF_CASE(reduce_bad_negative_dim_errors) { return ramp({2, 3}).argmax(-3); }
DIFF_CASE(reduce_prod) { return {ramp({4}).prod(), ramp({2, 3}, torch::kLong).prod(1)}; }
DIFF_CASE(reduce_amax_amin) { return {ramp({3, 4}).amax(1), ramp({3, 4}).amin(0, true)}; }
DIFF_CASE(cumsum_dims) {
  auto x = ramp({3, 4});
  return {x.cumsum(0), x.cumsum(1), torch::cumsum(x, -1)};
}
DIFF_CASE(cumsum_int_promotes_to_long) { return {ramp({5}, torch::kInt).cumsum(0), ramp({5}, torch::kBool).cumsum(0)}; }
DIFF_CASE(cumsum_dtype_arg) { return ramp({4}, torch::kLong).cumsum(0, torch::kFloat); }
DIFF_CASE(cumsum_nan) { return ramp_nan({6}).cumsum(0); }
DIFF_CASE(cumprod_dims) {
  auto x = ramp({3, 4});
  return {x.cumprod(0), x.cumprod(1), torch::cumprod(x, -1), torch::cumprod(ramp({2, 3, 2}), 1)};
}
DIFF_CASE(cumprod_int_promotes_to_long) {
  return {ramp({6}, torch::kInt).cumprod(0), ramp({5}, torch::kBool).cumprod(0), ramp({5}, torch::kLong).cumprod(0)};
}
DIFF_CASE(cumprod_dtype_arg) { return {ramp({5}, torch::kLong).cumprod(0, torch::kDouble), ramp({5}).cumprod(0, torch::kDouble)}; }
DIFF_CASE(cumprod_nan_zero) { return {ramp_nan({6}).cumprod(0), specials().cumprod(0), torch::zeros({0}).cumprod(0)}; }
DIFF_CASE(cumprod_bad_dim_errors) { return ramp({2, 3}).cumprod(2); }

// ---------------------------------------------------------------------------------------------
// linear algebra
DIFF_CASE(matmul_vec_vec) { return torch::matmul(ramp({4}), ramp({4}, torch::kFloat, 0.5, 2)); }
DIFF_CASE(matmul_mat_vec) { return torch::matmul(ramp({3, 3}), ramp({3}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_vec_mat) { return torch::matmul(ramp({3}), ramp({3, 4}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_mat_mat) { return torch::matmul(ramp({2, 5}), ramp({5, 3}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_batched_3d_2d) { return torch::matmul(ramp({2, 3, 4}), ramp({4, 5}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_batched_3d_3d) { return torch::matmul(ramp({2, 3, 4}), ramp({2, 4, 2}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_broadcast_batch) { return torch::matmul(ramp({1, 3, 4}), ramp({2, 4, 2}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_transposed_operand) { return torch::matmul(ramp({4, 3}).t(), ramp({4, 2}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_f64) { return torch::matmul(ramp({3, 3}, torch::kDouble), ramp({3, 2}, torch::kDouble)); }
DIFF_CASE(matmul_long) { return torch::matmul(ramp({2, 3}, torch::kLong), ramp({3, 2}, torch::kLong)); }
DIFF_CASE(matmul_method) { return ramp({2, 3}).matmul(ramp({3}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(matmul_shape_mismatch_errors) { return torch::matmul(ramp({2, 3}), ramp({4, 2})); }
DIFF_CASE(matmul_dtype_mismatch_errors) { return torch::matmul(ramp({2, 3}), ramp({3, 2}, torch::kDouble)); }
DIFF_CASE(mm_basic) { return torch::mm(ramp({2, 3}), ramp({3, 4}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(mm_method_noncontiguous) { return ramp({3, 2}).t().mm(ramp({3, 3}, torch::kFloat, 0.5, 1).t()); }
DIFF_CASE(mm_1d_errors) { return torch::mm(ramp({3}), ramp({3, 2})); }
DIFF_CASE(addmm_basic) { return torch::addmm(ramp({4}), ramp({2, 3}), ramp({3, 4}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(addmm_beta_alpha) {
  return torch::addmm(ramp({2, 4}), ramp({2, 3}), ramp({3, 4}, torch::kFloat, 0.5, 1), 0.5, 2.0);
}
DIFF_CASE(linear_functional) {
  auto x = ramp({2, 3});
  auto w = ramp({4, 3}, torch::kFloat, 0.25, 1);
  auto b = ramp({4}, torch::kFloat, 0.5, 2);
  return {torch::linear(x, w, b), torch::linear(x, w)};
}
DIFF_CASE(linear_3d_input) { return torch::linear(ramp({2, 2, 3}), ramp({4, 3}, torch::kFloat, 0.25, 1)); }

// ---------------------------------------------------------------------------------------------
// shape ops and views
DIFF_CASE(view_reshape) {
  auto x = ramp({2, 6});
  return {x.view({3, 4}), x.view({-1}), x.reshape({4, -1}), torch::reshape(x, {6, 2})};
}
DIFF_CASE(view_after_transpose_errors) { return ramp({2, 3}).t().view({6}); }
DIFF_CASE(view_bad_numel_errors) { return ramp({2, 3}).view({4}); }
DIFF_CASE(reshape_after_transpose) { return ramp({2, 3}).t().reshape({6}); }
DIFF_CASE(transpose_permute) {
  auto x = ramp({2, 3, 4});
  return {x.transpose(0, 2).contiguous(), x.permute({1, 2, 0}).contiguous(), x.transpose(-1, -2),
          torch::transpose(x, 0, 1)};
}
DIFF_CASE(transpose_bad_dim_errors) { return ramp({2, 3}).transpose(0, 2); }
DIFF_CASE(permute_bad_errors) { return ramp({2, 3}).permute({0, 0}); }
DIFF_CASE(squeeze_unsqueeze_flatten) {
  auto x = ramp({2, 1, 3, 1});
  return {x.squeeze(), x.squeeze(1), x.squeeze(0), x.unsqueeze(0), x.unsqueeze(-1), x.flatten(),
          x.flatten(1), x.flatten(0, 2)};
}
DIFF_CASE(expand_then_contiguous) {
  auto x = ramp({3, 1});
  return {x.expand({3, 4}).contiguous(), x.expand({2, 3, 5}), ramp({3}).expand({2, -1})};
}
DIFF_CASE(expand_bad_errors) { return ramp({3}).expand({4, 2}); }
DIFF_CASE(slice_narrow_select) {
  auto x = ramp({4, 5});
  return {x.slice(1, 1, 4), x.slice(0, 0, 4, 2), x.narrow(1, 2, 2), x.select(0, 1), x.select(1, -1),
          x.slice(1, -2)};
}
DIFF_CASE(slice_clamps_end) { return ramp({5}).slice(0, 2, 100); }
DIFF_CASE(select_out_of_range_errors) { return ramp({3, 2}).select(0, 3); }
DIFF_CASE(narrow_out_of_range_errors) { return ramp({5}).narrow(0, 3, 3); }
DIFF_CASE(view_inplace_through_slice) {
  auto x = ramp({3, 4});
  x.slice(1, 0, 2).mul_(10);
  return x;
}
DIFF_CASE(view_inplace_through_transpose) {
  auto x = ramp({2, 3});
  auto t = x.t();
  t.select(0, 1).fill_(100);
  return {x, t.contiguous()};
}
DIFF_CASE(view_inplace_through_select_copy) {
  auto x = ramp({3, 3});
  x.select(1, 2).copy_(ramp({3}, torch::kFloat, 1.0, 7));
  return x;
}
DIFF_CASE(view_inplace_through_narrow_add) {
  auto x = ramp({6});
  x.narrow(0, 1, 3).add_(ramp({3}, torch::kFloat, 1.0, 2));
  return x;
}
DIFF_CASE(view_shares_storage) {
  auto x = ramp({2, 3});
  auto v = x.view({3, 2});
  v.zero_();
  return x;
}
DIFF_CASE(view_of_expand_contiguous_copy_independent) {
  auto base = ramp({1, 3});
  auto e = base.expand({2, 3}).contiguous();
  e.add_(1);
  return {base, e};
}
DIFF_CASE(copy_broadcast_and_convert) {
  auto x = torch::zeros({2, 3}, torch::kLong);
  x.copy_(ramp({3}, torch::kFloat, 1.5));
  return x;
}
DIFF_CASE(clone_independent) {
  auto x = ramp({3});
  auto y = x.clone();
  y.fill_(1);
  return {x, y};
}
DIFF_CASE(cat_stack) {
  auto a = ramp({2, 3});
  auto b = ramp({1, 3}, torch::kFloat, 0.5, 5);
  auto c = ramp({2, 3}, torch::kFloat, 0.5, 9);
  return {torch::cat({a, b}), torch::cat({a, c}, 1), torch::stack({a, c}), torch::stack({a, c}, 2),
          torch::cat({a, torch::zeros({0, 3})})};
}
DIFF_CASE(cat_shape_mismatch_errors) { return torch::cat({ramp({2, 3}), ramp({2, 4})}); }
DIFF_CASE(stack_shape_mismatch_errors) { return torch::stack({ramp({3}), ramp({4})}); }
DIFF_CASE(chunk_split) {
  auto x = ramp({7, 2});
  auto ch = x.chunk(3);
  auto sp = x.split(3);
  auto ch4 = ramp({2, 8}).chunk(4, 1);
  std::vector<torch::Tensor> all(ch.begin(), ch.end());
  all.insert(all.end(), sp.begin(), sp.end());
  all.insert(all.end(), ch4.begin(), ch4.end());
  all.push_back(torch::chunk(x, 2, 0)[1]);
  return all;
}
DIFF_CASE(chunk_views_write_through) {
  auto x = ramp({2, 4});
  x.chunk(2, 1)[1].zero_();
  return x;
}

// ---------------------------------------------------------------------------------------------
// index / index_put_
DIFF_CASE(index_bool_mask_1d) {
  auto x = ramp({6});
  return {x.index({x > 0}), x.index({x <= 0})};
}
DIFF_CASE(index_seed_partition) {
  // Seed 002's original and its fix must agree.
  auto x = ramp({7});
  auto original = torch::cat({x.index({x > 0}), x.index({x <= 0})});
  auto fixed = x.index_select(0, torch::argsort((x <= 0).to(torch::kInt), /*stable=*/true, 0));
  return {original, fixed};
}
DIFF_CASE(index_bool_mask_2d_full) {
  auto x = ramp({3, 4});
  return x.index({x > 1});
}
DIFF_CASE(index_bool_mask_rows) {
  auto x = ramp({4, 3});
  return x.index({ramp({4}) > 0});
}
DIFF_CASE(index_bool_mask_empty_result) {
  auto x = ramp({4});
  return x.index({x > 100});
}
DIFF_CASE(index_long_1d) {
  auto x = ramp({6});
  return x.index({torch::tensor({int64_t{5}, int64_t{0}, int64_t{0}, int64_t{-1}})});
}
DIFF_CASE(index_long_rows_2d) {
  auto x = ramp({4, 3});
  return x.index({torch::tensor({int64_t{2}, int64_t{0}})});
}
DIFF_CASE(index_long_pairs_argmax) {
  auto h = ramp({4, 3});
  auto rows = torch::arange(h.size(0), torch::TensorOptions().dtype(torch::kLong));
  return h.index({rows, h.argmax(1)});
}
DIFF_CASE(index_slices_and_ints) {
  auto x = ramp({3, 4, 2});
  return {x.index({Slice(), 1}), x.index({Slice(1, None), Slice(None, None, 2)}), x.index({0}),
          x.index({Ellipsis, 0}), x.index({None, 1}), x.index({-1, Slice(), -1}), x.index({Slice(None, -1)})};
}
DIFF_CASE(index_slice_with_long_tensor) {
  auto x = ramp({3, 4});
  return x.index({Slice(), torch::tensor({int64_t{3}, int64_t{1}})});
}
DIFF_CASE(index_int32_index_errors) {
  // LibTorch 1.13 rejects int32 index tensors; the runtime must agree.
  return ramp({5}).index({torch::tensor({1, 2}, torch::kInt)});
}
DIFF_CASE(index_float_index_errors) { return ramp({5}).index({torch::tensor({1.0f, 2.0f})}); }
DIFF_CASE(index_long_out_of_range_errors) { return ramp({5}).index({torch::tensor({int64_t{5}})}); }
DIFF_CASE(index_bool_mask_wrong_shape_errors) { return ramp({5}).index({ramp({4}) > 0}); }
DIFF_CASE(index_too_many_indices_errors) { return ramp({5}).index({0, 0}); }
// Assigning to a temporary view writes through it (LibTorch's rvalue operator=).
DIFF_CASE(assign_through_views) {
  auto x = torch::zeros({3, 4});
  x[1] = torch::arange(4, torch::kFloat);
  x[0][2] = 5;
  x.select(1, 3) = -1.5;
  x[2] = 7;
  return x;
}
DIFF_CASE(assign_through_view_broadcasts) {
  auto x = torch::zeros({2, 3, 2});
  x[1] = torch::tensor({1.0f, 2.0f});
  return x;
}
// The rewritten position forms: one-element long index tensors, negative positions included.
DIFF_CASE(index_one_element_long_negative) {
  auto x = torch::arange(12, torch::kFloat).view({4, 3});
  auto i = torch::tensor({int64_t{-1}});
  return x.index({i}).squeeze(0) + x.index({torch::indexing::Slice(), i - 1}).squeeze(1).sum();
}
DIFF_CASE(index_put_one_element_long_with_integer) {
  auto t = torch::zeros({3, 4});
  auto b = torch::tensor({int64_t{2}});
  t.index_put_({b, 1}, 9);
  t.index_put_({torch::tensor({int64_t{0}})}, torch::ones({4}));
  return t;
}
DIFF_CASE(index_put_bool_scalar) {
  auto x = ramp({6});
  x.index_put_({x == 0}, 1e-4);
  return x;
}
DIFF_CASE(index_put_seed_nonzero) {
  // Seed 002's nonzero example and its fix.
  auto x = ramp({7});
  auto y = x.clone();
  auto idx = (x == 0).nonzero();
  x.index_put_({idx}, 1e-4);
  y.masked_fill_(y == 0, 1e-4);
  return {x, y, idx};
}
DIFF_CASE(index_put_bool_tensor_values) {
  auto x = ramp({5});
  auto m = x > 0;
  x.index_put_({m}, x.index({m}) * 10);
  return x;
}
DIFF_CASE(index_put_long) {
  auto x = torch::zeros({5});
  x.index_put_({torch::tensor({int64_t{4}, int64_t{1}})}, torch::tensor({7.0f, 8.0f}));
  return x;
}
DIFF_CASE(index_put_long_accumulate) {
  auto x = torch::zeros({4});
  auto idx = torch::tensor({int64_t{1}, int64_t{1}, int64_t{3}});
  auto vals = torch::tensor({1.0f, 2.0f, 5.0f});
  DIFF_TRY_METHOD(x, index_put_({idx}, vals, /*accumulate=*/true));
  return x;
}
DIFF_CASE(index_put_slice_row) {
  auto x = ramp({3, 4});
  x.index_put_({1, Slice()}, ramp({4}, torch::kFloat, 1.0, 3));
  x.index_put_({Slice(), 0}, 0.5);
  return x;
}
DIFF_CASE(index_put_bool_2d_scalar) {
  auto x = ramp({3, 3});
  x.index_put_({x < 0}, 0);
  return x;
}
DIFF_CASE(index_put_dtype_converts_values) {
  auto x = torch::zeros({3}, torch::kLong);
  x.index_put_({torch::tensor({int64_t{0}, int64_t{2}})}, torch::tensor({int64_t{4}, int64_t{-4}}));
  return x;
}
DIFF_CASE(index_put_values_dtype_mismatch_errors) {
  auto x = torch::zeros({3});
  x.index_put_({torch::tensor({int64_t{0}})}, torch::tensor({1.0}, torch::kDouble));
  return x;
}
DIFF_CASE(index_put_float_index_errors) {
  auto x = torch::zeros({3});
  x.index_put_({torch::tensor({0.0f})}, 1.0);
  return x;
}
DIFF_CASE(index_select_gather_scatter) {
  auto x = ramp({3, 4});
  auto idx = torch::tensor({int64_t{2}, int64_t{0}});
  auto g = torch::tensor({int64_t{0}, int64_t{3}, int64_t{1}, int64_t{1}, int64_t{2}, int64_t{0}}).view({3, 2});
  return {x.index_select(0, idx), x.index_select(1, idx), torch::index_select(x, 1, idx), x.gather(1, g),
          torch::zeros({3, 4}).scatter(1, g, ramp({3, 2}, torch::kFloat, 1.0, 1)),
          torch::zeros({3, 4}).scatter(1, g, 2.5)};
}
DIFF_CASE(index_select_int_index_errors) { return ramp({3}).index_select(0, torch::tensor({1.5f})); }
DIFF_CASE(index_select_negative_index_errors) { return ramp({3}).index_select(0, torch::tensor({int64_t{-1}})); }
DIFF_CASE(embedding_negative_index_errors) {
  return torch::embedding(ramp({4, 2}), torch::tensor({int64_t{1}, int64_t{-1}}));
}
DIFF_CASE(item_nan_to_long_errors) { return torch::tensor(torch::tensor(NAN).item<int64_t>()); }
DIFF_CASE(fill_long_with_nan_errors) { return torch::zeros({2}, torch::kLong).fill_(NAN); }
DIFF_CASE(fill_float_with_infinity) { return torch::zeros({2}).fill_(-INFINITY); }
DIFF_CASE(item_out_of_int_range_errors) { return torch::tensor(torch::tensor(3e9).item<int32_t>()); }
DIFF_CASE(gather_out_of_range_errors) { return ramp({2, 2}).gather(1, torch::tensor({int64_t{0}, int64_t{2}}).view({1, 2})); }
DIFF_CASE(scatter_inplace) {
  auto x = torch::zeros({2, 3});
  x.scatter_(0, torch::tensor({int64_t{1}, int64_t{0}, int64_t{1}}).view({1, 3}), 1.0);
  return x;
}

// ---------------------------------------------------------------------------------------------
// dynamic-shape ops (present so that originals run)
DIFF_CASE(nonzero_1d_2d) {
  return {(ramp({6}) > 0).nonzero(), (ramp({2, 3}) != 0).nonzero(), torch::nonzero(ramp({4}, torch::kLong)),
          torch::zeros({3}).nonzero()};
}
DIFF_CASE(masked_select_basic) {
  auto x = ramp({2, 3});
  return {x.masked_select(x > 0), torch::masked_select(x, ramp({3}) < 0), x.masked_select(x > 0).sum(),
          x.masked_select(x > 100).mean()};
}
DIFF_CASE(masked_select_fix_agrees) {
  auto x = ramp({7});
  auto m = x > 0;
  return {x.masked_select(m).sum(), torch::where(m, x, 0).sum(), x.masked_select(m).mean(),
          torch::where(m, x, 0).sum() / m.sum()};
}
DIFF_CASE(unique_consecutive_basic) {
  auto x = torch::tensor({int64_t{1}, int64_t{1}, int64_t{2}, int64_t{2}, int64_t{2}, int64_t{1}, int64_t{3}});
  auto [u, inv, counts] = torch::unique_consecutive(x, true, true);
  return {u, inv, counts, std::get<0>(torch::unique_consecutive(x))};
}
DIFF_CASE(topk_basic) {
  auto x = torch::tensor({0.5f, -1.0f, 3.0f, 2.0f, -4.0f, 1.5f});
  auto [v, i] = x.topk(3);
  auto [sv, si] = torch::topk(x, 2, 0, /*largest=*/false);
  return {v, i, sv, si};
}
DIFF_CASE(topk_2d_dim) {
  auto x = ramp({3, 5}, torch::kFloat, 1.0, 0) + torch::arange(5, torch::kFloat) * 0.01;  // no ties
  auto r = x.topk(2, 1);
  return {std::get<0>(r), std::get<1>(r)};
}
DIFF_CASE(topk_zero_dim) { // found by fuzz_runtime_ops: k = 0 left the output unwritten
  auto x = torch::full({}, 2.5);
  return {std::get<0>(x.topk(0)), std::get<1>(x.topk(0)), std::get<0>(x.topk(1, 0))};
}
DIFF_CASE(topk_k_too_large_errors) { return std::get<0>(ramp({3}).topk(4)); }

// ---------------------------------------------------------------------------------------------
// sort / argsort (stable). Always pass all four arguments: with three, LibTorch's overload
// resolution reads sort(x, true, 0) as sort(x, /*dim=*/1, /*descending=*/false).
DIFF_CASE(sort_stable_duplicates) {
  auto x = ramp({12}, torch::kFloat, 1.0, 0).clamp(-2, 2);  // many ties
  auto [v, i] = torch::sort(x, /*stable=*/true, 0, /*descending=*/false);
  auto [dv, di] = torch::sort(x, /*stable=*/true, 0, /*descending=*/true);
  return {v, i, dv, di};
}
DIFF_CASE(sort_dim_default_unstable_values) {
  auto x = ramp({3, 4});
  return std::get<0>(x.sort());  // values are order-independent even when the sort is not stable
}
DIFF_CASE(sort_2d_dim0_stable) {
  auto x = ramp({4, 3}).clamp(-1, 1);
  auto r = x.sort(/*stable=*/true, 0, /*descending=*/false);
  return {std::get<0>(r), std::get<1>(r)};
}
DIFF_CASE(sort_nan_last) {
  auto r = torch::sort(ramp_nan({8}), /*stable=*/true, 0, /*descending=*/false);
  return {std::get<0>(r), std::get<1>(r)};
}
DIFF_CASE(sort_int_and_bool) {
  auto a = torch::sort(ramp({6}, torch::kInt), /*stable=*/true, 0, false);
  auto b = torch::sort(ramp({6}, torch::kBool), /*stable=*/true, 0, false);
  return {std::get<0>(a), std::get<1>(a), std::get<0>(b), std::get<1>(b)};
}
DIFF_CASE(argsort_stable) {
  auto m = (ramp({9}) <= 0).to(torch::kInt);
  return {torch::argsort(m, /*stable=*/true, 0), torch::argsort(m, /*stable=*/true, 0, /*descending=*/true),
          torch::argsort(ramp({3, 4}).clamp(-1, 1), /*stable=*/true, 1)};
}
DIFF_CASE(argsort_bool_stable) { return torch::argsort(ramp({8}) <= 0, /*stable=*/true, 0); }
DIFF_CASE(sort_bad_dim_errors) { return std::get<0>(torch::sort(ramp({3}), /*stable=*/true, 1, false)); }

// ---------------------------------------------------------------------------------------------
// nn functions
DIFF_CASE(softmax_dims) {
  auto x = ramp({2, 5});
  return {torch::softmax(x, 1), torch::softmax(x, 0), x.softmax(-1), torch::log_softmax(x, 1), x.log_softmax(0)};
}
DIFF_CASE(softmax_large_values_stable) { return torch::softmax(ramp({6}, torch::kFloat, 100.0), 0); }
DIFF_CASE(softmax_int_dtype_arg) { return torch::softmax(ramp({4}, torch::kLong), 0, torch::kFloat); }
DIFF_CASE(softmax_nan_row) { return torch::softmax(ramp_nan({2, 4}), 1); }
DIFF_CASE(layer_norm_functional) {
  auto x = ramp({3, 4});
  auto w = ramp({4}, torch::kFloat, 0.25, 1);
  auto b = ramp({4}, torch::kFloat, 0.25, 2);
  return {torch::layer_norm(x, {4}), torch::layer_norm(x, {4}, w, b, 1e-5), torch::layer_norm(ramp({2, 2, 3}), {2, 3})};
}
DIFF_CASE(layer_norm_shape_mismatch_errors) { return torch::layer_norm(ramp({3, 4}), {3}); }
DIFF_CASE(embedding_functional) {
  auto w = ramp({6, 3});
  auto ids = torch::tensor({int64_t{5}, int64_t{0}, int64_t{2}, int64_t{2}}).view({2, 2});
  return torch::embedding(w, ids);
}
DIFF_CASE(embedding_out_of_range_errors) { return torch::embedding(ramp({4, 2}), torch::tensor({int64_t{4}})); }

// ---------------------------------------------------------------------------------------------
// host reads and comparisons of whole tensors
DIFF_CASE(item_reads) {
  auto x = ramp({5});
  return {S{x.sum().item<float>()}, S{static_cast<double>(x.argmax().item<int64_t>())},
          S{x.max().item<double>()}, S{(x > 100).any().item<bool>() ? 1.0 : 0.0}};
}
DIFF_CASE(item_multi_element_errors) { return S{ramp({2}).item<float>()}; }
DIFF_CASE(equal_allclose) {
  auto a = ramp({4});
  auto b = a + 1e-7;
  return {S{a.equal(a.clone()) ? 1.0 : 0.0}, S{a.equal(b) ? 1.0 : 0.0}, S{a.allclose(b) ? 1.0 : 0.0},
          S{torch::allclose(a, a + 1) ? 1.0 : 0.0}, S{torch::equal(a, ramp({2, 2})) ? 1.0 : 0.0}};
}
DIFF_CASE(sizes_and_numel) {
  auto x = ramp({2, 3, 4});
  return {S{static_cast<double>(x.numel())}, S{static_cast<double>(x.dim())}, S{static_cast<double>(x.size(-1))},
          S{static_cast<double>(x.sizes()[1])}, S{x.is_contiguous() ? 1.0 : 0.0},
          S{x.transpose(0, 1).is_contiguous() ? 1.0 : 0.0}};
}

// ---------------------------------------------------------------------------------------------
// nn modules with fixed weights
DIFF_CASE(nn_linear) {
  torch::nn::Linear lin(3, 4);
  fix_weights(*lin);
  return {lin->forward(ramp({2, 3})), lin(ramp({5, 3}, torch::kFloat, 0.5, 1))};
}
DIFF_CASE(nn_linear_no_bias) {
  torch::nn::Linear lin(torch::nn::LinearOptions(3, 2).bias(false));
  fix_weights(*lin);
  return {lin->forward(ramp({4, 3})), S{static_cast<double>(lin->parameters().size())}};
}
DIFF_CASE(nn_linear_shape_mismatch_errors) {
  torch::nn::Linear lin(3, 4);
  return lin->forward(ramp({2, 5}));
}
DIFF_CASE(nn_embedding) {
  torch::nn::Embedding emb(10, 4);
  fix_weights(*emb);
  auto ids = torch::tensor({int64_t{9}, int64_t{0}, int64_t{3}, int64_t{3}, int64_t{1}, int64_t{7}}).view({2, 3});
  return emb->forward(ids);
}
DIFF_CASE(nn_embedding_options) {
  torch::nn::Embedding emb(torch::nn::EmbeddingOptions(5, 2));
  fix_weights(*emb, 1.0);
  return {emb(torch::tensor({int64_t{4}, int64_t{2}})), emb->weight};
}
DIFF_CASE(nn_layer_norm) {
  torch::nn::LayerNorm ln(torch::nn::LayerNormOptions({4}));
  auto default_out = ln->forward(ramp({3, 4}));
  fix_weights(*ln);
  return {default_out, ln->forward(ramp({3, 4})), ln(ramp({2, 2, 4}, torch::kFloat, 0.5, 3))};
}
DIFF_CASE(nn_layer_norm_eps) {
  torch::nn::LayerNorm ln(torch::nn::LayerNormOptions({3}).eps(0.5));
  return ln->forward(ramp({2, 3}));
}
DIFF_CASE(nn_lstm_single_layer) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(3, 4));
  fix_weights(*lstm);
  auto [out, state] = lstm->forward(ramp({5, 2, 3}));  // (T, B, I): seq-first by default
  return {out, std::get<0>(state), std::get<1>(state)};
}
DIFF_CASE(nn_lstm_two_layers_batch_first) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(3, 4).num_layers(2).batch_first(true));
  fix_weights(*lstm);
  auto r = lstm->forward(ramp({2, 5, 3}, torch::kFloat, 0.5, 1));
  return {std::get<0>(r), std::get<0>(std::get<1>(r)), std::get<1>(std::get<1>(r))};
}
DIFF_CASE(nn_lstm_initial_state) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(2, 3));
  fix_weights(*lstm);
  auto h0 = ramp({1, 2, 3}, torch::kFloat, 0.1, 2);
  auto c0 = ramp({1, 2, 3}, torch::kFloat, 0.1, 4);
  auto r = lstm->forward(ramp({4, 2, 2}), std::make_tuple(h0, c0));
  return {std::get<0>(r), std::get<0>(std::get<1>(r)), std::get<1>(std::get<1>(r))};
}
DIFF_CASE(nn_lstm_parameter_names) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(3, 4).num_layers(2));
  // The names are the API (state dicts, fix_weights above); encode them as a checksum.
  double sum = 0;
  int64_t k = 1;
  for (const auto& p : lstm->named_parameters()) {
    for (char ch : p.key()) sum += static_cast<double>(ch) * static_cast<double>(k++ % 7 + 1);
    sum += static_cast<double>(p.value().numel());
  }
  return S{sum};
}

// A user-defined module: register_module / register_parameter, TORCH_MODULE holder semantics.
// LibTorch's register_module(name, holder) returns a shared_ptr the holder type is constructible
// from; GFY_MISSING_register_module_holder (detected by CMake) marks a runtime where it is not.
#ifndef GFY_MISSING_register_module_holder
namespace {
struct TwoLayerImpl : torch::nn::Module {
  TwoLayerImpl()
      : fc1(register_module("fc1", torch::nn::Linear(4, 5))),
        fc2(register_module("fc2", torch::nn::Linear(5, 2))),
        scale(register_parameter("scale", torch::ones({2}))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))) * scale; }
  torch::nn::Linear fc1, fc2;
  torch::Tensor scale;
};
TORCH_MODULE(TwoLayer);
}  // namespace

DIFF_CASE(nn_custom_module) {
  TwoLayer net;
  fix_weights(*net, 0.2);
  auto y = net->forward(ramp({3, 4}));
  return {y, S{static_cast<double>(net->parameters().size())}, S{static_cast<double>(net->named_parameters().size())}};
}
#else
DIFF_CASE(nn_custom_module) {
  throw std::runtime_error("runtime: `Holder h = register_module(name, Holder(...))` does not compile");
}
#endif
DIFF_CASE(nn_no_grad_guard_copy) {
  torch::nn::Linear lin(2, 2);
  {
    torch::NoGradGuard guard;
    lin->weight.copy_(ramp({2, 2}));
    lin->bias.fill_(0.5);
  }
  return lin->forward(ramp({1, 2}, torch::kFloat, 1.0, 3));
}

// ---------------------------------------------------------------------------------------------
// second pass: edges of the rules above (creation defaults, promotion in place, bool arithmetic,
// view aliasing, more index forms, module options)
DIFF_CASE(create_full_dtype_from_value) {
  return {torch::full({2}, true), torch::full({2}, 3), torch::full({2}, 2.5)};
}
DIFF_CASE(create_arange_float_rounding) {
  return {torch::arange(0.0, 1.0, 0.1), torch::arange(1, 2.5, 0.5), torch::arange(0, 10, 3)};
}
DIFF_CASE(create_arange_zero_step_errors) { return torch::arange(0, 5, 0); }
DIFF_CASE(create_linspace_eye) { return {torch::linspace(0, 1, 5), torch::eye(3), torch::eye(2, torch::kLong)}; }
DIFF_CASE(create_tensor_from_vectors) {
  std::vector<double> d = {0.5, -1.5, 2.0};
  std::vector<int64_t> l = {4, -2};
  return {torch::tensor(d), torch::tensor(l), torch::tensor({true, false, true})};
}
DIFF_CASE(create_randint_range) {
  torch::manual_seed(3);
  auto r = torch::randint(-2, 5, {64});
  return {torch::zeros_like(r), (r >= -2).all(), (r < 5).all()};
}
DIFF_CASE(promote_inplace_long_add_float_scalar_errors) {
  auto x = ramp({3}, torch::kLong);
  x.add_(1.5);
  return x;
}
DIFF_CASE(promote_inplace_float_add_long_tensor) {
  auto x = ramp({3});
  x.add_(ramp({3}, torch::kLong));
  return x;
}
DIFF_CASE(promote_where_int_with_float_scalar) { return torch::where(ramp({4}) > 0, ramp({4}, torch::kInt), 0.5); }
DIFF_CASE(promote_where_int_with_int_scalar) { return torch::where(ramp({4}) > 0, ramp({4}, torch::kInt), 0); }
DIFF_CASE(promote_masked_fill_int_with_float_value) { return ramp({5}, torch::kInt).masked_fill(ramp({5}) > 0, 2.5); }
DIFF_CASE(promote_clamp_int_float_bounds) { return ramp({5}, torch::kInt).clamp(-1.5, 2.5); }
DIFF_CASE(promote_prod_int32_is_long) { return ramp({4}, torch::kInt).prod(); }
DIFF_CASE(promote_sum_bool_dim) { return (ramp({2, 3}) > 0).sum(1); }
DIFF_CASE(promote_mean_bool_errors) { return (ramp({3}) > 0).mean(); }
DIFF_CASE(bool_sub_errors) { return ramp({3}, torch::kBool) - ramp({3}, torch::kBool); }
DIFF_CASE(bool_neg_errors) { return -ramp({3}, torch::kBool); }
DIFF_CASE(bitwise_not_float_errors) { return ~ramp({3}); }
DIFF_CASE(bitwise_int_and_or) {
  auto a = ramp({5}, torch::kLong);
  auto b = ramp({5}, torch::kLong, 1.0, 3);
  return {a & b, a | b, ~a};
}
DIFF_CASE(pow_int_negative_exponent_errors) { return ramp({3}, torch::kLong).pow(-1); }
DIFF_CASE(pow_tensor_exponent) { return torch::pow(positive({4}), ramp({4}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(view_of_expanded_errors) { return ramp({3, 1}).expand({3, 4}).view({-1}); }
DIFF_CASE(view_inplace_on_expanded_errors) {
  auto e = ramp({1, 3}).expand({2, 3});
  e.add_(1);
  return e;
}
DIFF_CASE(reshape_two_inferred_errors) { return ramp({2, 3}).reshape({-1, -1}); }
DIFF_CASE(permute_negative_dims) { return ramp({2, 3, 4}).permute({-1, 0, -2}).contiguous(); }
DIFF_CASE(narrow_negative_start) { return ramp({6}).narrow(0, -3, 2); }
DIFF_CASE(stack_last_dim) { return torch::stack({ramp({2, 2}), ramp({2, 2}, torch::kFloat, 0.5, 1)}, -1); }
DIFF_CASE(flatten_zero_dim) { return torch::tensor(3.0f).flatten(); }
DIFF_CASE(unbind_and_split_sizes) {
  auto x = ramp({3, 4});
  auto u = x.unbind(1);
  auto sp = x.split(std::vector<int64_t>{1, 3}, 1);
  std::vector<torch::Tensor> all(u.begin(), u.end());
  all.insert(all.end(), sp.begin(), sp.end());
  return all;
}
DIFF_CASE(split_sizes_mismatch_errors) { return ramp({5}).split(std::vector<int64_t>{2, 2})[0]; }
DIFF_CASE(bmm_basic) { return torch::bmm(ramp({2, 2, 3}), ramp({2, 3, 2}, torch::kFloat, 0.5, 1)); }
DIFF_CASE(square_and_isclose) {
  auto a = ramp({4});
  return {torch::square(a), torch::isclose(a, a + 1e-6), torch::isclose(ramp_nan({4}), ramp_nan({4}), 1e-5, 1e-8, true)};
}
DIFF_CASE(allclose_nan) {
  auto x = ramp_nan({4});
  return {S{torch::allclose(x, x) ? 1.0 : 0.0}, S{torch::allclose(x, x, 1e-5, 1e-8, true) ? 1.0 : 0.0}};
}
DIFF_CASE(where_one_argument) {
  auto parts = torch::where(ramp({2, 3}) > 0);
  return parts;
}
DIFF_CASE(index_bool_mask_dim1) {
  auto x = ramp({2, 4});
  return x.index({Slice(), ramp({4}) > 0});
}
DIFF_CASE(index_slice_negative_step_errors) { return ramp({4}).index({Slice(None, None, -1)}); }
DIFF_CASE(index_put_two_long_tensors) {
  auto x = torch::zeros({3, 3});
  x.index_put_({torch::tensor({int64_t{0}, int64_t{2}}), torch::tensor({int64_t{1}, int64_t{2}})}, 5.0);
  return x;
}
DIFF_CASE(index_put_bool_into_int) {
  auto x = ramp({6}, torch::kInt);
  x.index_put_({x < 0}, 0);
  return x;
}
DIFF_CASE(sort_descending_nan_first) {
  auto r = torch::sort(ramp_nan({8}), /*stable=*/true, 0, /*descending=*/true);
  return {std::get<0>(r), std::get<1>(r)};
}
DIFF_CASE(host_reads_cpu_and_data_ptr) {
  auto x = ramp({3}).cpu();
  auto y = x.to(torch::kCPU);
  const float* p = y.contiguous().data_ptr<float>();
  return {x, S{static_cast<double>(p[0] + p[2])}};
}
DIFF_CASE(data_ptr_wrong_type_errors) {
  auto x = ramp({3});
  return S{static_cast<double>(x.data_ptr<int64_t>()[0])};
}
DIFF_CASE(dropout_eval_identity) { return torch::dropout(ramp({5}), 0.5, /*train=*/false); }
DIFF_CASE(nn_linear_1d_input) {
  torch::nn::Linear lin(3, 2);
  fix_weights(*lin);
  return lin->forward(ramp({3}));
}
DIFF_CASE(nn_layer_norm_no_affine) {
  torch::nn::LayerNorm ln(torch::nn::LayerNormOptions({3}).elementwise_affine(false));
  return {ln->forward(ramp({2, 3})), S{static_cast<double>(ln->parameters().size())}};
}
DIFF_CASE(nn_lstm_no_bias) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(2, 3).bias(false));
  fix_weights(*lstm);
  auto r = lstm->forward(ramp({3, 1, 2}));
  return {std::get<0>(r), S{static_cast<double>(lstm->parameters().size())}};
}
DIFF_CASE(nn_lstm_wrong_input_size_errors) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(2, 3));
  return std::get<0>(lstm->forward(ramp({3, 1, 4})));
}
DIFF_CASE(nn_train_eval_flags) {
  torch::nn::Linear lin(2, 2);
  const bool before = lin->is_training();
  lin->eval();
  return {S{before ? 1.0 : 0.0}, S{lin->is_training() ? 1.0 : 0.0}};
}

namespace {
// A module that registers only tensors (no submodules), so it does not depend on
// register_module's return type.
struct ScaleShiftImpl : torch::nn::Module {
  ScaleShiftImpl() {
    scale = register_parameter("scale", torch::ones({3}));
    shift = register_buffer("shift", torch::full({3}, 0.5));
  }
  torch::Tensor forward(const torch::Tensor& x) { return x * scale + shift; }
  torch::Tensor scale, shift;
};
TORCH_MODULE(ScaleShift);
}  // namespace

DIFF_CASE(nn_custom_module_params_and_buffers) {
  ScaleShift m;
  fix_weights(*m, 1.0);
  return {m(ramp({2, 3})), S{static_cast<double>(m->parameters().size())},
          S{static_cast<double>(m->buffers().size())}};
}

// ---------------------------------------------------------------------------------------------
// third pass: the remaining names of the runtime's public API that LibTorch shares
DIFF_CASE(gelu_tanh_approximation) { return torch::gelu(ramp({7}), "tanh"); }
DIFF_CASE(max_min_binary) {
  auto a = ramp({5});
  auto b = ramp({5}, torch::kFloat, 0.5, 2);
  return {torch::max(a, b), torch::min(a, b)};
}
DIFF_CASE(broadcast_tensors_shapes) {
  auto r = torch::broadcast_tensors({ramp({3, 1}), ramp({4})});
  return {r[0].contiguous(), r[1].contiguous()};
}
DIFF_CASE(scalar_tensor_dtypes) {
  return {torch::scalar_tensor(2.5), torch::scalar_tensor(3), torch::scalar_tensor(true),
          torch::scalar_tensor(1, torch::kDouble)};
}
DIFF_CASE(as_variants) {
  auto x = ramp({2, 3});
  auto y = ramp({3, 2}, torch::kLong);
  return {x.view_as(y), x.reshape_as(y), ramp({1, 3}).expand_as(x), x.type_as(y), x.toType(torch::kDouble)};
}
DIFF_CASE(inplace_unary) {
  auto a = ramp({5});
  auto b = a.clone();
  auto c = a.clone();
  auto d = a.clone();
  auto e = a.clone();
  a.relu_();
  b.sigmoid_();
  c.tanh_();
  d.exp_();
  e.neg_();
  return {a, b, c, d, e};
}
DIFF_CASE(like_creation_dtypes) {
  auto x = ramp({2, 2}, torch::kInt);
  return {torch::empty_like(x).fill_(1), torch::zeros_like(x, torch::kDouble), torch::full_like(x, 2.7)};
}

// ---------------------------------------------------------------------------------------------
// fourth pass: what small LibTorch model programs use beyond the core ops — containers, activation
// modules, torch::nn::functional, losses, and common composite tensor functions.
namespace F = torch::nn::functional;

namespace {
/// Checksum of the keys of a named list (named_parameters, named_modules): the names are the API.
template <typename Dict>
double names_checksum(const Dict& dict) {
  double sum = 0;
  int64_t k = 1;
  for (const auto& item : dict) {
    for (char ch : item.key()) sum += static_cast<double>(ch) * static_cast<double>(k++ % 11 + 1);
    sum += 1000;
  }
  return sum;
}
}  // namespace

// containers
DIFF_CASE(nn_sequential_forward) {
  torch::nn::Sequential seq(torch::nn::Linear(4, 5), torch::nn::ReLU(), torch::nn::Linear(5, 3));
  fix_weights(*seq);
  auto x = ramp({2, 4});
  return {seq->forward(x), seq->forward<torch::Tensor>(x), S{static_cast<double>(seq->size())},
          S{static_cast<double>(seq->parameters().size())}};
}
DIFF_CASE(nn_sequential_push_back_and_names) {
  torch::nn::Sequential seq;
  seq->push_back(torch::nn::Linear(3, 4));
  seq->push_back("act", torch::nn::Tanh());
  seq->push_back(torch::nn::Linear(4, 2));
  fix_weights(*seq);
  return {seq->forward(ramp({2, 3})), S{names_checksum(seq->named_parameters())},
          S{seq->is_empty() ? 1.0 : 0.0}};
}
DIFF_CASE(nn_sequential_named_init) {
  torch::nn::Sequential seq({{"fc", torch::nn::Linear(3, 2)}, {"act", torch::nn::Sigmoid()}});
  fix_weights(*seq);
  return {seq->forward(ramp({4, 3})), S{names_checksum(seq->named_parameters())}};
}
DIFF_CASE(nn_sequential_index_access) {
  torch::nn::Sequential seq(torch::nn::Linear(3, 4), torch::nn::ReLU(), torch::nn::Linear(4, 2));
  fix_weights(*seq);
  auto first = seq[0]->as<torch::nn::Linear>();
  auto last = seq->ptr<torch::nn::LinearImpl>(2);
  auto& mid = seq->at<torch::nn::ReLUImpl>(1);
  return {first->weight, last->bias, mid.forward(ramp({3})), S{seq[1]->as<torch::nn::Linear>() == nullptr ? 1.0 : 0.0},
          S{static_cast<double>(seq->ptr(2)->parameters().size())}};
}
DIFF_CASE(nn_sequential_wrong_type_errors) {
  torch::nn::Sequential seq(torch::nn::Linear(3, 4), torch::nn::ReLU());
  return seq->ptr<torch::nn::LinearImpl>(1)->weight;
}
DIFF_CASE(nn_sequential_out_of_range_errors) {
  torch::nn::Sequential seq(torch::nn::Linear(3, 4));
  return seq->ptr(1)->parameters()[0];
}
DIFF_CASE(nn_sequential_empty_forward_errors) {
  torch::nn::Sequential seq;
  return seq->forward(ramp({2}));
}
DIFF_CASE(nn_sequential_iteration) {
  torch::nn::Sequential seq(torch::nn::Linear(3, 3), torch::nn::GELU(), torch::nn::Linear(3, 2));
  fix_weights(*seq);
  auto x = ramp({2, 3});
  double params = 0;
  for (auto& m : *seq) {
    x = m.forward(x);
    params += static_cast<double>(m.ptr()->parameters().size());
  }
  return {x, S{params}};
}
// (LibTorch cannot nest a Sequential in a Sequential: its forward is a template.)
DIFF_CASE(nn_sequential_extend) {
  torch::nn::Sequential inner(torch::nn::Linear(2, 3), torch::nn::Tanh());
  torch::nn::Sequential outer;
  outer->extend(*inner);
  outer->push_back("head", torch::nn::Linear(3, 2));
  outer->push_back(torch::nn::Sigmoid());
  fix_weights(*outer);
  return {outer->forward(ramp({4, 2})), S{static_cast<double>(outer->size())},
          S{names_checksum(outer->named_parameters())}};
}
DIFF_CASE(nn_sequential_module_value) {
  torch::nn::Sequential seq(torch::nn::LinearImpl(2, 2), torch::nn::ReLUImpl());
  fix_weights(*seq);
  return seq->forward(ramp({3, 2}));
}
DIFF_CASE(nn_sequential_eval_propagates) {
  torch::nn::Sequential seq(torch::nn::Linear(3, 3), torch::nn::Dropout(0.5), torch::nn::Linear(3, 1));
  fix_weights(*seq);
  seq->eval();
  return {seq->forward(ramp({4, 3})), S{seq->ptr(1)->is_training() ? 1.0 : 0.0}};
}
DIFF_CASE(nn_sequential_mlp_with_activation_modules) {
  torch::nn::Sequential seq(torch::nn::Flatten(), torch::nn::Linear(6, 8), torch::nn::GELU(),
                            torch::nn::Dropout(torch::nn::DropoutOptions().p(0.2)), torch::nn::Linear(8, 4),
                            torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
                            torch::nn::Identity(), torch::nn::Linear(4, 3), torch::nn::LogSoftmax(1));
  fix_weights(*seq, 0.3);
  seq->eval();
  return seq->forward(ramp({2, 2, 3}));
}

namespace {
struct SeqNetImpl : torch::nn::Module {
  SeqNetImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(4, 4), torch::nn::ReLU(),
                                                           torch::nn::Linear(4, 3)));
    heads = register_module("heads", torch::nn::ModuleList(torch::nn::Linear(3, 2), torch::nn::Linear(3, 1)));
    norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({3})));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = norm(body->forward(x));
    std::vector<torch::Tensor> outs;
    for (const auto& h : *heads) outs.push_back(h->as<torch::nn::Linear>()->forward(x));
    return torch::cat(outs, 1);
  }
  torch::nn::Sequential body{nullptr};
  torch::nn::ModuleList heads{nullptr};
  torch::nn::LayerNorm norm{nullptr};
};
TORCH_MODULE(SeqNet);
}  // namespace

DIFF_CASE(nn_registered_containers_dotted_names) {
  SeqNet net;
  fix_weights(*net, 0.2);
  return {net->forward(ramp({2, 4})), S{names_checksum(net->named_parameters())},
          S{static_cast<double>(net->parameters().size())}, S{names_checksum(net->named_modules())},
          S{static_cast<double>(net->modules().size())}};
}
DIFF_CASE(nn_module_apply_and_named_children) {
  SeqNet net;
  int64_t visited = 0;
  net->apply([&](torch::nn::Module& m) {
    ++visited;
    if (auto* lin = m.as<torch::nn::Linear>()) {
      torch::NoGradGuard g;
      lin->weight.fill_(0.1);
      lin->bias.fill_(-0.1);
    }
  });
  return {net->forward(ramp({1, 4})), S{static_cast<double>(visited)},
          S{static_cast<double>(net->named_children().size())}};
}
DIFF_CASE(nn_module_list) {
  torch::nn::ModuleList list(torch::nn::Linear(3, 3), torch::nn::Linear(3, 2));
  list->push_back(torch::nn::ReLU());
  fix_weights(*list);
  auto x = ramp({2, 3});
  for (size_t i = 0; i < list->size(); ++i) {
    if (auto lin = list->ptr<torch::nn::LinearImpl>(i)) x = lin->forward(x);
    else x = list[i]->as<torch::nn::ReLU>()->forward(x);
  }
  return {x, list->at<torch::nn::LinearImpl>(1).weight, S{static_cast<double>(list->size())},
          S{list->ptr<torch::nn::LinearImpl>(2) == nullptr ? 1.0 : 0.0}, S{names_checksum(list->named_parameters())}};
}
DIFF_CASE(nn_module_list_out_of_range_errors) {
  torch::nn::ModuleList list(torch::nn::Linear(3, 3));
  return list[3]->parameters()[0];
}

// activation modules
DIFF_CASE(nn_activation_modules) {
  auto x = ramp({2, 5});
  torch::nn::GELU gelu_tanh(torch::nn::GELUOptions().approximate("tanh"));
  return {torch::nn::ReLU()(x), torch::nn::GELU()(x), gelu_tanh(x), torch::nn::Sigmoid()(x), torch::nn::Tanh()(x),
          torch::nn::Softmax(1)(x), torch::nn::Softmax(torch::nn::SoftmaxOptions(0))(x),
          torch::nn::LogSoftmax(torch::nn::LogSoftmaxOptions(1))(x), torch::nn::Identity()(x),
          torch::nn::SiLU()(x), torch::nn::LeakyReLU()(x)};
}
DIFF_CASE(nn_relu_inplace_module) {
  auto x = ramp({5});
  torch::nn::ReLU relu(torch::nn::ReLUOptions().inplace(true));
  auto y = relu(x);
  return {x, y, S{relu->options.inplace() ? 1.0 : 0.0}};
}
DIFF_CASE(nn_flatten_module) {
  auto x = ramp({2, 3, 4});
  return {torch::nn::Flatten()(x), torch::nn::Flatten(torch::nn::FlattenOptions().start_dim(0).end_dim(1))(x)};
}
DIFF_CASE(nn_dropout_module) {
  torch::nn::Dropout drop(0.5);
  auto x = ramp({64}) + 10;  // no zeros in the input: a zero in the output was dropped
  auto y = drop(x);           // training mode: random mask, compare the invariants only
  auto kept_scaled = ((y == 0) | ((y - 2 * x).abs() < 1e-5)).all();
  drop->eval();
  return {torch::zeros_like(y), kept_scaled, drop(x), S{drop->options.p()}};
}
DIFF_CASE(nn_dropout_bad_p_errors) {
  torch::nn::Dropout drop(1.5);
  return drop(ramp({3}));
}

// torch::nn::functional
DIFF_CASE(functional_activations) {
  auto x = ramp({3, 4});
  return {F::relu(x), F::gelu(x), F::gelu(x, F::GELUFuncOptions().approximate("tanh")), F::silu(x),
          F::leaky_relu(x), F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.3)),
          F::softmax(x, F::SoftmaxFuncOptions(1)), F::softmax(x, 0), F::log_softmax(x, F::LogSoftmaxFuncOptions(-1)),
          F::softmax(x, F::SoftmaxFuncOptions(1).dtype(torch::kDouble))};
}
DIFF_CASE(functional_relu_inplace) {
  auto x = ramp({4});
  auto y = F::relu(x, F::ReLUFuncOptions().inplace(true));
  return {x, y};
}
DIFF_CASE(functional_linear_layer_norm) {
  auto x = ramp({2, 3});
  auto w = ramp({4, 3}, torch::kFloat, 0.25, 1);
  auto b = ramp({4}, torch::kFloat, 0.5, 2);
  auto lw = ramp({3}, torch::kFloat, 0.25, 3);
  auto lb = ramp({3}, torch::kFloat, 0.25, 5);
  return {F::linear(x, w, b), F::linear(x, w), F::layer_norm(x, F::LayerNormFuncOptions({3})),
          F::layer_norm(x, F::LayerNormFuncOptions({3}).weight(lw).bias(lb).eps(1e-3))};
}
DIFF_CASE(functional_dropout) {
  auto x = ramp({6}) + 10;
  auto y = F::dropout(x, F::DropoutFuncOptions().p(0.5));  // LibTorch's default: training
  return {F::dropout(x, F::DropoutFuncOptions().training(false)), torch::zeros_like(y),
          ((y == 0) | ((y - 2 * x).abs() < 1e-5)).all(), F::dropout(x, F::DropoutFuncOptions().p(0.0))};
}
DIFF_CASE(functional_dropout_bad_p_errors) { return F::dropout(ramp({3}), F::DropoutFuncOptions().p(-0.1)); }
DIFF_CASE(functional_embedding) {
  auto w = ramp({6, 3});
  auto ids = torch::tensor({int64_t{5}, int64_t{0}, int64_t{2}, int64_t{2}}).view({2, 2});
  return {F::embedding(ids, w), F::embedding(ids, w, F::EmbeddingFuncOptions().padding_idx(-1))};
}
DIFF_CASE(functional_embedding_bad_padding_errors) {
  return F::embedding(torch::tensor({int64_t{0}}), ramp({4, 2}), F::EmbeddingFuncOptions().padding_idx(4));
}
DIFF_CASE(functional_normalize) {
  auto x = ramp({3, 4});
  auto z = torch::zeros({2, 3});
  return {F::normalize(x), F::normalize(x, F::NormalizeFuncOptions().p(1).dim(-1)),
          F::normalize(x, F::NormalizeFuncOptions().dim(0)), F::normalize(z)};
}
DIFF_CASE(functional_one_hot) {
  auto l = torch::tensor({int64_t{2}, int64_t{0}, int64_t{3}});
  return {F::one_hot(l, 5), F::one_hot(l), F::one_hot(l.view({3, 1}), 4)};
}
DIFF_CASE(functional_one_hot_negative_errors) { return F::one_hot(torch::tensor({int64_t{-1}}), 3); }

// losses
namespace {
torch::Tensor class_targets() { return torch::tensor({int64_t{2}, int64_t{0}, int64_t{1}, int64_t{2}}); }
}  // namespace
DIFF_CASE(loss_mse) {
  auto a = ramp({3, 4});
  auto b = ramp({3, 4}, torch::kFloat, 0.5, 5);
  return {F::mse_loss(a, b), F::mse_loss(a, b, F::MSELossFuncOptions(torch::kSum)),
          F::mse_loss(a, b, F::MSELossFuncOptions().reduction(torch::kNone)),
          F::mse_loss(a, b, F::MSELossFuncOptions(torch::kMean))};
}
DIFF_CASE(loss_nll) {
  auto logp = torch::log_softmax(ramp({4, 3}), 1);
  auto t = class_targets();
  auto w = ramp({3}, torch::kFloat, 0.25, 1).abs() + 0.5;
  return {F::nll_loss(logp, t), F::nll_loss(logp, t, F::NLLLossFuncOptions().reduction(torch::kSum)),
          F::nll_loss(logp, t, F::NLLLossFuncOptions().reduction(torch::kNone)),
          F::nll_loss(logp, t, F::NLLLossFuncOptions().weight(w)),
          F::nll_loss(logp, t, F::NLLLossFuncOptions().ignore_index(2)),
          F::nll_loss(logp, t, F::NLLLossFuncOptions().ignore_index(0).weight(w).reduction(torch::kNone))};
}
DIFF_CASE(loss_nll_spatial) {
  auto logp = torch::log_softmax(ramp({2, 3, 2, 2}), 1);
  auto t = torch::tensor({int64_t{0}, int64_t{1}, int64_t{2}, int64_t{1}, int64_t{2}, int64_t{2}, int64_t{0},
                          int64_t{0}}).view({2, 2, 2});
  return {F::nll_loss(logp, t), F::nll_loss(logp, t, F::NLLLossFuncOptions().reduction(torch::kNone))};
}
DIFF_CASE(loss_nll_1d_input_errors) { return F::nll_loss(ramp({3}), torch::tensor({int64_t{0}})); }
DIFF_CASE(loss_nll_batch_mismatch_errors) { return F::nll_loss(ramp({4, 3}), torch::tensor({int64_t{0}})); }
DIFF_CASE(loss_cross_entropy) {
  auto logits = ramp({4, 3});
  auto t = class_targets();
  auto w = ramp({3}, torch::kFloat, 0.25, 1).abs() + 0.5;
  return {F::cross_entropy(logits, t), F::cross_entropy(logits, t, F::CrossEntropyFuncOptions().reduction(torch::kSum)),
          F::cross_entropy(logits, t, F::CrossEntropyFuncOptions().reduction(torch::kNone)),
          F::cross_entropy(logits, t, F::CrossEntropyFuncOptions().weight(w)),
          F::cross_entropy(logits, t, F::CrossEntropyFuncOptions().ignore_index(1))};
}
DIFF_CASE(loss_cross_entropy_label_smoothing) {
  auto logits = ramp({4, 3});
  auto t = class_targets();
  auto w = ramp({3}, torch::kFloat, 0.25, 1).abs() + 0.5;
  auto o = F::CrossEntropyFuncOptions().label_smoothing(0.1);
  return {F::cross_entropy(logits, t, o), F::cross_entropy(logits, t, F::CrossEntropyFuncOptions(o).reduction(torch::kSum)),
          F::cross_entropy(logits, t, F::CrossEntropyFuncOptions(o).reduction(torch::kNone)),
          F::cross_entropy(logits, t, F::CrossEntropyFuncOptions(o).ignore_index(2)),
          F::cross_entropy(logits, t, F::CrossEntropyFuncOptions(o).weight(w))};
}
DIFF_CASE(loss_cross_entropy_probabilities) {
  auto logits = ramp({2, 3});
  auto probs = torch::softmax(ramp({2, 3}, torch::kFloat, 0.5, 4), 1);
  return {F::cross_entropy(logits, probs),
          F::cross_entropy(logits, probs, F::CrossEntropyFuncOptions().reduction(torch::kNone)),
          F::cross_entropy(logits, probs, F::CrossEntropyFuncOptions().label_smoothing(0.2))};
}
DIFF_CASE(loss_cross_entropy_unbatched) {
  return F::cross_entropy(ramp({3}), torch::tensor(int64_t{1}));
}
DIFF_CASE(loss_modules) {
  auto logits = ramp({4, 3});
  auto t = class_targets();
  torch::nn::CrossEntropyLoss ce;
  torch::nn::NLLLoss nll(torch::nn::NLLLossOptions().reduction(torch::kSum));
  torch::nn::MSELoss mse(torch::nn::MSELossOptions(torch::kNone));
  return {ce(logits, t), nll(torch::log_softmax(logits, 1), t), mse(logits, ramp({4, 3}, torch::kFloat, 0.5, 2))};
}

// composite tensor functions
DIFF_CASE(stat_var_std) {
  auto x = ramp({3, 4});
  return {x.var(), x.std(), x.var(0), x.std(1), x.var({1}), x.var({1}, false, true), torch::var(x, {0}, false),
          x.std(std::vector<int64_t>{0, 1}), torch::std(x, {1}, true, true), torch::var(ramp({1})),
          ramp({2, 3}, torch::kDouble).std({1}), torch::var(x, 0), torch::std(x, 1), torch::var(x, false)};
}
DIFF_CASE(stat_var_mean_std_mean) {
  auto x = ramp({3, 4});
  auto [v, m] = torch::var_mean(x, {1});
  auto [s, m2] = torch::std_mean(x, {0}, false, true);
  auto [v3, m3] = torch::var_mean(x, 0);
  auto [s4, m4] = torch::std_mean(x);
  return {v, m, s, m2, v3, m3, s4, m4};
}
DIFF_CASE(stat_var_int_errors) { return ramp({4}, torch::kLong).var(); }
DIFF_CASE(stat_norm) {
  auto x = ramp({3, 4});
  const double inf = std::numeric_limits<double>::infinity();
  return {x.norm(), x.norm(1), x.norm(inf), x.norm(-inf), x.norm(0), x.norm(3), x.norm(2, 1), x.norm(1, {0}, true),
          torch::norm(x), torch::norm(x, 2, std::vector<int64_t>{0, 1})};
}
DIFF_CASE(stat_norm_int_errors) { return ramp({4}, torch::kLong).norm(); }
DIFF_CASE(stat_logsumexp) {
  auto x = ramp({3, 4});
  auto y = torch::full({2, 2}, -std::numeric_limits<double>::infinity());
  return {x.logsumexp(1), x.logsumexp(std::vector<int64_t>{0, 1}), torch::logsumexp(x, {0}, true), y.logsumexp(1),
          torch::logsumexp(ramp({4}, torch::kFloat, 100.0), 0)};
}
DIFF_CASE(shape_repeat) {
  auto x = ramp({2, 3});
  return {x.repeat({2, 1}), x.repeat({1, 2}), x.repeat({2, 1, 2}), x.repeat({0, 1}), ramp({3}, torch::kLong).repeat({2})};
}
DIFF_CASE(shape_repeat_too_few_dims_errors) { return ramp({2, 3}).repeat({2}); }
DIFF_CASE(shape_flip_roll) {
  auto x = ramp({3, 4});
  return {x.flip({0}), x.flip({0, 1}), torch::flip(x, {-1}), x.roll(1, 0), x.roll(-1, 1), x.roll({1, 2}, {0, 1}),
          x.roll(5), torch::roll(x, {3}, {1})};
}
DIFF_CASE(shape_flip_duplicate_dims_errors) { return ramp({3, 4}).flip({0, 0}); }
DIFF_CASE(shape_roll_mismatch_errors) { return ramp({3, 4}).roll({1, 2}, {0}); }
DIFF_CASE(shape_tril_triu) {
  auto x = ramp({3, 4});
  return {x.tril(), x.triu(), x.tril(1), x.triu(-1), torch::tril(x, -2), torch::triu(x, 2), ramp({2, 2, 3}).tril(),
          torch::ones({3, 3}, torch::kBool).triu(1), ramp({3, 3}, torch::kLong).tril()};
}
DIFF_CASE(shape_tril_1d_errors) { return ramp({3}).tril(); }
DIFF_CASE(elementwise_reciprocal_sign) {
  auto x = ramp({7});
  auto n = ramp_nan({8});
  return {x.reciprocal(), torch::reciprocal(ramp({5}, torch::kLong)), x.sign(), torch::sign(ramp({5}, torch::kLong)),
          n.sign()};
}
DIFF_CASE(elementwise_rounding) {
  auto x = ramp({13}, torch::kFloat, 0.75);  // quarter steps: exact halves and quarters, both signs
  auto n = ramp_nan({8});
  const float inf = std::numeric_limits<float>::infinity();
  auto big = torch::tensor({1e20f, -3e9f, 2.5f, -2.5f, 0.5f, -0.5f, 1.5f, inf, -inf});
  return {x.floor(), x.ceil(), x.round(), x.trunc(), torch::floor(n), torch::round(n), big.floor(), big.ceil(),
          big.round(), big.trunc(), ramp({3}, torch::kDouble, 1.25).round(), torch::floor(ramp({4}, torch::kLong))};
}
DIFF_CASE(elementwise_isinf_isfinite_xor) {
  const float inf = std::numeric_limits<float>::infinity();
  auto x = torch::tensor({1.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 0.0f});
  auto m = ramp({4}) > 0;
  auto n = ramp({4}, torch::kFloat, 0.5, 1) > 0;
  return {x.isinf(), x.isfinite(), torch::isinf(ramp({3}, torch::kLong)), torch::isfinite(ramp({3}, torch::kLong)),
          m.logical_xor(n), torch::logical_xor(ramp({4}), ramp({4}, torch::kFloat, 0.5, 2))};
}
DIFF_CASE(elementwise_signbit_isposinf_isneginf) {
  auto x = specials();  // NaN, +-inf, +-0: signbit(-0.0) is true, signbit(NaN) false
  auto i = ramp({5}, torch::kInt);
  auto u = torch::tensor({0, 7, 255}, torch::kByte);
  auto b = ramp({4}) > 0;
  auto t = ramp({3, 4}, torch::kDouble, 0.5).t();
  return {torch::signbit(x),  x.signbit(),         torch::isposinf(x), x.isneginf(),       torch::isneginf(-x),
          torch::signbit(i),  i.isposinf(),        torch::signbit(u),  torch::isneginf(u), torch::signbit(b),
          b.isposinf(),       t.signbit(),         (t / 0).isposinf(), torch::isneginf(t.log())};
}
DIFF_CASE(elementwise_sinc) {
  auto x = ramp({9}, torch::kFloat, 0.25);  // quarter steps: 1 at 0, about 0 at the integers
  auto d = ramp({5}, torch::kDouble, 0.3).requires_grad_();
  torch::sinc(d).sum().backward();
  return {torch::sinc(x), x.sinc(), torch::sinc(specials()), torch::sinc(ramp({5}, torch::kLong)),
          torch::sinc(ramp({3, 4}).t()), torch::sinc(x * 40), d.grad()};
}
DIFF_CASE(linalg_dot_mv_outer) {
  auto a = ramp({3});
  auto b = ramp({3}, torch::kFloat, 0.5, 2);
  return {torch::dot(a, b), a.dot(b), torch::mv(ramp({2, 3}), a), ramp({2, 3}).mv(b), torch::outer(a, b),
          a.outer(ramp({2}, torch::kLong))};
}
DIFF_CASE(linalg_dot_dtype_mismatch_errors) { return torch::dot(ramp({3}), ramp({3}, torch::kDouble)); }
DIFF_CASE(tensor_new_and_misc_methods) {
  auto x = ramp({2, 3}, torch::kDouble);
  auto v = x.sizes().vec();
  return {x.new_zeros({2}), x.new_ones({1, 2}), x.new_full({3}, 2), x.new_empty({0, 2}), x.new_zeros({2}, torch::kLong),
          x.clip(-1, 1), x.to(ramp({1}, torch::kInt)), S{x.is_same_size(ramp({2, 3})) ? 1.0 : 0.0},
          S{static_cast<double>(v.size() * 10 + v[1])}};
}
DIFF_CASE(tensor_reduction_forms) {
  auto x = ramp({3, 4});
  return {torch::argmax(x), torch::argmax(x, 1), torch::argmax(x, 0, true), torch::argmin(x, 1), x.max(), x.min(),
          std::get<0>(torch::max(x, 1, true)), std::get<1>(x.min(0))};
}
DIFF_CASE(tensor_stream_output) {
  std::ostringstream os;
  os << ramp({2, 2});
  return S{os.str().empty() ? 0.0 : 1.0};
}

int main(int argc, char** argv) {
#ifdef GRAPHIFY_TORCH_COMPAT
  const char* side = "graphify";
#else
  // One intra-op thread so that reductions sum in a fixed order run to run.
  torch::set_num_threads(1);
  const char* side = "libtorch";
#endif
  return diff::dump_main(argc, argv, side);
}

// --- in-place shape changes, torch::nn::init ---------------------------------------------------

DIFF_CASE(view_squeeze_unsqueeze_inplace) {
  auto x = ramp({2, 1, 3});
  auto alias = x;  // the same tensor: in-place metadata changes are seen through every handle
  x.squeeze_(1);
  auto a = alias.sizes().vec();
  x.unsqueeze_(0);
  x.unsqueeze_(-1);
  auto b = alias.sizes().vec();
  x.squeeze_();
  return torch::cat({torch::tensor(a), torch::tensor(b), torch::tensor(alias.sizes().vec()),
                     alias.flatten().to(torch::kLong)});
}
DIFF_CASE(view_squeeze_inplace_bad_dim_errors) { return ramp({2, 3}).squeeze_(2); }

DIFF_CASE(init_deterministic) {
  auto w = torch::empty({3, 4});
  torch::nn::init::constant_(w, 0.25);
  auto z = torch::nn::init::zeros_(torch::empty({2}));
  auto o = torch::nn::init::ones_(torch::empty({2}, torch::kDouble)).to(torch::kFloat);
  auto e = torch::nn::init::eye_(torch::empty({3, 4}));
  return torch::cat({w.flatten(), z, o, e.flatten()});
}
DIFF_CASE(init_gains_and_fans) {
  auto [fi, fo] = torch::nn::init::_calculate_fan_in_and_fan_out(torch::empty({5, 3, 2, 2}));
  return torch::tensor({torch::nn::init::calculate_gain(torch::kLinear), torch::nn::init::calculate_gain(torch::kTanh),
                        torch::nn::init::calculate_gain(torch::kReLU), torch::nn::init::calculate_gain(torch::kSigmoid),
                        torch::nn::init::calculate_gain(torch::kLeakyReLU, 0.2), static_cast<double>(fi),
                        static_cast<double>(fo)},
                       torch::kDouble);
}
DIFF_CASE(init_random_bounds) {
  // The draws differ between libraries; their bounds must not: every |w| <= the Glorot/He bound.
  auto w = torch::empty({64, 32});
  const double glorot = std::sqrt(6.0 / (64 + 32));
  auto a = (torch::nn::init::xavier_uniform_(w).abs() <= glorot + 1e-6).all();
  const double he = std::sqrt(3.0) * std::sqrt(2.0) / std::sqrt(32.0);
  auto b = (torch::nn::init::kaiming_uniform_(w, 0, torch::kFanIn, torch::kReLU).abs() <= he + 1e-6).all();
  auto c = (torch::nn::init::kaiming_uniform_(w, std::sqrt(5.0)).abs() <= 1.0 / std::sqrt(32.0) + 1e-6).all();
  return torch::stack({a, b, c});
}
DIFF_CASE(init_fan_of_vector_errors) { return torch::nn::init::xavier_uniform_(torch::empty({4})); }
DIFF_CASE(create_randperm_is_a_permutation) {
  auto p = torch::randperm(7);
  return torch::cat({std::get<0>(torch::sort(p)), torch::tensor({p.size(0)}), torch::tensor({static_cast<int64_t>(p.scalar_type() == torch::kLong)})});
}

// ---------------------------------------------------------------------------------------------
// vision: convolution, batch norm, pooling, interpolation, more activations, channel dropout,
// and a small ResNet built from them (issue #17). Inputs are the ramp formula; weights come from
// fix_weights, so both libraries compute the same function.
namespace {
/// Sets every buffer (running_mean, running_var; num_batches_tracked is left alone) from the
/// formula, positive for variances, so that eval-mode batch norm has non-trivial statistics.
void fix_buffers(torch::nn::Module& m) {
  torch::NoGradGuard no_grad;
  for (auto& b : m.named_buffers()) {
    auto& t = b.value();
    if (t.scalar_type() != torch::kFloat) continue;
    const bool variance = b.key().find("running_var") != std::string::npos;
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < t.dim(); ++d) shape.push_back(t.size(d));
    auto v = ramp(shape, torch::kFloat, 0.1, static_cast<int64_t>(b.key().size()));
    t.copy_(variance ? v.abs() + 0.5 : v);
  }
}
}  // namespace

DIFF_CASE(dtype_short_aliases) {
  return {torch::ones({2}, torch::kF32), torch::ones({2}, torch::kF64), torch::ones({2}, torch::kI32),
          torch::ones({2}, torch::kI64)};
}

// conv
DIFF_CASE(conv2d_basic) {
  return torch::conv2d(ramp({2, 3, 5, 6}), ramp({4, 3, 3, 3}, torch::kFloat, 0.1, 1), ramp({4}, torch::kFloat, 0.1, 2));
}
DIFF_CASE(conv2d_stride_padding_dilation) {
  return torch::conv2d(ramp({2, 3, 9, 8}), ramp({4, 3, 3, 2}, torch::kFloat, 0.1, 1), ramp({4}, torch::kFloat, 0.1, 2),
                       {2, 1}, {1, 2}, {2, 1});
}
DIFF_CASE(conv2d_groups) {
  return torch::conv2d(ramp({1, 4, 7, 6}), ramp({6, 2, 3, 3}, torch::kFloat, 0.1, 3), {}, 2, 1, 1, 2);
}
DIFF_CASE(conv2d_depthwise_f64) {
  return torch::conv2d(ramp({2, 3, 5, 5}, torch::kDouble), ramp({3, 1, 3, 3}, torch::kDouble, 0.1, 4),
                       ramp({3}, torch::kDouble, 0.1), 1, 1, 1, 3);
}
DIFF_CASE(conv2d_pointwise_and_unbatched) {
  return {torch::conv2d(ramp({2, 5, 3, 4}), ramp({3, 5, 1, 1}, torch::kFloat, 0.1, 5)),
          torch::conv2d(ramp({3, 5, 6}), ramp({2, 3, 2, 2}, torch::kFloat, 0.1, 6), ramp({2}), 2)};
}
DIFF_CASE(conv2d_padding_same_valid) {
  auto x = ramp({1, 2, 6, 5});
  auto w = ramp({3, 2, 2, 4}, torch::kFloat, 0.1, 7);  // even kernel: "same" pads the far side more
  return {torch::conv2d(x, w, {}, 1, "same", {1, 2}), torch::conv2d(x, w, {}, 1, "valid"),
          torch::conv1d(ramp({2, 7}), ramp({3, 2, 4}, torch::kFloat, 0.1), {}, 1, "same")};
}
DIFF_CASE(conv1d_variants) {
  auto x = ramp({2, 4, 11});
  return {torch::conv1d(x, ramp({3, 4, 3}, torch::kFloat, 0.1, 1), ramp({3}, torch::kFloat, 0.1)),
          torch::conv1d(x, ramp({6, 2, 2}, torch::kFloat, 0.1, 2), {}, 2, 1, 3, 2),
          torch::conv1d(ramp({4, 9}), ramp({2, 4, 3}, torch::kFloat, 0.1, 3))};
}
DIFF_CASE(nn_conv2d_module) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 4, 3).stride(2).padding(1));
  fix_weights(*conv);
  auto y = conv(ramp({2, 3, 7, 6}));
  return {y, S{static_cast<double>(conv->parameters().size())}, S{names_checksum(conv->named_parameters())},
          torch::tensor(conv->weight.sizes().vec())};
}
DIFF_CASE(nn_conv2d_options_groups_no_bias) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(4, 6, {3, 2}).groups(2).bias(false).dilation({1, 2}).padding(
      torch::ExpandingArray<2>({1, 0})));
  fix_weights(*conv);
  return {conv->forward(ramp({1, 4, 6, 7})), S{static_cast<double>(conv->parameters().size())},
          torch::tensor(conv->weight.sizes().vec())};
}
DIFF_CASE(nn_conv2d_padding_same) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(2, 3, 4).padding(torch::kSame));
  fix_weights(*conv);
  return conv(ramp({1, 2, 5, 6}));
}
DIFF_CASE(nn_conv1d_module) {
  torch::nn::Conv1d conv(torch::nn::Conv1dOptions(3, 2, 3).stride(2).padding(1));
  fix_weights(*conv);
  return {conv(ramp({2, 3, 8})), conv(ramp({3, 5}))};
}
DIFF_CASE(nn_conv_init_bounds) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 8, 3));
  const double bound = 1.0 / std::sqrt(3.0 * 3 * 3);
  const double w = conv->weight.abs().max().item<double>(), b = conv->bias.abs().max().item<double>();
  return {S{w <= bound + 1e-7 ? 1.0 : 0.0}, S{w > bound / 2 ? 1.0 : 0.0}, S{b <= bound + 1e-7 ? 1.0 : 0.0}};
}
DIFF_CASE(F_conv2d_options) {
  auto x = ramp({1, 2, 5, 5});
  auto w = ramp({4, 2, 3, 3}, torch::kFloat, 0.1, 2);
  return {F::conv2d(x, w, F::Conv2dFuncOptions().bias(ramp({4})).stride(2).padding(1)),
          F::conv2d(x, w, F::Conv2dFuncOptions().padding(torch::kSame)),
          F::conv1d(ramp({2, 6}), ramp({3, 2, 2}, torch::kFloat, 0.1), F::Conv1dFuncOptions().dilation(2))};
}
DIFF_CASE(conv2d_wrong_channels_errors) { return torch::conv2d(ramp({1, 3, 5, 5}), ramp({4, 2, 3, 3})); }
DIFF_CASE(conv2d_kernel_larger_than_padded_input_errors) {
  return torch::conv2d(ramp({1, 3, 4, 4}), ramp({2, 3, 7, 7}), {}, 1, 1);
}
DIFF_CASE(conv2d_bias_size_errors) { return torch::conv2d(ramp({1, 3, 5, 5}), ramp({4, 3, 3, 3}), ramp({3})); }
DIFF_CASE(conv2d_integer) {
  return {torch::conv2d(ramp({1, 2, 4, 3}, torch::kLong), ramp({3, 2, 2, 2}, torch::kLong), ramp({3}, torch::kLong), 1, 1),
          torch::conv1d(ramp({2, 5}, torch::kInt), ramp({1, 2, 3}, torch::kInt))};
}
DIFF_CASE(conv2d_bool_errors) { return torch::conv2d(ramp({1, 1, 3, 3}, torch::kBool), ramp({1, 1, 2, 2}, torch::kBool)); }
DIFF_CASE(conv2d_2d_input_errors) { return torch::conv2d(ramp({5, 5}), ramp({1, 1, 2, 2})); }
DIFF_CASE(conv2d_dtype_mismatch_errors) { return torch::conv2d(ramp({1, 1, 3, 3}), ramp({1, 1, 2, 2}, torch::kDouble)); }
DIFF_CASE(conv2d_same_strided_errors) { return torch::conv2d(ramp({1, 1, 5, 5}), ramp({1, 1, 3, 3}), {}, 2, "same"); }
DIFF_CASE(conv2d_negative_padding_errors) { return torch::conv2d(ramp({1, 1, 5, 5}), ramp({1, 1, 3, 3}), {}, 1, -1); }
DIFF_CASE(conv2d_groups_not_dividing_weight_errors) {
  return torch::conv2d(ramp({1, 4, 5, 5}), ramp({3, 2, 3, 3}), {}, 1, 1, 1, 2);
}
DIFF_CASE(nn_conv2d_groups_not_dividing_channels_errors) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 4, 3).groups(2));
  return conv->weight;
}
DIFF_CASE(nn_conv2d_wrong_input_channels_errors) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 4, 3));
  return conv(ramp({1, 2, 5, 5}));
}

// batch norm
DIFF_CASE(batch_norm_eval) {
  auto x = ramp({2, 3, 4, 5});
  auto mean = ramp({3}, torch::kFloat, 0.1, 1), var = positive({3}, 2);
  return {torch::batch_norm(x, ramp({3}, torch::kFloat, 0.2, 3), ramp({3}, torch::kFloat, 0.3, 4), mean, var, false,
                            0.1, 1e-5, false),
          torch::batch_norm(x.view({2, 3, 20}), {}, {}, mean, var, false, 0.1, 1e-3, false)};
}
DIFF_CASE(batch_norm_training_updates_running_stats) {
  auto x = ramp({4, 3, 5}, torch::kFloat, 0.5, 2);
  auto rm = torch::zeros({3}), rv = torch::ones({3});
  auto y = torch::batch_norm(x, ramp({3}), {}, rm, rv, true, 0.3, 1e-5, false);
  return {y, rm, rv};
}
DIFF_CASE(batch_norm_2d_input_f64) {
  auto x = ramp({5, 4}, torch::kDouble);
  auto rm = torch::zeros({4}, torch::kDouble), rv = torch::ones({4}, torch::kDouble);
  auto y = torch::batch_norm(x, {}, {}, rm, rv, true, 0.1, 1e-5, false);
  return {y, rm, rv};
}
DIFF_CASE(F_batch_norm_options) {
  auto x = ramp({3, 2, 4});
  auto rm = ramp({2}, torch::kFloat, 0.1), rv = positive({2});
  auto eval = F::batch_norm(x, rm, rv, F::BatchNormFuncOptions().weight(ramp({2}, torch::kFloat, 0.5, 1)).eps(1e-3));
  auto train = F::batch_norm(x, rm, rv, F::BatchNormFuncOptions().training(true).momentum(0.5));
  return {eval, train, rm, rv};
}
DIFF_CASE(nn_batchnorm2d_train_then_eval) {
  torch::nn::BatchNorm2d bn(torch::nn::BatchNorm2dOptions(3).momentum(0.2));
  fix_weights(*bn);
  auto x = ramp({2, 3, 3, 4});
  auto train1 = bn(x);
  auto train2 = bn(ramp({2, 3, 3, 4}, torch::kFloat, 0.5, 5));
  bn->eval();
  auto eval = bn(x);
  return {train1, train2, eval, bn->running_mean, bn->running_var, bn->num_batches_tracked,
          S{static_cast<double>(bn->parameters().size())}, S{names_checksum(bn->named_buffers())}};
}
DIFF_CASE(nn_batchnorm1d_inputs) {
  torch::nn::BatchNorm1d bn(4);
  fix_weights(*bn);
  auto a = bn(ramp({3, 4}));
  auto b = bn(ramp({2, 4, 5}, torch::kFloat, 0.5, 1));
  bn->eval();
  return {a, b, bn(ramp({2, 4})), bn->running_mean, bn->running_var};
}
DIFF_CASE(nn_batchnorm_cumulative_average) {
  torch::nn::BatchNorm1d bn(torch::nn::BatchNorm1dOptions(2).momentum(c10::nullopt).affine(false));
  bn(ramp({3, 2}));
  bn(ramp({4, 2}, torch::kFloat, 0.5, 3));
  return {bn->running_mean, bn->running_var, S{static_cast<double>(bn->parameters().size())}};
}
DIFF_CASE(nn_batchnorm_untracked_uses_batch_stats) {
  torch::nn::BatchNorm2d bn(torch::nn::BatchNorm2dOptions(2).track_running_stats(false));
  bn->eval();
  return {bn(ramp({2, 2, 2, 3})), S{static_cast<double>(bn->buffers().size())}};
}
DIFF_CASE(nn_batchnorm2d_3d_input_errors) {
  torch::nn::BatchNorm2d bn(3);
  return bn(ramp({3, 4, 5}));
}
DIFF_CASE(nn_batchnorm1d_4d_input_errors) {
  torch::nn::BatchNorm1d bn(3);
  return bn(ramp({2, 3, 4, 5}));
}
DIFF_CASE(batch_norm_channel_mismatch_errors) {
  torch::nn::BatchNorm2d bn(3);
  return bn(ramp({2, 4, 3, 3}));
}
DIFF_CASE(batch_norm_single_value_training_errors) {
  torch::nn::BatchNorm1d bn(3);
  return bn(ramp({1, 3}));
}
DIFF_CASE(batch_norm_eval_without_running_stats_errors) {
  return torch::batch_norm(ramp({2, 3}), {}, {}, {}, {}, false, 0.1, 1e-5, false);
}

// pooling
DIFF_CASE(max_pool2d_variants) {
  auto x = ramp({2, 3, 9, 8});
  return {torch::max_pool2d(x, 2), torch::max_pool2d(x, {3, 2}, {2, 1}, {1, 1}),
          torch::max_pool2d(x, 3, 2, 1, 2), torch::max_pool2d(x, 3, 2, 0, 1, true), torch::max_pool2d(x[0], 2)};
}
DIFF_CASE(max_pool2d_nan_and_indices) {
  auto x = ramp_nan({1, 2, 6, 5});
  auto r = torch::max_pool2d_with_indices(x, 2, 2, 1, 1, true);
  auto q = torch::max_pool2d_with_indices(ramp({1, 2, 6, 5}), {3, 2}, {2, 2}, {1, 1});
  return {std::get<0>(r), std::get<1>(r), std::get<0>(q), std::get<1>(q)};
}
DIFF_CASE(avg_pool2d_variants) {
  auto x = ramp({2, 3, 7, 8});
  return {torch::avg_pool2d(x, 2), torch::avg_pool2d(x, 3, 2, 1),
          torch::avg_pool2d(x, 3, 2, 1, false, false), torch::avg_pool2d(x, 3, 2, 1, true, true),
          torch::avg_pool2d(x, 3, 2, 1, true, false), torch::avg_pool2d(x, {2, 3}, 1, 0, false, true, 4),
          torch::avg_pool2d(x[1], 2)};
}
DIFF_CASE(adaptive_pool2d_variants) {
  auto x = ramp({2, 3, 9, 7});
  auto m = torch::adaptive_max_pool2d(ramp_nan({1, 2, 7, 5}), {3, 2});
  return {torch::adaptive_avg_pool2d(x, {4, 3}), torch::adaptive_avg_pool2d(x, {1, 1}),
          torch::adaptive_avg_pool2d(x, {9, 14}), std::get<0>(m), std::get<1>(m),
          std::get<1>(torch::adaptive_max_pool2d(x[0], {2, 5}))};
}
DIFF_CASE(pool1d_variants) {
  auto x = ramp({2, 3, 11});
  auto am = torch::adaptive_max_pool1d(x, 4);
  return {torch::max_pool1d(x, 3), torch::max_pool1d(x, 3, 2, 1, 1, true), torch::avg_pool1d(x, 3, 2, 1),
          torch::avg_pool1d(x, 4, 3, 2, true, false), torch::adaptive_avg_pool1d(x, 4), std::get<0>(am),
          std::get<1>(am), torch::max_pool1d(x[0], 2)};
}
DIFF_CASE(nn_pool_modules) {
  auto x = ramp({2, 3, 8, 7});
  torch::nn::MaxPool2d mp(torch::nn::MaxPool2dOptions(3).stride(2).padding(1));
  torch::nn::AvgPool2d ap(torch::nn::AvgPool2dOptions({2, 3}).stride(2).ceil_mode(true).count_include_pad(false));
  torch::nn::AdaptiveAvgPool2d gap(torch::nn::AdaptiveAvgPool2dOptions({1, 1}));
  torch::nn::AdaptiveMaxPool2d amp(torch::nn::AdaptiveMaxPool2dOptions({c10::nullopt, 2}));
  torch::nn::MaxPool1d mp1(torch::nn::MaxPool1dOptions(2));
  torch::nn::AvgPool1d ap1(torch::nn::AvgPool1dOptions(3).stride(1));
  torch::nn::AdaptiveAvgPool1d gap1(torch::nn::AdaptiveAvgPool1dOptions(2));
  torch::nn::AdaptiveMaxPool1d amp1(torch::nn::AdaptiveMaxPool1dOptions(3));
  auto seq = x.flatten(2);
  return {mp(x), ap(x), gap(x), amp(x), std::get<1>(amp->forward_with_indices(x)), std::get<1>(mp->forward_with_indices(x)),
          mp1(seq), ap1(seq), gap1(seq), amp1(seq)};
}
DIFF_CASE(F_pool_options) {
  auto x = ramp({1, 2, 6, 6});
  return {F::max_pool2d(x, F::MaxPool2dFuncOptions(2).stride(1).dilation(2)),
          F::avg_pool2d(x, F::AvgPool2dFuncOptions(3).padding(1).divisor_override(2)),
          F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions({2, c10::nullopt})),
          F::adaptive_max_pool2d(x, F::AdaptiveMaxPool2dFuncOptions(3)),
          std::get<1>(F::max_pool2d_with_indices(x, F::MaxPool2dFuncOptions(3).stride(2).ceil_mode(true))),
          F::max_pool1d(x.flatten(2), F::MaxPool1dFuncOptions(4)), F::avg_pool1d(x.flatten(2), F::AvgPool1dFuncOptions(5))};
}
DIFF_CASE(max_pool2d_pad_too_large_errors) { return torch::max_pool2d(ramp({1, 1, 6, 6}), 2, 2, 2); }
DIFF_CASE(max_pool2d_output_too_small_errors) { return torch::max_pool2d(ramp({1, 1, 3, 3}), 4); }
DIFF_CASE(max_pool2d_2d_input_errors) { return torch::max_pool2d(ramp({6, 6}), 2); }
DIFF_CASE(avg_pool2d_zero_divisor_errors) { return torch::avg_pool2d(ramp({1, 1, 4, 4}), 2, 2, 0, false, true, 0); }
DIFF_CASE(adaptive_avg_pool2d_5d_input_errors) { return torch::adaptive_avg_pool2d(ramp({1, 1, 2, 4, 4}), {2, 2}); }
DIFF_CASE(adaptive_max_pool2d_empty_dim_errors) {
  return std::get<0>(torch::adaptive_max_pool2d(torch::zeros({1, 0, 4, 4}), {2, 2}));
}
DIFF_CASE(max_pool2d_int_errors) { return torch::max_pool2d(ramp({1, 1, 4, 4}, torch::kLong), 2); }

// interpolation
DIFF_CASE(interpolate_nearest) {
  auto x = ramp({1, 2, 3, 4});
  return {F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2, 2})),
          F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{7, 5})),
          F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{1.5, 2.5})),
          F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{1.5, 2.5}).recompute_scale_factor(true)),
          F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{2, 3})),
          F::interpolate(ramp({2, 3, 5}), F::InterpolateFuncOptions().size(std::vector<int64_t>{8}).mode(torch::kNearest))};
}
DIFF_CASE(interpolate_bilinear) {
  auto x = ramp({2, 2, 4, 3});
  auto opts = [] { return F::InterpolateFuncOptions().mode(torch::kBilinear); };
  return {F::interpolate(x, opts().size(std::vector<int64_t>{7, 5}).align_corners(false)),
          F::interpolate(x, opts().size(std::vector<int64_t>{7, 5}).align_corners(true)),
          F::interpolate(x, opts().scale_factor(std::vector<double>{1.7, 2}).align_corners(false)),
          F::interpolate(x, opts().size(std::vector<int64_t>{2, 2}).align_corners(false)),
          F::interpolate(x, opts().size(std::vector<int64_t>{1, 1}).align_corners(true)),
          F::interpolate(ramp({1, 2, 5}), F::InterpolateFuncOptions().size(std::vector<int64_t>{9}).mode(torch::kLinear).align_corners(false)),
          F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{2, 2}).mode(torch::kArea))};
}
DIFF_CASE(interpolate_f64) {
  return F::interpolate(ramp({1, 1, 3, 3}, torch::kDouble),
                        F::InterpolateFuncOptions().scale_factor(std::vector<double>{2, 2}).mode(torch::kBilinear).align_corners(false));
}
DIFF_CASE(nn_upsample_module) {
  auto x = ramp({1, 2, 3, 3});
  torch::nn::Upsample nearest(torch::nn::UpsampleOptions().scale_factor(std::vector<double>{2, 2}));
  torch::nn::Upsample bilinear(
      torch::nn::UpsampleOptions().size(std::vector<int64_t>{5, 6}).mode(torch::kBilinear).align_corners(true));
  return {nearest(x), bilinear(x)};
}
DIFF_CASE(interpolate_size_and_scale_errors) {
  return F::interpolate(ramp({1, 1, 2, 2}), F::InterpolateFuncOptions()
                                                .size(std::vector<int64_t>{4, 4})
                                                .scale_factor(std::vector<double>{2, 2}));
}
DIFF_CASE(interpolate_align_corners_with_nearest_errors) {
  return F::interpolate(ramp({1, 1, 2, 2}), F::InterpolateFuncOptions().size(std::vector<int64_t>{4, 4}).align_corners(true));
}
DIFF_CASE(interpolate_bilinear_3d_errors) {
  return F::interpolate(ramp({1, 2, 4}), F::InterpolateFuncOptions().size(std::vector<int64_t>{8}).mode(torch::kBilinear).align_corners(false));
}
DIFF_CASE(interpolate_wrong_scale_count_errors) {
  return F::interpolate(ramp({1, 1, 2, 2}), F::InterpolateFuncOptions().scale_factor(std::vector<double>{2}));
}

// activations
DIFF_CASE(activations_vision) {
  auto x = ramp_nan({3, 7}) * 4;
  auto big = ramp({2, 5}, torch::kFloat, 8.0);
  return {torch::softplus(x), torch::softplus(x, 2, 5), torch::softplus(big), torch::elu(x), torch::elu(x, 0.5),
          torch::hardswish(x), torch::mish(x), torch::mish(big), torch::leaky_relu(x, 0.2),
          torch::elu(ramp({4}, torch::kDouble), 1.5)};
}
DIFF_CASE(F_activations_vision) {
  auto x = ramp({2, 6}) * 2;
  return {F::elu(x, F::ELUFuncOptions().alpha(0.7)), F::softplus(x, F::SoftplusFuncOptions().beta(3).threshold(2)),
          F::mish(x)};
}
DIFF_CASE(nn_activation_modules_vision) {
  auto x = ramp({3, 4}) * 2;
  torch::nn::ELU elu(torch::nn::ELUOptions().alpha(2));
  torch::nn::Softplus softplus(torch::nn::SoftplusOptions().beta(0.5));
  torch::nn::Mish mish;
  torch::nn::LeakyReLU leaky(torch::nn::LeakyReLUOptions().negative_slope(0.1));
  auto y = x.clone();
  torch::nn::ELU(torch::nn::ELUOptions().inplace(true))(y);
  return {elu(x), softplus(x), mish(x), leaky(x), y};
}
DIFF_CASE(softplus_int_errors) { return torch::softplus(ramp({3}, torch::kLong)); }
DIFF_CASE(elu_int_errors) { return torch::elu(ramp({3}, torch::kInt)); }

// channel dropout: eval is the identity, p = 0 and p = 1 are deterministic in training
DIFF_CASE(dropout2d_deterministic) {
  auto x = ramp({2, 3, 2, 2});
  torch::nn::Dropout2d drop(0.5);
  drop->eval();
  torch::nn::Dropout2d none(0.0);
  return {drop(x), none(x), F::dropout2d(x, F::Dropout2dFuncOptions().p(1.0)),
          F::dropout2d(x[0], F::Dropout2dFuncOptions().p(0.5).training(false))};
}
DIFF_CASE(dropout2d_channels_all_or_nothing) {
  auto x = torch::ones({4, 16, 3, 3});
  auto y = F::dropout2d(x, F::Dropout2dFuncOptions().p(0.5));
  auto sums = y.sum({2, 3});
  return {((sums == 0) | (sums == 18)).all(), S{(sums == 0).any().item<bool>() ? 1.0 : 0.0}};
}
DIFF_CASE(dropout2d_bad_p_errors) { return F::dropout2d(ramp({1, 2, 2, 2}), F::Dropout2dFuncOptions().p(1.5)); }

// A small ResNet written as LibTorch model code is: basic blocks (conv-bn-relu-conv-bn plus the
// skip, a 1x1 conv-bn projection where the shape changes), a stem with max pooling, global
// average pooling and a linear head. Eval mode with fixed weights and running statistics.
namespace {
struct BasicBlockImpl : torch::nn::Module {
  BasicBlockImpl(int64_t in, int64_t out, int64_t stride)
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false)))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(out))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 3).padding(1).bias(false)))),
        bn2(register_module("bn2", torch::nn::BatchNorm2d(out))) {
    if (stride != 1 || in != out) {
      downsample = register_module(
          "downsample", torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 1).stride(stride).bias(false)),
                                              torch::nn::BatchNorm2d(out)));
    }
  }
  torch::Tensor forward(torch::Tensor x) {
    auto identity = downsample ? downsample->forward(x) : x;
    auto y = torch::relu(bn1(conv1(x)));
    y = bn2(conv2(y));
    return torch::relu(y + identity);
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::BatchNorm2d bn1, bn2;
  torch::nn::Sequential downsample{nullptr};
};
TORCH_MODULE(BasicBlock);

struct TinyResNetImpl : torch::nn::Module {
  TinyResNetImpl()
      : stem(register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 4, 5).stride(2).padding(2).bias(false)))),
        bn(register_module("bn", torch::nn::BatchNorm2d(4))),
        pool(register_module("pool", torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(3).stride(2).padding(1)))),
        layer1(register_module("layer1", BasicBlock(4, 4, 1))),
        layer2(register_module("layer2", BasicBlock(4, 8, 2))),
        gap(register_module("gap", torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions({1, 1})))),
        fc(register_module("fc", torch::nn::Linear(8, 3))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = pool(torch::relu(bn(stem(x))));
    x = layer2(layer1(x));
    return fc(torch::flatten(gap(x), 1));
  }
  torch::nn::Conv2d stem;
  torch::nn::BatchNorm2d bn;
  torch::nn::MaxPool2d pool;
  BasicBlock layer1, layer2;
  torch::nn::AdaptiveAvgPool2d gap;
  torch::nn::Linear fc;
};
TORCH_MODULE(TinyResNet);
}  // namespace

DIFF_CASE(model_tiny_resnet_eval) {
  TinyResNet net;
  fix_weights(*net, 0.03);
  fix_buffers(*net);
  net->eval();
  auto x = ramp({2, 3, 16, 16}, torch::kFloat, 0.5, 3);
  return {net(x), S{static_cast<double>(net->parameters().size())}, S{names_checksum(net->named_parameters())},
          S{names_checksum(net->named_buffers())}};
}
DIFF_CASE(model_tiny_resnet_train_step_stats) {
  TinyResNet net;
  fix_weights(*net, 0.03);
  net->train();
  auto y = net(ramp({4, 3, 12, 12}, torch::kFloat, 0.5, 1));
  return {y, net->layer2->bn2->running_mean, net->layer2->bn2->running_var, net->bn->running_var};
}

// --- autograd: gradients, semantics and errors against LibTorch's autograd ---------------------------
// Each case returns the values and the `.grad()` (or `autograd::grad`) results; an undefined grad
// dumps as "undefined" on both sides.
namespace {
torch::Tensor leaf(const std::vector<int64_t>& shape, double scale = 0.5, int64_t offset = 0) {
  return ramp(shape, torch::kFloat, scale, offset).requires_grad_();
}
/// Runs backward of sum(y * w) for a fixed weighting w, so every output element counts.
void weighted_backward(const torch::Tensor& y) {
  (y * ramp(y.sizes().vec(), torch::kFloat, 0.7, 5)).sum().backward();
}
}  // namespace

DIFF_CASE(grad_elementwise_chain) {
  auto x = leaf({2, 3}), w = leaf({3}, 0.3, 2);
  auto y = ((x * w + x.exp() / (w * w + 1)).tanh() - x.sigmoid() * 2).pow(2);
  weighted_backward(y);
  return {y, x.grad(), w.grad()};
}
DIFF_CASE(grad_unary_functions) {
  auto x = (ramp({8}, torch::kFloat, 0.4, 1).abs() + 0.2).requires_grad_();
  auto y = torch::stack({x.log(), x.sqrt(), x.rsqrt(), x.sin(), x.cos(), x.atan(), x.erf(), x.log1p(),
                         x.expm1(), x.asinh(), torch::gelu(x), x.relu(), x.abs(), x.reciprocal(), x.tan()});
  weighted_backward(y);
  return {y, x.grad()};
}
DIFF_CASE(grad_binary_broadcast) {
  auto a = leaf({2, 1, 3}), b = leaf({4, 1}, 0.5, 3);
  auto y = torch::maximum(a, b) + torch::minimum(a, b * 2) + torch::atan2(a, b + 2) + a / (b * b + 1) - b.pow(3);
  weighted_backward(y);
  return {a.grad(), b.grad()};
}
DIFF_CASE(grad_accumulates_across_backward) {
  auto x = leaf({3});
  (x * x).sum().backward();
  (x * 3).sum().backward();
  return x.grad();
}
DIFF_CASE(grad_undefined_before_backward) {
  auto x = leaf({3});
  auto y = x * 2;
  return {x.grad(), S{x.is_leaf() ? 1.0 : 0.0}, S{y.is_leaf() ? 1.0 : 0.0}, S{y.grad_fn() ? 1.0 : 0.0},
          S{x.grad_fn() ? 1.0 : 0.0}, S{y.requires_grad() ? 1.0 : 0.0}, S{(x > 0).requires_grad() ? 1.0 : 0.0}};
}
DIFF_CASE(grad_retain_graph) {
  auto x = leaf({3});
  auto y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();
  return x.grad();
}
DIFF_CASE(grad_second_backward_errors) {
  auto x = leaf({3});
  auto y = (x * x).sum();
  y.backward();
  y.backward();
  return x.grad();
}
DIFF_CASE(grad_non_scalar_errors) {
  auto x = leaf({3});
  (x * 2).backward();
  return x.grad();
}
DIFF_CASE(grad_non_scalar_with_gradient) {
  auto x = leaf({3});
  (x * x).backward(ramp({3}, torch::kFloat, 1.0, 2));
  return x.grad();
}
DIFF_CASE(grad_no_grad_fn_errors) {
  auto x = ramp({3});
  x.sum().backward();
  return x;
}
DIFF_CASE(grad_leaf_in_place_errors) {
  auto x = leaf({3});
  x.add_(1);
  return x;
}
DIFF_CASE(grad_requires_grad_on_non_leaf) {
  auto x = leaf({3});
  auto y = x * 2;
  y.requires_grad_();  // already requires grad: a no-op
  return {y, S{y.is_leaf() ? 1.0 : 0.0}};
}
DIFF_CASE(grad_requires_grad_false_on_non_leaf_errors) {
  auto x = leaf({3});
  auto y = x * 2;
  y.requires_grad_(false);
  return y;
}
DIFF_CASE(grad_integer_requires_grad_errors) {
  auto x = torch::arange(3);
  x.requires_grad_();
  return x;
}
DIFF_CASE(grad_modified_saved_tensor_errors) {
  auto x = leaf({3});
  auto y = x.sigmoid();
  auto z = y * x;
  y.mul_(2);
  z.sum().backward();
  return x.grad();
}
DIFF_CASE(grad_in_place_on_non_leaf) {
  auto x = leaf({4}), w = leaf({4}, 0.5, 1);
  auto y = x * 1;
  y.mul_(w).add_(x, 0.5).tanh_();
  weighted_backward(y);
  return {y, x.grad(), w.grad()};
}
DIFF_CASE(grad_no_grad_guard_and_detach) {
  auto x = leaf({3});
  double in_guard, detached;
  {
    torch::NoGradGuard no_grad;
    in_guard = (x * 2).requires_grad() ? 1 : 0;
    x.mul_(3);  // allowed without grad mode
  }
  detached = (x * 2).detach().requires_grad() ? 1 : 0;
  torch::AutoGradMode off(false);
  return {x, S{in_guard}, S{detached}, S{(x * 2).requires_grad() ? 1.0 : 0.0}};
}
DIFF_CASE(grad_autograd_grad) {
  auto x = leaf({2, 3}), w = leaf({3}, 0.5, 4);
  auto y = x * w;
  auto g = torch::autograd::grad({y}, {x, w}, {ramp({2, 3}, torch::kFloat, 1.0, 1)});
  return {g[0], g[1], x.grad(), w.grad()};
}
DIFF_CASE(grad_autograd_grad_unused_errors) {
  auto x = leaf({3}), u = leaf({3});
  return torch::autograd::grad({(x * 2).sum()}, {u});
}
DIFF_CASE(grad_autograd_grad_allow_unused) {
  auto x = leaf({3}), u = leaf({3});
  auto g = torch::autograd::grad({(x * 2).sum()}, {x, u}, {}, c10::nullopt, false, /*allow_unused=*/true);
  return {g[0], g[1]};
}
DIFF_CASE(grad_retain_grad_non_leaf) {
  auto x = leaf({3});
  auto h = x * 2;
  h.retain_grad();
  (h * h).sum().backward();
  return {h.grad(), x.grad()};
}
DIFF_CASE(grad_views_and_joins) {
  auto x = leaf({4, 6});
  auto parts = x.chunk(3, 1);
  auto y = torch::cat({parts[2], parts[0] * 2}, 1).t().reshape({-1, 2}).narrow(0, 1, 5).select(1, 0);
  auto z = torch::stack({x.select(0, 1), x[3].flip({0})}).unsqueeze(0).expand({2, 2, 6}).permute({2, 0, 1});
  weighted_backward(y);
  weighted_backward(z);
  return x.grad();
}
DIFF_CASE(grad_indexing) {
  auto x = leaf({5, 3});
  auto idx = torch::tensor({4, 0, 4});
  auto y = x.index({idx}) + x.index_select(1, torch::tensor({2, 0, 2})).narrow(0, 0, 3) +
           x.gather(1, torch::tensor({0, 2, 2, 1, 1, 0, 2, 2, 0}).view({3, 3}));
  weighted_backward(y);
  return x.grad();
}
DIFF_CASE(grad_reductions) {
  auto x = leaf({3, 4}, 0.5, 2);
  auto y = torch::stack({x.sum(0), x.mean(0), std::get<0>(x.max(0)), x.amin({0}), x.prod(0), x.var(0),
                         x.logsumexp({0}), x.cumsum(0).select(0, 2), x.norm(2, {0})});
  weighted_backward(y);
  return x.grad();
}
DIFF_CASE(grad_where_unselected_nan) {
  // where(x > 0, sqrt(x), 0): the unselected sqrt arm still back-propagates 0 * inf = NaN.
  auto x = ramp({6}, torch::kFloat, 1.0, 0).requires_grad_();
  auto y = torch::where(x > 0, x.sqrt(), torch::zeros_like(x));
  y.sum().backward();
  return {y, x.grad()};
}
DIFF_CASE(grad_matmul_linear_mse) {
  auto x = leaf({5, 3}), w = leaf({2, 3}, 0.3, 1), b = leaf({2}, 0.3, 2), m = leaf({2, 3, 4}, 0.2, 3);
  auto loss = torch::nn::functional::mse_loss(torch::nn::functional::linear(x, w, b), ramp({5, 2}, torch::kFloat, 1.0, 9)) +
              torch::matmul(torch::matmul(x, m), ramp({4}, torch::kFloat, 1.0, 1)).sum();
  loss.backward();
  return {loss, x.grad(), w.grad(), b.grad(), m.grad()};
}
DIFF_CASE(grad_cross_entropy_nll) {
  auto logits = leaf({4, 5}, 1.0, 3);
  auto tgt = torch::tensor({1, 4, 0, 4});
  auto loss = torch::nn::functional::cross_entropy(logits, tgt) +
              torch::nn::functional::nll_loss(torch::log_softmax(logits * 2, 1), tgt,
                                              torch::nn::functional::NLLLossFuncOptions().ignore_index(0)) +
              torch::nn::functional::cross_entropy(
                  logits, tgt, torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(0.2)) +
              torch::softmax(logits, 0).pow(2).sum();
  loss.backward();
  return {loss, logits.grad()};
}
DIFF_CASE(grad_layer_norm_batch_norm) {
  auto x = leaf({4, 3, 2}, 1.0, 1), w = leaf({3}, 0.5, 2), b = leaf({3}, 0.5, 3);
  auto rm = torch::zeros({3}), rv = torch::ones({3});
  auto y = torch::batch_norm(x, w, b, rm, rv, true, 0.1, 1e-5, false) +
           torch::layer_norm(x, {3, 2}, torch::ones({3, 2}) * 1.5, {}, 1e-5, false);
  weighted_backward(y);
  return {x.grad(), w.grad(), b.grad(), rm, rv};
}
DIFF_CASE(grad_conv_pool_upsample) {
  auto x = leaf({2, 2, 7, 6}, 1.0, 1), w = leaf({4, 1, 3, 2}, 0.5, 2), b = leaf({4}, 0.5, 3);
  auto c = torch::conv2d(x, w, b, {2, 1}, {1, 1}, {1, 2}, 2);
  auto y = torch::max_pool2d(c, {2, 2}, {1, 1}, {1, 0}) .sum() +
           torch::avg_pool2d(c, {2, 2}, {2, 2}, {1, 1}, true, false).pow(2).sum() +
           torch::adaptive_avg_pool2d(c, {2, 3}).pow(2).sum() +
           torch::nn::functional::interpolate(c, torch::nn::functional::InterpolateFuncOptions()
                                                     .size(std::vector<int64_t>{5, 7})
                                                     .mode(torch::kBilinear)
                                                     .align_corners(false))
               .pow(2)
               .sum();
  y.backward();
  return {y, x.grad(), w.grad(), b.grad()};
}
DIFF_CASE(grad_scatter_and_cumprod) {
  // scatter's src gathers the gradient, self keeps it where nothing was written (functional,
  // value and in-place forms); cumprod's derivative is exact where the input has zeros.
  auto self = leaf({3, 4}), src = leaf({2, 3}, 0.3, 1), x = leaf({2, 5}, 0.4, -2);
  auto index = torch::tensor({3, 0, 1, 2, 1, 0}).view({2, 3});
  auto y = torch::cat({self.scatter(1, index, src).view({-1}), self.scatter(0, index.narrow(0, 0, 1), 0.5).view({-1}),
                       (self * 2).scatter_(1, index, src).view({-1}), x.cumprod(1).view({-1}), x.cumprod(0).view({-1})});
  weighted_backward(y);
  return {y, self.grad(), src.grad(), x.grad()};
}
DIFF_CASE(grad_scatter_zero_dim) {
  // A 0-d self: scatter writes its one element (the last write wins), scatter_add sums into it in
  // self's dtype, with gradients through both.
  auto ints = torch::scalar_tensor(5, torch::kInt).scatter_add(0, torch::tensor({0, 0}), torch::tensor({2, 3}, torch::kInt));
  auto x = leaf({}), src = leaf({2}, 0.3, 1);
  auto y = torch::stack({(x * 2).scatter(0, torch::tensor(int64_t(0)), src.select(0, 1)),
                         (x * 3).scatter_add(0, torch::tensor({0, 0}), src)});
  weighted_backward(y);
  return {ints, y, x.grad(), src.grad()};
}
DIFF_CASE(grad_embedding_padding_idx) {
  torch::nn::Embedding emb(torch::nn::EmbeddingOptions(6, 3).padding_idx(2));
  fix_weights(*emb);
  auto y = emb(torch::tensor({2, 5, 2, 0}).view({2, 2}));
  weighted_backward(y);
  return emb->weight.grad();
}
DIFF_CASE(grad_lstm_module) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(3, 4).num_layers(2));
  fix_weights(*lstm, 0.2);
  auto out = lstm(ramp({5, 2, 3}, torch::kFloat, 1.0, 1));
  weighted_backward(std::get<0>(out));
  std::vector<torch::Tensor> r;
  for (auto& p : lstm->parameters()) r.push_back(p.grad());
  return r;
}
DIFF_CASE(grad_module_parameters_and_zero_grad) {
  torch::nn::Linear lin(3, 2);
  fix_weights(*lin);
  double all_require = 1;
  for (auto& p : lin->parameters()) all_require *= p.requires_grad() ? 1 : 0;
  lin(ramp({4, 3})).sum().backward();
  auto before = lin->weight.grad().clone();
  lin->zero_grad();
  return {before, lin->weight.grad(), S{all_require}};
}
DIFF_CASE(optim_sgd_momentum_nesterov_steps) {
  torch::nn::Linear lin(3, 2);
  fix_weights(*lin);
  torch::optim::SGD a(lin->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true).weight_decay(0.01));
  for (int i = 0; i < 3; ++i) {
    a.zero_grad();
    torch::tanh(lin(ramp({4, 3}, torch::kFloat, 1.0, i))).pow(2).sum().backward();
    a.step();
  }
  return {lin->weight, lin->bias};
}
DIFF_CASE(optim_sgd_dampening_steps) {
  auto p = leaf({5});
  torch::optim::SGD sgd({p}, torch::optim::SGDOptions(0.05).momentum(0.5).dampening(0.3));
  for (int i = 0; i < 4; ++i) {
    sgd.zero_grad();
    (p * p * p).sum().backward();
    sgd.step();
  }
  return p;
}
DIFF_CASE(optim_adam_steps) {
  torch::nn::Linear lin(3, 2);
  fix_weights(*lin);
  torch::optim::Adam adam(lin->parameters(), torch::optim::AdamOptions(0.01).betas({0.8, 0.9}).weight_decay(0.1));
  for (int i = 0; i < 4; ++i) {
    adam.zero_grad();
    torch::sigmoid(lin(ramp({4, 3}, torch::kFloat, 1.0, i))).sum().backward();
    adam.step();
  }
  return {lin->weight, lin->bias};
}
DIFF_CASE(optim_adam_amsgrad_steps) {
  auto p = leaf({5});
  torch::optim::Adam adam({p}, torch::optim::AdamOptions(0.1).amsgrad(true));
  for (int i = 0; i < 4; ++i) {
    adam.zero_grad();
    ((p - 0.3 * i) * (p - 0.3 * i)).sum().backward();
    adam.step();
  }
  return p;
}
DIFF_CASE(optim_adamw_steps) {
  torch::nn::Linear lin(3, 2);
  fix_weights(*lin);
  torch::optim::AdamW opt(lin->parameters(), torch::optim::AdamWOptions(0.01).betas({0.8, 0.9}).weight_decay(0.1));
  for (int i = 0; i < 4; ++i) {
    opt.zero_grad();
    torch::sigmoid(lin(ramp({4, 3}, torch::kFloat, 1.0, i))).sum().backward();
    opt.step();
  }
  return {lin->weight, lin->bias};
}
DIFF_CASE(optim_adamw_default_decay_amsgrad_steps) {
  auto p = leaf({5});
  torch::optim::AdamW opt({p}, torch::optim::AdamWOptions(0.1).amsgrad(true));
  for (int i = 0; i < 4; ++i) {
    opt.zero_grad();
    ((p - 0.3 * i) * (p - 0.3 * i)).sum().backward();
    opt.step();
  }
  return p;
}
DIFF_CASE(optim_adamw_negative_weight_decay_errors) {
  auto p = leaf({2});
  torch::optim::AdamW opt({p}, torch::optim::AdamWOptions(0.1).weight_decay(-1));
  return p;
}
DIFF_CASE(optim_invalid_options_error) {
  auto p = leaf({2});
  torch::optim::SGD sgd({p}, torch::optim::SGDOptions(0.1).nesterov(true));
  return p;
}
DIFF_CASE(model_tiny_resnet_train_grads) {
  TinyResNet net;
  fix_weights(*net, 0.03);
  net->train();
  auto y = net(ramp({2, 3, 12, 12}, torch::kFloat, 0.5, 1));
  weighted_backward(y);
  return {y, net->fc->weight.grad(), net->layer2->conv2->weight.grad(), net->stem->weight.grad(),
          net->bn->weight.grad()};
}
