// Differential cases for the 16-bit floating dtypes: half (`kHalf`, `kFloat16`, at::Half) and
// bfloat16 (`kBFloat16`). Real inference code converts models and inputs to half for the GPU
// (`module->to(torch::kHalf)`, `img.to(torch::kHalf)`) and dispatches its own kernels on
// at::Half. What is checked: conversions from and to every dtype with LibTorch's rounding (to
// nearest, ties to even; subnormals; overflow to infinity; NaN), LibTorch's promotion lattice,
// the checked conversions of fill, and the ops LibTorch 1.13 runs on half tensors on the CPU.
// Most of LibTorch 1.13's CPU kernels refuse half ("sigmoid_cpu" not implemented for 'Half');
// the runtime computes them in float, as LibTorch's CUDA kernels do (docs/compat.md), so those
// have no case here.
#include "dump_main.h"
#include "model_inputs.h"

#include <cmath>
#include <limits>
#include <vector>

namespace {

using diff::Out;
using diff::S;
using diff::model_inputs::fix_model;

torch::Tensor f32(const std::vector<float>& v) { return torch::tensor(v); }

/// Floats that exercise half's and bfloat16's rounding: ties to even, the subnormal range, the
/// largest finite values, overflow, signed zero, infinities and NaN.
torch::Tensor awkward_floats() {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  return f32({0.1f, 1.0f / 3, 2049.f, 2051.f, 1.00048828125f, 1.00146484375f, 65504.f, 65519.f, 65520.f, 1e6f,
              -1e6f, 6e-8f, 3e-8f, 2.98023224e-8f, 1e-5f, 6.1e-5f, -0.f, inf, -inf, nan, 257.f, 3.0e38f,
              3.4e38f, -123.456f, 1e-40f});
}

torch::Tensor halves() { return torch::arange(12, torch::kFloat).reshape({3, 4}).div(7).sub(0.5).to(torch::kHalf); }

}  // namespace

DIFF_CASE(half_from_float) {
  const auto x = awkward_floats();
  return {x.to(torch::kHalf), x.to(torch::kFloat16).to(torch::kFloat), x.to(torch::kDouble).to(torch::kHalf)};
}
DIFF_CASE(bfloat16_from_float) {
  const auto x = awkward_floats();
  return {x.to(torch::kBFloat16), x.to(torch::kBFloat16).to(torch::kDouble)};
}
DIFF_CASE(half_from_integers) {
  const auto i = torch::tensor({-70000, -2049, -1, 0, 1, 2049, 4097, 65504, 65520, 70000});
  return {i.to(torch::kHalf), i.to(torch::kInt).to(torch::kBFloat16), i.gt(0).to(torch::kHalf),
          torch::tensor({200, 7}).to(torch::kByte).to(torch::kHalf), torch::tensor({-100, 7}).to(torch::kChar).to(torch::kHalf)};
}
DIFF_CASE(half_to_integers) {
  const auto h = f32({-3.75f, -0.5f, 0.f, 0.5f, 2.5f, 1000.75f, 60000.f}).to(torch::kHalf);
  return {h.to(torch::kLong), h.to(torch::kInt), h.to(torch::kShort), h.to(torch::kBool),
          f32({1.5f, 200.f, 100.25f}).to(torch::kHalf).to(torch::kByte), h.to(torch::kBFloat16).to(torch::kLong)};
}
DIFF_CASE(half_between_reduced) {
  const auto x = awkward_floats();
  return {x.to(torch::kHalf).to(torch::kBFloat16), x.to(torch::kBFloat16).to(torch::kHalf)};
}

DIFF_CASE(half_promotion) {
  const auto h = torch::ones({2}, torch::kHalf), b = torch::ones({2}, torch::kBFloat16);
  return {h + torch::ones({2}), h + torch::ones({2}, torch::kDouble), h + torch::ones({2}, torch::kLong), h + 2, h + 1.5,
          h + b, h + torch::tensor(2.5), b + torch::tensor(2.5, torch::kDouble), torch::ones({2}, torch::kLong) + h,
          torch::ones({2}, torch::kInt) * torch::tensor(1.5, torch::kHalf), h + true};
}
DIFF_CASE(half_result_type) {
  const auto h = torch::ones({2}, torch::kHalf);
  return {S(double(static_cast<int>(torch::result_type(h, torch::ones({2})) == torch::kFloat))),
          S(double(static_cast<int>(torch::promote_types(torch::kHalf, torch::kBFloat16) == torch::kFloat))),
          S(double(static_cast<int>(torch::promote_types(torch::kHalf, torch::kLong) == torch::kHalf))),
          S(double(static_cast<int>(torch::result_type(h, 2.5) == torch::kHalf))),
          diff::flag(torch::result_type(2, h) == torch::kHalf), diff::flag(torch::result_type(2, 2.5) == torch::kFloat),
          diff::flag(torch::result_type(true, 3) == torch::kLong),
          diff::flag(torch::result_type(torch::tensor(1.5, torch::kDouble), torch::ones({2}, torch::kLong)) == torch::kDouble)};
}

