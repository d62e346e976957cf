// Differential cases for issue #34 ("runtime breadth, round 2"): the names that real detection,
// segmentation and decoding code uses and the shim lacked — the bitwise and logical operators on
// bool and integer tensors (`& | ^ ~ %`, their in-place and Scalar forms), LibTorch's checking and
// dispatch macros, Tensor::type(), the indexing, splitting and median ops, at::parallel_for and
// c10::irange, samplers saved to and loaded from archives. Inputs are host
// formulas (model_inputs.h), so both dumpers see identical data.
#include "dump_main.h"
#include "model_inputs.h"

#include <ATen/Parallel.h>
#include <c10/util/irange.h>

#include <cstdint>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace {

using diff::Out;
using diff::S;
using diff::model_inputs::wave;

torch::Tensor longs(const std::vector<int64_t>& v) { return torch::tensor(v); }
torch::Tensor ints(const std::vector<int64_t>& v) { return torch::tensor(v).to(torch::kInt); }
torch::Tensor bools(const std::vector<int64_t>& v) { return torch::tensor(v).to(torch::kBool); }

}  // namespace

// --- bitwise and logical operators ---------------------------------------------------------------
DIFF_CASE(breadth_bitwise_bool_operators) {
  auto m = bools({1, 0, 1, 1, 0, 0}).view({2, 3}), n = bools({0, 0, 1});
  return {m & n, m | n, m ^ n, ~m, m ^ true, false | m, torch::bitwise_xor(m, n), m.bitwise_and(n), m.bitwise_not()};
}
DIFF_CASE(breadth_bitwise_integer_operators) {
  auto a = longs({-7, -1, 0, 3, 12, 1023}), b = longs({5, -2, 9, 6, 10, 255});
  auto i = ints({-7, -1, 0, 3, 12, 1023});
  return {a & b, a | b, a ^ b, ~a, a ^ 6, 6 ^ a, a & -4, i & 12, i | a, i ^ bools({1, 0, 1, 0, 1, 0}),
          torch::bitwise_and(a, 3), torch::bitwise_or(5, i), torch::bitwise_xor(i, b), i.bitwise_xor(1), ~i};
}
DIFF_CASE(breadth_bitwise_in_place) {
  auto a = longs({-7, -1, 0, 3, 12, 1023}), b = longs({5, -2, 9, 6, 10, 255});
  auto x = a.clone(), y = a.clone(), z = a.clone(), w = a.clone();
  x &= b;
  y |= b.slice(0, 0, 1);
  z ^= ints({1, 2, 3, 4, 5, 6});
  w.bitwise_xor_(3).bitwise_and_(b).bitwise_or_(8).bitwise_not_();
  auto m = bools({1, 0, 1, 0});
  m ^= bools({1, 1, 0, 0});
  m.bitwise_not_();
  return {x, y, z, w, m};
}
DIFF_CASE(breadth_bitwise_float_errors) { return wave({3}, 1.0, 0.1) & wave({3}, 1.0, 0.2); }
DIFF_CASE(breadth_bitwise_float_scalar_errors) { return longs({1, 2}) ^ 1.5; }
DIFF_CASE(breadth_bitwise_xor_float_tensor_errors) { return longs({1, 2}) ^ wave({2}, 1.0, 0.1); }
DIFF_CASE(breadth_bitwise_not_in_place_float_errors) {
  auto x = wave({3}, 1.0, 0.1);
  x.bitwise_not_();
  return x;
}
DIFF_CASE(breadth_bitwise_in_place_narrowing_errors) {
  auto m = bools({1, 0});
  m |= longs({2, 3});
  return m;
}
DIFF_CASE(breadth_bitwise_in_place_broadcast_errors) {
  auto a = longs({1, 2});
  a &= longs({1, 2, 3, 4}).view({2, 2});
  return a;
}
DIFF_CASE(breadth_logical_in_place) {
  auto f = wave({2, 3}, 1.0, 0.4).round(), g = wave({3}, 1.0, 1.4).round();
  auto a = f.clone(), b = f.clone(), c = f.clone(), d = f.clone();
  a.logical_and_(g);
  b.logical_or_(g);
  c.logical_xor_(g);
  d.logical_not_();
  auto l = longs({0, 3, -2, 0});
  l.logical_not_();
  auto m = bools({1, 0, 1, 0});
  m.logical_xor_(bools({1, 1, 0, 0}));
  return {a, b, c, d, l, m};
}
DIFF_CASE(breadth_logical_in_place_broadcast_errors) {
  auto a = bools({1, 0});
  a.logical_and_(bools({1, 0, 1, 0}).view({2, 2}));
  return a;
}
DIFF_CASE(breadth_remainder_operator) {
  auto a = longs({-7, -1, 0, 3, 12, 1023}), b = longs({5, -2, 9, 6, 10, 255});
  auto f = wave({6}, 5.0, 0.3);
  return {a % b, a % 4, f % 1.5, f % wave({6}, 2.0, 1.1), 7 % b, 2.5 % b, 2.5 % f.abs().clamp_min(0.5)};
}

