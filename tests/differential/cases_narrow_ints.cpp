// Differential cases for the narrow integer dtypes of issue #34: uint8 (`kByte`/`kUInt8`: images
// and the masks of older code), int8 (`kChar`/`kInt8`) and int16 (`kShort`/`kInt16`, which uint8
// and int8 promote to together). What is checked is what real code relies on and what differs
// from the wider integers: LibTorch's promotion lattice, wrap-around of out-of-range Scalar
// operands and conversions (x86's results for floats), the checked conversions of fill, full,
// clamp, pow and where, reductions that widen to long, uint8 masks (deprecated, still accepted),
// and the any/all of a uint8 tensor, which stay uint8.
#include "dump_main.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

using diff::Out;
using diff::S;

torch::Tensor u8(const std::vector<int64_t>& v) { return torch::tensor(v).to(torch::kByte); }
torch::Tensor i8(const std::vector<int64_t>& v) { return torch::tensor(v).to(torch::kChar); }
torch::Tensor i16(const std::vector<int64_t>& v) { return torch::tensor(v).to(torch::kShort); }
torch::Tensor f32(const std::vector<float>& v) { return torch::tensor(v); }

/// Floats whose conversion to a narrow integer is out of range, fractional, or not a number.
torch::Tensor awkward_floats() {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  return f32({-1.5f, 255.7f, 300.2f, -300.5f, nan, inf, -inf, 1e10f, 70000.5f, -129.5f, 127.9f, -32769.f, 0.f});
}

}  // namespace

// --- creation ------------------------------------------------------------------------------------
DIFF_CASE(narrow_creation) {
  std::vector<uint8_t> bytes{1, 2, 250};
  std::vector<int8_t> chars{-128, 2, 127};
  std::vector<int16_t> shorts{-32768, 2, 32767};
  uint8_t raw[6] = {1, 2, 3, 255, 0, 128};
  auto blob = torch::from_blob(raw, {2, 3}, torch::kByte).clone();
  return {torch::tensor(bytes),
          torch::tensor(chars),
          torch::tensor(shorts),
          blob,
          blob.to(torch::kFloat).div(255),
          torch::tensor({1, 200, 3}, torch::kUInt8),
          torch::tensor({-1, 100}, torch::kInt8),
          torch::tensor({-1, 1000}, torch::kInt16),
          torch::arange(5, torch::kByte),
          torch::arange(0, 300, 100, torch::kByte),
          torch::zeros({2, 2}, torch::kChar),
          torch::ones({3}, torch::kShort),
          torch::full({2}, 255, torch::kByte),
          torch::zeros({2}, torch::kChar).fill_(-128),
          torch::empty({0}, torch::kByte),
          torch::zeros_like(blob),
          torch::ones({2}, torch::dtype(torch::kU8)),
          torch::ones({2}, torch::kI8),
          torch::ones({2}, torch::kI16)};
}
DIFF_CASE(narrow_full_out_of_range_errors) { return torch::full({2}, 300, torch::kByte); }
DIFF_CASE(narrow_full_below_int8_errors) { return torch::full({2}, -129, torch::kChar); }
DIFF_CASE(narrow_fill_out_of_range_errors) { return torch::zeros({2}, torch::kByte).fill_(257); }
DIFF_CASE(narrow_random_in_range) {
  torch::manual_seed(3);
  auto r = torch::randint(0, 10, {64}, torch::kByte);
  return {S{double(r.scalar_type() == torch::kByte)}, r.lt(10).all(), r.ge(0).all()};
}
DIFF_CASE(narrow_randint_out_of_range_errors) { return torch::randint(250, 300, {2}, torch::kByte); }
DIFF_CASE(narrow_uniform_errors) { return torch::empty({2}, torch::kByte).uniform_(); }

// --- promotion -----------------------------------------------------------------------------------
DIFF_CASE(narrow_promotion) {
  auto b = u8({1, 200, 3}), c = i8({-1, 100, 3}), s = i16({-1, 1000, 3});
  auto flags = torch::tensor({1, 0, 1}).to(torch::kBool);
  return {b + c,
          c + b,
          b + s,
          c + s,
          b + flags,
          c * flags,
          i16({1, 2}) * torch::tensor({1, 2}).to(torch::kInt),
          b.to(torch::kLong) + b,
          b + 1.5,
          b / 2,
          b.div(b),
          i16({1, 2}) / i16({1, 2}),
          i8({-1}) + u8({255}),
          torch::cat({b, c}),
          torch::stack({b, b}),
          torch::stack({b, c}),
          torch::maximum(b, c),
          torch::minimum(c, s),
          b.bitwise_xor(c),
          i16({1, 2}).bitwise_and(u8({3, 3})),
          b.maximum(torch::tensor(300)),
          torch::where(flags, b, c)};
}