DIFF_CASE(half_arithmetic) {
  const auto h = halves(), g = halves().flip(1);
  return {h + g, h - g, h * g, h / 3, h * 1000, h.add(g, 2), h.neg(), h.abs(), h.eq(g), h.gt(0), h.le(g), -h};
}
DIFF_CASE(bfloat16_arithmetic) {
  const auto b = halves().to(torch::kBFloat16), c = b.flip(0);
  return {b + c, b * c, b - 1, b / c, b.abs(), b.lt(c)};
}
DIFF_CASE(half_inplace) {
  auto h = halves();
  h.mul_(3).add_(1).div_(2);
  auto b = halves().to(torch::kBFloat16);
  b.sub_(torch::ones({4}));
  auto z = torch::zeros({3}, torch::kHalf);
  z.copy_(f32({0.1f, 70000.f, -2.5f}));
  return {h, b, z};
}

DIFF_CASE(half_reductions) {
  const auto h = halves();
  return {h.sum(), h.sum(1), h.mean(0), h.max(), h.min(), h.argmax(), h.argmin(1), h.sum(0, false, torch::kFloat),
          std::get<0>(h.max(1)), std::get<1>(h.max(1)), h.to(torch::kBFloat16).sum(1)};
}
DIFF_CASE(half_selection) {
  const auto h = halves();
  return {torch::cat({h, h * 2}), torch::stack({h, h}), h.index({h > 0}), h.index_select(1, torch::tensor({3, 0})),
          torch::where(h > 0, h, torch::zeros_like(h)), std::get<0>(h.sort(1, true)), std::get<1>(h.sort(0)),
          h.masked_fill(h < 0, -1.5), h.t().contiguous(), h.narrow(1, 1, 2).clone(), h.view({4, 3}), h[1]};
}
DIFF_CASE(half_creation) {
  return {torch::zeros({3}, torch::kHalf), torch::ones({2, 2}, torch::dtype(torch::kBFloat16)),
          torch::full({2}, 0.1, torch::kHalf), torch::tensor({1.5, 2.25, 0.1}, torch::kHalf),
          torch::tensor({1.5, 0.1}, torch::kBFloat16), torch::empty({0}, torch::kHalf),
          torch::zeros_like(torch::ones({2}, torch::kHalf)), torch::ones({2}).to(torch::kF16)};
}
DIFF_CASE(half_fill_overflow_errors) { return torch::full({2}, 70000.0, torch::kHalf); }
DIFF_CASE(float_fill_overflow_errors) { return torch::full({2}, 1e300); }
DIFF_CASE(float_fill_in_place_overflow_errors) { return torch::zeros({2}).fill_(-1e39); }
DIFF_CASE(float_fill_infinity) { return torch::full({2}, -std::numeric_limits<double>::infinity()); }
DIFF_CASE(half_fill_largest) {
  return {torch::full({1}, 65504.0, torch::kHalf), torch::full({1}, -65504.0, torch::kHalf),
          torch::full({1}, std::numeric_limits<double>::infinity(), torch::kHalf), torch::full({1}, 1e38, torch::kBFloat16)};
}
DIFF_CASE(bfloat16_fill_overflow_errors) {
  auto b = torch::zeros({2}, torch::kBFloat16);
  return b.fill_(1e39);
}

DIFF_CASE(half_host_reads) {
  const auto h = halves();
  at::Half v = h[2][3].item<at::Half>();
  float sum = 0;
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(h.scalar_type(), "read", [&] {
    const scalar_t* p = h.data_ptr<scalar_t>();
    for (int64_t i = 0; i < h.numel(); ++i) sum += static_cast<float>(p[i]) * static_cast<float>(i);
  });
  const at::Half rounded(0.1f);
  return {S(static_cast<float>(v)), S(h[0][1].item<float>()), S(h[1][1].item<double>()), S(sum),
          S(static_cast<float>(rounded)), S(static_cast<double>(h.sum().item<at::Half>()))};
}
DIFF_CASE(half_dispatch_refuses_integers_errors) {
  const auto i = torch::ones({2}, torch::kLong);
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(i.scalar_type(), "half_only", [&] {});
  return i;
}
DIFF_CASE(half_module_to) {
  torch::nn::Linear lin(3, 2);
  fix_model(*lin);
  lin->to(torch::kHalf);
  torch::nn::Linear other(3, 2);
  fix_model(*other);
  other->to(torch::kBFloat16);
  return {lin->weight, lin->bias, other->weight, S(double(static_cast<int>(lin->weight.dtype() == torch::kHalf)))};
}
DIFF_CASE(half_conversion_gradients) {
  auto x = f32({0.1f, -2.5f, 3.0f}).requires_grad_();
  auto y = x.to(torch::kHalf);
  y.to(torch::kFloat).mul(f32({1.f, 2.f, 3.f})).sum().backward();
  return {y.detach(), S(double(y.requires_grad())), x.grad()};
}