// --- checking macros, dispatch, type(), IntArrayRef ----------------------------------------------
namespace {
/// 1 when `fn` throws an `E` whose message is `expected`, 2 when it throws E with another
/// message, 0 when it does not throw an E.
template <class E, class Fn> double throws_with(Fn fn, const std::string& expected) {
  try {
    fn();
  } catch (const E& e) {
    return e.msg() == expected ? 1 : 2;
  }
  return 0;
}
}  // namespace
DIFF_CASE(breadth_torch_check_family) {
  const auto x = torch::zeros({2, 3});
  const auto sizes = x.sizes();
  const int line = __LINE__ + 3;  // the TORCH_INTERNAL_ASSERT below
  const std::string assert_at = std::string(" INTERNAL ASSERT FAILED at \"") + __FILE__ + "\":";
  return {S{throws_with<c10::Error>([&] { TORCH_CHECK(sizes.size() == 3, "got ", 1.5, " and ", sizes); }, "got 1.5 and [2, 3]")},
          S{throws_with<c10::Error>([&] { TORCH_INTERNAL_ASSERT(sizes[0] == 3, "why ", 4); },
                                    "sizes[0] == 3" + assert_at + std::to_string(line) + ", please report a bug to PyTorch. why 4")},
          S{throws_with<c10::ValueError>([] { TORCH_CHECK_VALUE(false, "v ", 1); }, "v 1")},
          S{throws_with<c10::IndexError>([] { TORCH_CHECK_INDEX(false, "i ", 2); }, "i 2")},
          S{throws_with<c10::TypeError>([] { TORCH_CHECK_TYPE(false, "t"); }, "t")},
          S{throws_with<c10::NotImplementedError>([] { TORCH_CHECK_NOT_IMPLEMENTED(false, "n"); }, "n")},
          S{throws_with<c10::Error>([] { TORCH_CHECK_ARG(false, 2, "arg"); }, "invalid argument 2: arg")},
          S{throws_with<c10::Error>([] { AT_ERROR("bad ", 3, " boxes"); }, "bad 3 boxes")},
          S{throws_with<c10::Error>([] { TORCH_CHECK(1 > 2); },
                                    "Expected 1 > 2 to be true, but got false.  (Could this error message be improved?  "
                                    "If so, please report an enhancement request to PyTorch.)")},
          S{throws_with<c10::Error>([] { TORCH_CHECK(2 > 1, "never"); }, "")}};
}
DIFF_CASE(breadth_at_error_errors) {
  AT_ERROR("unsupported box format ", 5);
  return torch::zeros({1});
}
// LibTorch's TORCH_CHECK_EQ is glog's fatal check: it aborts the process (a crash on both sides).
DIFF_CASE(breadth_torch_check_eq_aborts) {
  TORCH_CHECK_EQ(torch::zeros({2, 3}).size(1), 4) << "boxes are (x1, y1, x2, y2)";
  return torch::zeros({1});
}
DIFF_CASE(breadth_torch_check_ops_pass) {
  TORCH_CHECK_EQ(torch::zeros({2, 3}).size(1), 3) << "never printed";
  TORCH_CHECK_NE(1, 2);
  TORCH_CHECK_LE(2, 2);
  TORCH_CHECK_LT(1, 2);
  TORCH_CHECK_GE(2, 2);
  TORCH_CHECK_GT(3, 2);
  TORCH_INTERNAL_ASSERT(true);
  return torch::ones({1});
}
namespace {
/// A kernel written the way extension code writes one: a loop over data_ptr<scalar_t>().
template <class T> torch::Tensor clip_boxes(const torch::Tensor& boxes, T hi) {
  auto out = boxes.contiguous().clone();
  T* p = out.data_ptr<T>();
  for (int64_t i = 0; i < out.numel(); ++i) p[i] = p[i] < T(0) ? T(0) : (p[i] > hi ? hi : p[i]);
  return out;
}
}  // namespace
DIFF_CASE(breadth_at_dispatch) {
  std::vector<torch::Tensor> out;
  for (auto dt : {torch::kFloat, torch::kDouble, torch::kInt, torch::kLong}) {
    auto boxes = (wave({3, 4}, 8.0, 0.2)).to(dt);
    out.push_back(AT_DISPATCH_ALL_TYPES(boxes.scalar_type(), "clip_boxes",
                                        [&] { return clip_boxes<scalar_t>(boxes, scalar_t(5)); }));
  }
  auto f = wave({5}, 3.0, 0.4);
  AT_DISPATCH_FLOATING_TYPES(f.scalar_type(), "scale", [&] { f.mul_(static_cast<double>(sizeof(scalar_t))); });
  out.push_back(f);
  auto g = wave({4}, 2.0, 0.9).to(torch::kDouble);
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(g.scalar_type(), "half_too", [&] { g.add_(static_cast<double>(sizeof(scalar_t))); });
  out.push_back(g);
  auto m = bools({1, 0, 1});
  out.push_back(AT_DISPATCH_ALL_TYPES_AND(torch::kBool, m.scalar_type(), "count",
                                          [&] { return torch::tensor({static_cast<int64_t>(sizeof(scalar_t))}); }));
  out.push_back(AT_DISPATCH_INTEGRAL_TYPES(torch::kLong, "bits", [&] {
    return torch::tensor({static_cast<int64_t>(8 * sizeof(scalar_t))});
  }));
  out.push_back(AT_DISPATCH_FLOATING_TYPES_AND(torch::kLong, torch::kLong, "and_long", [&] {
    return torch::tensor({static_cast<int64_t>(sizeof(scalar_t))});
  }));
  return out;
}
DIFF_CASE(breadth_at_dispatch_unsupported_errors) {
  auto x = longs({1, 2});
  return AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "roi_align_forward", [&] { return x.to(torch::kFloat); });
}
// x.type() is deprecated in LibTorch (a warning there); old detection code still calls it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
DIFF_CASE(breadth_tensor_type) {
  auto x = wave({2, 3}, 1.0, 0.1), y = x.to(torch::kDouble), z = torch::ones({4});
  const auto& t = x.type();
  return {S{static_cast<double>(t == z.type())}, S{static_cast<double>(x.type() != y.type())},
          S{static_cast<double>(t.scalarType() == torch::kFloat)}, S{static_cast<double>(t.toString() == "CPUFloatType")},
          S{static_cast<double>(y.type().toString() == "CPUDoubleType")}, S{static_cast<double>(t.is_cuda())},
          torch::zeros({2}, y.type().options()), z.to(y.type().scalarType())};
}
#pragma GCC diagnostic pop
DIFF_CASE(breadth_int_array_ref_slice) {
  auto x = torch::zeros({2, 3, 4, 5});  // sizes() views x's shape: x must outlive it
  auto sizes = x.sizes();
  auto tail = sizes.slice(1), mid = sizes.slice(1, 2);
  return {torch::tensor(tail.vec()), torch::tensor(mid.vec()), S{static_cast<double>(sizes.at(3))},
          S{static_cast<double>(mid.size())}, S{static_cast<double>(sizes.slice(4).size())}};
}
DIFF_CASE(breadth_int_array_ref_slice_errors) {
  auto x = torch::zeros({2, 3, 4});  // sizes() views x's shape: x must outlive it
  auto sizes = x.sizes();
  return torch::tensor(sizes.slice(2, 5).vec());
}
DIFF_CASE(breadth_int_array_ref_at_errors) {
  auto x = torch::zeros({2, 3, 4});  // sizes() views x's shape: x must outlive it
  auto sizes = x.sizes();
  return S{static_cast<double>(sizes.at(3))};
}
DIFF_CASE(breadth_scalar_value_type_and_optional) {
  static_assert(std::is_same_v<c10::scalar_value_type<float>::type, float>);
  static_assert(std::is_same_v<c10::scalar_value_type<double>::type, double>);
  c10::optional<int64_t> dim = c10::nullopt;
  at::optional<double> scale = at::nullopt;
  torch::optional<torch::Tensor> mask = torch::nullopt;
  c10::OptionalIntArrayRef size = c10::nullopt;
  double present = dim.has_value() + scale.has_value() + mask.has_value() + size.has_value();
  dim = 1;
  return {S{present}, S{static_cast<double>(dim.value_or(0))}, S{static_cast<double>(torch::cuda::device_count() >= 0)}};
}