// --- Scalar operands wrap, as LibTorch's wrapped numbers cast to the compute dtype -----------------
DIFF_CASE(narrow_scalar_operands_wrap) {
  auto b = u8({1, 200, 3});
  auto i = torch::tensor({1, 2}).to(torch::kInt);
  auto acc = b.clone();
  acc.add_(300);
  auto wide = i.clone();
  wide.add_(int64_t(1) << 40);
  return {b + 300, b - 3,       3 - b,          b * 2,           b.mul(1000),   b.sub(300),    b + (-1),
          acc,     b.add(b, 2), b.eq(300),      b.lt(-1),        b.gt(254),     b.fmod(300),   b.remainder(-3),
          b.floor_divide(-3),   b & 511,        b.bitwise_or(256), i + (int64_t(1) << 40), wide, i8({-128}) - 1,
          i16({32767}) + 1,     b * 1.5,        b.sub(1.5),      torch::lt(b, 1.5)};
}
DIFF_CASE(narrow_clamp) {
  auto b = u8({1, 200, 3}), c = i8({-128, 0, 127});
  return {b.clamp(2, 100), b.clamp_min(100), b.clamp_max(7), c.clamp(-5, 5), torch::clamp(c, -128, 127)};
}
DIFF_CASE(narrow_clamp_out_of_range_errors) { return u8({1, 2}).clamp(-5, 300); }
DIFF_CASE(narrow_clamp_max_out_of_range_errors) { return u8({1, 2}).clamp_max(300); }
DIFF_CASE(narrow_pow_exponent_out_of_range_errors) { return u8({1, 2}).pow(300); }
DIFF_CASE(narrow_masked_fill_out_of_range_errors) {
  auto b = u8({1, 200});
  return b.masked_fill(b > 100, 300);
}
DIFF_CASE(narrow_masked_fill_float_value_errors) {
  auto b = u8({1, 200});
  return b.masked_fill(b > 100, -1.5);
}
DIFF_CASE(narrow_where_scalar_out_of_range_errors) {
  auto b = u8({1, 200});
  return torch::where(b > 5, b, 300);
}

// --- conversions -----------------------------------------------------------------------------------
DIFF_CASE(narrow_conversions_from_floats) {
  auto f = awkward_floats();
  auto d = f.to(torch::kDouble);
  return {f.to(torch::kByte), f.to(torch::kChar), f.to(torch::kShort),
          d.to(torch::kByte), d.to(torch::kChar), d.to(torch::kShort)};
}
DIFF_CASE(narrow_conversions_between_integers) {
  auto l = torch::tensor({70000, -70000, 65535, 255, 256, -1, 300, -129});
  auto into = torch::zeros({2}, torch::kByte);
  into.copy_(f32({300.5f, -1.f}));
  return {l.to(torch::kShort), l.to(torch::kByte), l.to(torch::kChar), u8({0, 255}).to(torch::kChar),
          i8({-1, 5}).to(torch::kByte), torch::tensor({1, 0}).to(torch::kBool).to(torch::kByte),
          u8({0, 3}).to(torch::kBool), into, u8({1, 200}).to(torch::kFloat).to(torch::kByte),
          u8({7, 200}).to(torch::kDouble), i16({-300, 300}).to(torch::kByte)};
}

// --- unary ops -------------------------------------------------------------------------------------
DIFF_CASE(narrow_unary) {
  auto b = u8({1, 200, 0}), c = i8({-128, 100, -3});
  return {-b,          b.neg(),        b.abs(),         c.abs(),   c.neg(),         c.sign(),
          b.sign(),    b.sqrt(),       torch::sigmoid(b), b.reciprocal(), b.square(), c.square(),
          ~b,          ~c,             b.bitwise_not(), b.logical_not(), c.logical_and(b), torch::relu(c),
          b.isnan(),   b.exp(),        c.to(torch::kFloat).tanh(), b.pow(b), c.pow(2), torch::pow(2, b)};
}

