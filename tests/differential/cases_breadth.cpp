// Differential cases for issue #34 ("runtime breadth, round 2"): the names that real detection,
// segmentation and decoding code uses and the shim lacked — the bitwise and logical operators on
// bool and integer tensors (`& | ^ ~ %`, their in-place and Scalar forms), LibTorch's checking and
// dispatch macros, Tensor::type(), and the indexing, splitting and median ops. Inputs are host
// formulas (model_inputs.h), so both dumpers see identical data.
#include "dump_main.h"
#include "model_inputs.h"

#include <cstdint>
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