// --- ops: index_copy, index_fill, split_with_sizes, median, upsample_nearest1d -------------------
// `x[t]` with a 0-d tensor, as post-processing reads a box at a position it holds; LibTorch
// refuses any other tensor.
DIFF_CASE(breadth_subscript_by_tensor) {
  auto x = wave({4, 3}, 1.0, 0.1);
  auto order = longs({2, 0, 3});
  return {x[order[0]], x[order[0]][1], x[ints({1, 3})[1]], x[order[2] - 4]};
}
DIFF_CASE(breadth_subscript_by_tensor_out_of_range_errors) { return wave({4, 3}, 1.0, 0.1)[longs({5, 0})[0]]; }
DIFF_CASE(breadth_subscript_by_positions_errors) { return wave({4, 3}, 1.0, 0.1)[longs({2, 0})]; }
DIFF_CASE(breadth_subscript_by_bool_errors) { return wave({4, 3}, 1.0, 0.1)[bools({1, 0})[0]]; }
DIFF_CASE(breadth_subscript_by_float_errors) { return wave({4, 3}, 1.0, 0.1)[wave({2}, 1.0, 0.1)[0]]; }

DIFF_CASE(breadth_index_copy) {
  auto x = wave({4, 3}, 1.0, 0.2), src = wave({2, 3}, 5.0, 0.9);
  auto i = longs({3, 0});
  auto y = x.clone();
  y.index_copy_(1, longs({2, 0, 1}), wave({4, 3}, 7.0, 0.1));
  auto l = longs({0, 1, 2, 3, 4, 5}).view({2, 3});
  return {x.index_copy(0, i, src), torch::index_copy(x, -2, i, src), y, l.index_copy(1, longs({1}), longs({-7, -8}).view({2, 1})),
          torch::zeros({3}).index_copy(0, torch::tensor(1), torch::tensor(5.0f)),
          torch::zeros({}).index_copy(0, longs({0}), torch::tensor({5.0f})),
          bools({0, 0, 0}).index_copy(0, longs({2}), bools({1}))};
}
DIFF_CASE(breadth_index_copy_backward) {
  auto x = wave({4, 3}, 1.0, 0.2).requires_grad_(), src = wave({2, 3}, 5.0, 0.9).requires_grad_();
  auto w = wave({4, 3}, 1.0, 1.7);
  (x.index_copy(0, longs({3, 0}), src) * w).sum().backward();
  return {x.grad(), src.grad()};
}
DIFF_CASE(breadth_index_copy_int_index_errors) { return wave({3, 4}, 1.0, 0.1).index_copy(0, ints({2, 0}), torch::ones({2, 4})); }
DIFF_CASE(breadth_index_copy_2d_index_errors) {
  return wave({3, 4}, 1.0, 0.1).index_copy(0, longs({2, 0}).view({1, 2}), torch::ones({2, 4}));
}
DIFF_CASE(breadth_index_copy_dtype_errors) {
  return wave({3, 4}, 1.0, 0.1).index_copy(0, longs({2, 0}), torch::ones({2, 4}, torch::kDouble));
}
DIFF_CASE(breadth_index_copy_count_errors) { return wave({3, 4}, 1.0, 0.1).index_copy(0, longs({2, 0}), torch::ones({3, 4})); }
DIFF_CASE(breadth_index_copy_slice_errors) { return wave({3, 4}, 1.0, 0.1).index_copy(0, longs({2, 0}), torch::ones({2, 3})); }
DIFF_CASE(breadth_index_copy_rank_errors) { return wave({3, 4}, 1.0, 0.1).index_copy(0, longs({2, 0}), torch::ones({8})); }
DIFF_CASE(breadth_index_copy_scalar_source_errors) {
  return torch::zeros({3}).index_copy(0, longs({1, 2}), torch::tensor(5.0f));
}
DIFF_CASE(breadth_index_copy_out_of_bounds_errors) { return wave({3, 4}, 1.0, 0.1).index_copy(0, longs({5, 0}), torch::ones({2, 4})); }
DIFF_CASE(breadth_index_copy_negative_index_errors) {
  return wave({3, 4}, 1.0, 0.1).index_copy(0, longs({-1, 0}), torch::ones({2, 4}));
}
DIFF_CASE(breadth_index_copy_dim_errors) { return wave({3, 4}, 1.0, 0.1).index_copy(2, longs({0}), torch::ones({3, 1})); }
DIFF_CASE(breadth_index_fill) {
  auto x = wave({3, 4}, 2.0, 0.3);
  auto i = longs({2, 0});
  auto y = x.clone();
  y.index_fill_(0, longs({1}), torch::tensor(-3.5f)).index_fill_(1, longs({-1}), 9);
  return {x.index_fill(1, i, -1), x.index_fill(1, i, torch::tensor(7.5)), torch::index_fill(x, 0, longs({2}), 0.25), y,
          longs({0, 1, 2, 3, 4, 5}).view({2, 3}).index_fill(1, i, 2.5),
          longs({0, 1, 2, 3, 4, 5}).view({2, 3}).index_fill(1, i, torch::tensor(2.5)),
          bools({0, 0, 0, 1}).index_fill(0, longs({0, 2}), 2), torch::zeros({}).index_fill(0, torch::tensor(0), 3)};
}
DIFF_CASE(breadth_index_fill_backward) {
  auto x = wave({3, 4}, 2.0, 0.3).requires_grad_(), v = torch::tensor(1.5f).requires_grad_();
  (x.index_fill(1, longs({2, 0}), v) * wave({3, 4}, 1.0, 2.1)).sum().backward();
  return {x.grad(), v.grad()};
}
DIFF_CASE(breadth_index_fill_1d_value_errors) { return wave({3, 4}, 1.0, 0.1).index_fill(1, longs({0}), torch::tensor({7.5f})); }
DIFF_CASE(breadth_index_fill_int_index_errors) { return wave({3, 4}, 1.0, 0.1).index_fill(1, ints({0}), 1); }
DIFF_CASE(breadth_index_fill_2d_index_errors) { return wave({3, 4}, 1.0, 0.1).index_fill(1, longs({0, 1}).view({1, 2}), 1); }
DIFF_CASE(breadth_index_fill_out_of_bounds_errors) { return wave({3, 4}, 1.0, 0.1).index_fill(1, longs({-5}), 1); }
DIFF_CASE(breadth_split_with_sizes) {
  auto x = torch::arange(10).view({2, 5});
  auto parts = x.split_with_sizes({2, 0, 3}, 1);
  auto rows = torch::split_with_sizes(x, {1, 1});
  return {parts[0], parts[1], parts[2], rows[0], rows[1], x.split_with_sizes({5}, -1)[0]};
}
DIFF_CASE(breadth_split_with_sizes_sum_errors) { return torch::arange(10).view({2, 5}).split_with_sizes({2, 2}, 1)[0]; }
DIFF_CASE(breadth_split_with_sizes_negative_errors) { return torch::arange(10).view({2, 5}).split_with_sizes({6, -1}, 1)[0]; }
DIFF_CASE(breadth_median) {
  auto x = wave({3, 5}, 4.0, 0.3), e = wave({2, 4}, 4.0, 1.3);
  auto nan = torch::tensor({1.0f, NAN, 2.0f, NAN, 5.0f}), l = longs({7, -2, 9, 4, 0, 3});
  auto [v0, i0] = x.median(0);
  auto [v1, i1] = torch::median(x, 1, /*keepdim=*/true);
  auto [ve, ie] = e.median(-1);
  auto [vn, in] = nan.median(0);
  auto [vl, il] = l.view({2, 3}).median(1);
  auto [vs, is] = torch::tensor(3.0).median(0);
  return {x.median(), torch::median(e), v0, i0, v1, i1, ve, ie, nan.median(), vn, in, l.median(), vl, il, vs, is,
          torch::zeros({0}).median(), std::get<0>(torch::zeros({0, 3}).median(1))};
}
DIFF_CASE(breadth_median_backward) {
  auto x = wave({3, 5}, 4.0, 0.3).requires_grad_();
  auto ties = torch::tensor({2.0f, 1.0f, 2.0f, 3.0f, 2.0f}).requires_grad_();
  auto y = wave({3, 5}, 4.0, 0.8).requires_grad_();
  x.median().backward();
  ties.median().backward();
  std::get<0>(y.median(1)).sum().backward();
  return {x.grad(), ties.grad(), y.grad()};
}
DIFF_CASE(breadth_median_bool_errors) { return bools({1, 0, 1}).median(); }
DIFF_CASE(breadth_median_dim_bool_errors) { return std::get<0>(bools({1, 0, 1}).median(0)); }
DIFF_CASE(breadth_median_empty_dim_errors) { return std::get<0>(torch::zeros({0, 3}).median(0)); }
DIFF_CASE(breadth_median_dim_range_errors) { return std::get<0>(wave({3, 4}, 1.0, 0.1).median(2)); }
DIFF_CASE(breadth_upsample_nearest1d) {
  auto u = wave({2, 3, 5}, 2.0, 0.4);
  return {torch::upsample_nearest1d(u, {11}), torch::upsample_nearest1d(u, at::IntArrayRef{7}, 2.0),
          torch::upsample_nearest1d(u, {2}), torch::upsample_nearest1d(u.to(torch::kDouble), {5}),
          torch::upsample_nearest1d(u, {3})};
}
DIFF_CASE(breadth_upsample_nearest1d_backward) {
  auto u = wave({1, 2, 3}, 2.0, 0.4).requires_grad_();
  (torch::upsample_nearest1d(u, {7}) * wave({1, 2, 7}, 1.0, 0.5)).sum().backward();
  return u.grad();
}
DIFF_CASE(breadth_upsample_nearest1d_zero_errors) { return torch::upsample_nearest1d(wave({1, 2, 3}, 1.0, 0.1), {0}); }
DIFF_CASE(breadth_upsample_nearest1d_rank_errors) { return torch::upsample_nearest1d(wave({2, 3}, 1.0, 0.1), {4}); }
DIFF_CASE(breadth_upsample_nearest1d_long_errors) {
  return torch::upsample_nearest1d(longs({1, 2, 3}).view({1, 1, 3}), {4});
}
DIFF_CASE(breadth_upsample_nearest1d_size_errors) {
  return torch::upsample_nearest1d(wave({1, 2, 3}, 1.0, 0.1), {4, 5});
}