// --- reductions and scans --------------------------------------------------------------------------
DIFF_CASE(narrow_reductions) {
  auto b = u8({1, 200, 3, 250, 7, 9}).view({2, 3}), c = i8({-128, 100, 3, -1, 0, 127}).view({2, 3});
  return {b.sum(),        c.sum(),           b.prod(),         c.prod(1),         b.sum(0),
          b.sum(1, true), b.sum({0}, false, torch::kFloat), b.sum(1, false, torch::kByte),
          b.cumsum(1),    c.cumsum(0),       c.cumprod(1),     u8({3, 1, 2}).cumsum(0, torch::kByte),
          b.max(),        c.min(),           c.amin(),         b.amax(1),         b.argmax(),
          c.argmin(),     std::get<0>(b.max(0)), std::get<1>(c.min(1)), std::get<1>(c.max(1, true))};
}
DIFF_CASE(narrow_any_all_keep_uint8) {
  auto b = u8({1, 0, 2, 3}).view({2, 2});
  auto c = i8({1, 0, 2, 3}).view({2, 2});
  return {b.any(), b.all(), b.any(1), b.all(0), b.any(0, true), c.any(), c.all(1), torch::any(b), torch::all(c)};
}
DIFF_CASE(narrow_mean_errors) { return u8({1, 2}).mean(); }
DIFF_CASE(narrow_std_errors) { return u8({1, 2}).std(); }
DIFF_CASE(narrow_softmax_errors) { return torch::softmax(u8({1, 2}), 0); }

// --- sorting ---------------------------------------------------------------------------------------
DIFF_CASE(narrow_sorting) {
  auto b = u8({9, 200, 3, 200, 0}), c = i8({100, -128, 3, 3, -1});
  return {std::get<0>(b.sort()),         std::get<1>(b.sort(0, /*descending=*/true)),
          std::get<0>(c.sort(0, true)),   c.argsort(),
          std::get<0>(torch::topk(c, 2)), std::get<1>(torch::topk(b, 3)),
          std::get<0>(torch::kthvalue(c, 2)), i16({5, -5, 0}).argsort(0, true)};
}

// --- integer division ------------------------------------------------------------------------------
DIFF_CASE(narrow_integer_division) {
  auto b = u8({1, 200, 3}), c = i8({-128, 100, -3});
  return {b.floor_divide(u8({2, 7, 2})), c.floor_divide(i8({2, 7, 2})), c.floor_divide(-1), torch::remainder(c, 7),
          c.fmod(3),                     b.remainder(u8({7})),          c.remainder(i8({-7}))};
}
DIFF_CASE(narrow_floor_divide_by_zero_errors) { return u8({1, 2}).floor_divide(u8({0, 1})); }

// --- linear algebra and convolution ---------------------------------------------------------------
DIFF_CASE(narrow_matmul_and_conv) {
  auto b = u8({1, 200, 3});
  auto img = torch::arange(16).to(torch::kByte).view({1, 1, 4, 4});
  auto w = torch::ones({1, 1, 2, 2}, torch::kByte);
  return {b.unsqueeze(0).mm(b.unsqueeze(1)),
          u8({1, 2}).dot(u8({3, 4})),
          torch::mm(torch::ones({2, 2}, torch::kByte), torch::ones({2, 2}, torch::kByte)),
          torch::matmul(i8({1, -2, 3, 4}).view({2, 2}), i8({5, 6, -7, 8}).view({2, 2})),
          torch::conv2d(img, w),
          torch::conv2d(img.to(torch::kChar), w.to(torch::kChar), {}, 2)};
}

// --- masks: uint8 is still read as a mask (with LibTorch's deprecation warning) ----------------------
DIFF_CASE(narrow_uint8_masks) {
  auto x = f32({1.f, 2.f, 3.f});
  auto m = u8({1, 0, 1});
  auto put = x.clone();
  put.index_put_({m}, torch::tensor(0.f));
  auto filled = x.clone();
  filled.masked_fill_(m, -1.f);
  return {x.index({m}),
          put,
          filled,
          x.masked_fill(m, 9),
          x.masked_select(m),
          torch::where(m, x, -x),
          torch::where(m, 1.f, 0.f),
          (x > 1.5f).to(torch::kU8).mul(255),
          x.index({(x > 1.5f).to(torch::kByte)})};
}
DIFF_CASE(narrow_int8_mask) { return f32({1.f, 2.f, 3.f}).masked_fill(i8({1, 0, 1}), 0.f); }
DIFF_CASE(narrow_int8_mask_values_errors) { return f32({1.f, 2.f, 3.f}).masked_fill(i8({1, 0, -1}), 0.f); }
DIFF_CASE(narrow_uint8_mask_values_errors) { return f32({1.f, 2.f}).masked_fill(u8({2, 0}), 0.f); }
DIFF_CASE(narrow_int8_where_errors) { return torch::where(i8({1, 0}), f32({1.f, 2.f}), f32({3.f, 4.f})); }
DIFF_CASE(narrow_int16_index_errors) { return f32({1.f, 2.f}).index({i16({0, 1})}); }