// --- at::parallel_for, c10::irange ----------------------------------------------------------------
DIFF_CASE(breadth_parallel_for_and_irange) {
  auto boxes = wave({257, 4}, 10.0, 0.3).abs();
  auto areas = torch::empty({257});
  const float* b = boxes.data_ptr<float>();
  float* a = areas.data_ptr<float>();
  at::parallel_for(0, 257, /*grain_size=*/16, [&](int64_t begin, int64_t end) {
    for (const auto i : c10::irange(begin, end)) a[i] = (b[4 * i + 2] + b[4 * i]) * (b[4 * i + 3] + b[4 * i + 1]);
  });
  int64_t count = 0, sum = 0;
  for (const auto i : c10::irange(5)) sum += i;
  for (const auto i : c10::irange(3, 3)) count += i + 1;  // empty
  for (const auto i : c10::irange(int64_t(2), -1)) count += i + 1;  // empty: end before begin
  double calls = 0;
  at::parallel_for(5, 5, 1, [&](int64_t, int64_t) { calls += 1; });  // an empty range: never called
  return {areas, S{static_cast<double>(sum)}, S{static_cast<double>(count)}, S{calls}};
}
DIFF_CASE(breadth_parallel_for_rethrows_errors) {
  at::parallel_for(0, 1000, 10, [&](int64_t begin, int64_t end) {
    TORCH_CHECK(!(begin <= 500 && 500 < end), "bad box at 500");
  });
  return torch::zeros({1});
}

// --- samplers with save / load (torch/data/samplers/base.h, torch/serialize/archive.h) --------------
namespace {
/// Visits the even positions, then the odd ones, as detection code's grouped samplers reorder
/// images; its position is what it saves.
class EvenOddSampler : public torch::data::samplers::Sampler<> {
 public:
  explicit EvenOddSampler(size_t size) : size_(size) {}
  void reset(torch::optional<size_t> new_size) override {
    if (new_size) size_ = *new_size;
    pos_ = 0;
  }
  torch::optional<std::vector<size_t>> next(size_t batch_size) override {
    std::vector<size_t> batch;
    while (batch.size() < batch_size && pos_ < size_) {
      const size_t evens = (size_ + 1) / 2;
      batch.push_back(pos_ < evens ? 2 * pos_ : 2 * (pos_ - evens) + 1);
      ++pos_;
    }
    if (batch.empty()) return torch::nullopt;
    return batch;
  }
  void save(torch::serialize::OutputArchive& archive) const override {
    archive.write("pos", torch::tensor(static_cast<int64_t>(pos_)), /*is_buffer=*/true);
  }
  void load(torch::serialize::InputArchive& archive) override {
    auto pos = torch::empty({}, torch::kLong);
    archive.read("pos", pos, /*is_buffer=*/true);
    pos_ = static_cast<size_t>(pos.item<int64_t>());
  }