// --- indexing on narrow data -----------------------------------------------------------------------
DIFF_CASE(narrow_indexing) {
  auto b = u8({1, 200, 3});
  auto acc = torch::zeros({3}, torch::kByte);
  acc.index_put_({torch::tensor({0, 0, 2})}, torch::tensor(200).to(torch::kByte), /*accumulate=*/true);
  auto acc8 = torch::zeros({3}, torch::kChar);
  acc8.index_put_({torch::tensor({0, 0, 2})}, torch::tensor(100).to(torch::kChar), /*accumulate=*/true);
  auto scattered = torch::zeros({2}, torch::kShort);
  scattered.scatter_(0, torch::tensor({1}), i16({7}));
  auto img = torch::arange(12).to(torch::kByte).view({3, 4});
  return {b.index_select(0, torch::tensor({1})),
          b.gather(0, torch::tensor({2, 0})),
          acc,
          acc8,
          scattered,
          img.index({torch::indexing::Slice(1), torch::indexing::Slice(torch::indexing::None, torch::indexing::None, 2)}),
          img.index({torch::tensor({2, 0})}),
          img.permute({1, 0}).contiguous(),
          img.flip({1}),
          torch::constant_pad_nd(b, {1, 1}, 3),
          img.unsqueeze(0).expand({2, 3, 4}).sum(0)};
}
DIFF_CASE(narrow_index_select_byte_index_errors) { return f32({1.f, 2.f}).index_select(0, u8({0})); }
DIFF_CASE(narrow_index_put_source_dtype_errors) {
  return u8({1, 200}).index_put_({torch::tensor({0})}, torch::tensor(300));
}
DIFF_CASE(narrow_one_hot_errors) { return torch::nn::functional::one_hot(u8({1, 2}), 3); }
DIFF_CASE(narrow_pad_value_out_of_range_errors) { return torch::constant_pad_nd(u8({1, 2}), {1, 1}, 300); }

// --- host reads ------------------------------------------------------------------------------------
DIFF_CASE(narrow_host_reads) {
  auto b = u8({1, 200, 3});
  auto c = i8({-128, 5});
  auto s = i16({-300, 30000});
  auto a = b.accessor<uint8_t, 1>();
  return {S{double(b[1].item<uint8_t>())}, S{double(b[1].item<int>())}, S{b[1].item().toDouble()},
          S{double(c[0].item<int8_t>())},   S{double(s[1].item<int16_t>())}, S{double(b.data_ptr<uint8_t>()[2])},
          S{double(c.data_ptr<int8_t>()[1])}, S{double(a[1])}, S{double(b.element_size())},
          S{double(s.element_size())},     S{double(b.is_floating_point())}, S{double(torch::isIntegralType(torch::kChar, false))}};
}
DIFF_CASE(narrow_item_wrong_type_errors) { return S{double(u8({1}).data_ptr<int8_t>()[0])}; }

// --- LibTorch's dispatch macros cover the narrow integers --------------------------------------------
DIFF_CASE(narrow_at_dispatch) {
  std::vector<torch::Tensor> out;
  for (auto dt : {torch::kByte, torch::kChar, torch::kShort}) {
    out.push_back(AT_DISPATCH_INTEGRAL_TYPES(dt, "bits", [&] {
      return torch::tensor({static_cast<int64_t>(8 * sizeof(scalar_t)), static_cast<int64_t>(std::is_signed_v<scalar_t>)});
    }));
    auto x = torch::tensor({3, 250}).to(dt);
    out.push_back(AT_DISPATCH_ALL_TYPES(x.scalar_type(), "halve", [&] {
      auto* p = x.data_ptr<scalar_t>();
      for (int64_t i = 0; i < x.numel(); ++i) p[i] = static_cast<scalar_t>(p[i] / 2);
      return x;
    }));
  }
  return out;
}
// c10's checked conversion: an integer -1 may become uint8 255, a float may not leave [min, max].
DIFF_CASE(narrow_item_integer_wraps) { return S{double(torch::tensor(int64_t(-1)).item<uint8_t>())}; }
DIFF_CASE(narrow_item_negative_float_errors) { return S{double(torch::tensor(-1.0).item<uint8_t>())}; }
DIFF_CASE(narrow_item_float_above_max_errors) { return S{double(torch::tensor(127.5).item<int8_t>())}; }