 private:
  size_t size_;
  size_t pos_ = 0;
};

torch::Tensor as_tensor(const torch::optional<std::vector<size_t>>& batch) {
  std::vector<int64_t> v;
  if (batch)
    for (size_t i : *batch) v.push_back(static_cast<int64_t>(i));
  return torch::tensor(v, torch::kLong);
}
}  // namespace
DIFF_CASE(breadth_sampler_save_load) {
  EvenOddSampler sampler(9);
  auto first = sampler.next(4);
  torch::serialize::OutputArchive out;
  sampler.save(out);
  std::stringstream buffer;
  out.save_to(buffer);
  torch::serialize::InputArchive in;
  in.load_from(buffer);
  EvenOddSampler restored(9);
  restored.load(in);

  torch::data::samplers::SequentialSampler seq(7);
  seq.next(3);
  torch::serialize::OutputArchive seq_out;
  seq_out << seq;
  std::stringstream seq_buffer;
  seq_out.save_to(seq_buffer);
  torch::serialize::InputArchive seq_in;
  seq_in.load_from(seq_buffer);
  torch::data::samplers::SequentialSampler seq_restored(7);
  seq_in >> seq_restored;
  return {as_tensor(first), as_tensor(restored.next(10)), as_tensor(restored.next(1)), as_tensor(seq_restored.next(10))};
}
DIFF_CASE(breadth_archive_missing_key_errors) {
  torch::serialize::OutputArchive out;
  out.write("pos", torch::tensor(static_cast<int64_t>(3)));
  std::stringstream buffer;
  out.save_to(buffer);
  torch::serialize::InputArchive in;
  in.load_from(buffer);
  auto t = torch::empty({}, torch::kLong);
  in.read("position", t);
  return t;
}

// --- the deprecated accessors old detection kernels use ------------------------------------------
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
DIFF_CASE(breadth_deprecated_data_and_device) {
  auto boxes = wave({3, 4}, 5.0, 0.2).contiguous();
  const float* p = boxes.data<float>();
  double sum = 0;
  for (int64_t i = 0; i < boxes.numel(); ++i) sum += p[i];
  return {S{sum}, S{static_cast<double>(boxes.get_device())}, S{static_cast<double>(boxes.is_variable())},
          S{static_cast<double>(boxes.is_sparse())}};
}
DIFF_CASE(breadth_deprecated_data_dtype_errors) {
  auto boxes = wave({3, 4}, 5.0, 0.2);
  return S{static_cast<double>(boxes.data<double>()[0])};
}
#pragma GCC diagnostic pop

// --- names the second survey of public code found missing (docs/compat.md) ---------------------
DIFF_CASE(breadth_functional_module_in_sequential) {
  torch::nn::Sequential net(torch::nn::Linear(4, 3), torch::nn::Functional(torch::relu),
                            torch::nn::Functional(torch::leaky_relu, 0.2),
                            torch::nn::Functional(torch::dropout, 0.5, /*train=*/false));
  diff::model_inputs::fix_model(*net);
  torch::nn::Functional square([](torch::Tensor x) { return x * x; });
  const auto x = wave({2, 4}, 1.0, 0.3);
  return {net->forward(x), square(x), S{static_cast<double>(net->parameters().size())},
          S{static_cast<double>(square->parameters().size())}};
}
DIFF_CASE(breadth_expanding_array_empty_braces_errors) {
  torch::ExpandingArray<2> stride{};
  return S{static_cast<double>((*stride)[0])};
}
DIFF_CASE(breadth_c10_dtype_constants_and_gpus) {
  const auto x = torch::ones({2}, c10::TensorOptions().dtype(c10::kFloat));
  return {x.to(c10::kLong), x.to(c10::kByte), x.to(c10::kDouble), S{static_cast<double>(torch::getNumGPUs())},
          S{static_cast<double>(at::getNumGPUs())}};
}
DIFF_CASE(breadth_interop_threads) {
  const bool positive_default = torch::get_num_interop_threads() > 0;
  torch::set_num_interop_threads(3);
  double second = throws_with<c10::Error>([] { torch::set_num_interop_threads(4); },
                                          "Error: cannot set number of interop threads after parallel work has "
                                          "started or set_num_interop_threads called");
  return {S{static_cast<double>(positive_default)}, S{static_cast<double>(torch::get_num_interop_threads())},
          S{second}};
}
DIFF_CASE(breadth_interop_threads_zero_errors) {
  torch::set_num_interop_threads(0);
  return S{0.0};
}

// --- names the second survey's failing TUs use (after the TorchScript stand-in) -----------------
DIFF_CASE(breadth_min_max_of_other_tensor) {
  auto a = wave({2, 3}, 1.0, 0.0), b = wave({2, 3}, 1.0, 0.1), lengths = longs({5, 9, 2});
  return {a.min(b), a.max(b), lengths.min(longs({4})), lengths.max(longs({3, 10, 1}))};
}
DIFF_CASE(breadth_linear_optional_bias) {
  auto x = wave({2, 3}, 1.0, 0.2), w = wave({4, 3}, 1.0, 0.3), bias = wave({4}, 1.0, 0.4);
  c10::optional<torch::Tensor> some = bias;
  return {at::linear(x, w, c10::optional<torch::Tensor>()), at::linear(x, w, some), torch::linear(x, w, bias)};
}
DIFF_CASE(breadth_stack_and_cat_of_one_tensor) {
  auto t = wave({2, 3}, 1.0, 0.5);
  return {torch::stack(t), torch::stack(t, 1), torch::cat(t), torch::cat(t, 1)};
}
DIFF_CASE(breadth_device_keyed_map) {
  std::unordered_map<torch::Device, torch::Tensor> cache;
  cache[torch::Device("cpu")] = wave({2}, 1.0, 0.6);
  cache.emplace(torch::Device(torch::kCPU, 0), wave({3}, 1.0, 0.7));
  return {cache.at(torch::Device("cpu")), cache.at(torch::Device("cpu:0")), S{double(cache.size())}};
}
DIFF_CASE(breadth_context_fp16_reduction_and_has_cuda) {
  const bool default_fp16 = at::globalContext().allowFP16ReductionCuBLAS();
  at::globalContext().setAllowFP16ReductionCuBLAS(false);
  const bool set_fp16 = at::globalContext().allowFP16ReductionCuBLAS();
  at::globalContext().setAllowFP16ReductionCuBLAS(true);
  return {S{double(default_fp16)}, S{double(set_fp16)}, S{double(torch::hasCUDA())}, S{double(at::hasCUDA())}};
}
