// Op semantics against hand-computed LibTorch results, plus the op-table consistency check.
#include "TestUtil.h"

#include <cmath>
#include <limits>

using namespace gfy;
using namespace gfy::testing;
using namespace gfy::indexing;

TEST(OpTable, EveryOpHasACpuKernelAndName) {
  Backend &cpu = backend_for(kCPU);
  std::set<std::string> names;
  for (int i = 0; i < kNumOps; ++i) {
    const OpId op = OpId(i);
    bool any_dtype = false;
    for (ScalarType t : {kBool, kByte, kChar, kShort, kInt, kLong, kFloat, kDouble}) any_dtype = any_dtype || cpu.supports(op, t);
    EXPECT_TRUE(any_dtype) << op_name(op);
    names.insert(std::string(op_name(op)));
  }
  EXPECT_EQ(names.size(), size_t(kNumOps));
  EXPECT_FALSE(cpu.supports(OpId::exp, kLong));
  EXPECT_TRUE(cpu.supports(OpId::mm, kFloat));
  // Floating functions have float kernels only (the front-end promotes integers); the division
  // family has integer kernels but none for bool, as LibTorch.
  EXPECT_FALSE(cpu.supports(OpId::sin, kLong));
  EXPECT_TRUE(cpu.supports(OpId::sin, kDouble));
  EXPECT_TRUE(cpu.supports(OpId::floor_divide, kInt));
  EXPECT_FALSE(cpu.supports(OpId::remainder, kBool));
  EXPECT_EQ(op_name(OpId::floor_divide), "floor_divide");
  // The CUDA backend registers itself only where a device exists (scripts/gpu-check machines).
}

TEST(Elementwise, Math) {
  Tensor x = tensor({-1.f, 0.f, 4.f});
  EXPECT_VALUES(abs(x), {1, 0, 4});
  EXPECT_VALUES(-x, {1, -0.0, -4});
  EXPECT_VALUES(relu(x), {0, 0, 4});
  EXPECT_VALUES(sqrt(tensor({4.f, 9.f})), {2, 3});
  expect_near(rsqrt(tensor({4.f})), {0.5});
  expect_near(exp(x), {std::exp(-1.0), 1, std::exp(4.0)}, 1e-4);
  expect_near(log(tensor({1.f, 2.f})), {0, std::log(2.0)});
  expect_near(sigmoid(x), {1 / (1 + std::exp(1.0)), 0.5, 1 / (1 + std::exp(-4.0))});
  expect_near(tanh(tensor({-3.f, -0.01f, 0.f, 0.2f, 10.f})),
              {std::tanh(-3.0), std::tanh(-0.01), 0, std::tanh(0.2), 1.0}, 1e-6);
  expect_near(gelu(tensor({1.f})), {0.8413447});
  expect_near(gelu(tensor({1.f}), "tanh"), {0.8411920});
  EXPECT_VALUES(pow(tensor({2.f, 3.f}), 2), {4, 9});
  EXPECT_VALUES(pow(arange(4), 2), {0, 1, 4, 9});
  EXPECT_VALUES(pow(2, arange(3)), {1, 2, 4});
  EXPECT_VALUES(x.clamp(0, 1), {0, 0, 1});
  EXPECT_VALUES(clamp_min(x, 0.5), {0.5, 0.5, 4});
  EXPECT_VALUES(clamp_max(x, 0), {-1, 0, 0});
  EXPECT_VALUES(add(x, x, 2), {-3, 0, 12});
  EXPECT_VALUES(10 - x, {11, 10, 6});
  EXPECT_VALUES(1 / tensor({2.f, 4.f}), {0.5, 0.25});
  EXPECT_VALUES(maximum(x, zeros({3})), {0, 0, 4});
  EXPECT_VALUES(minimum(x, zeros({3})), {-1, 0, 0});
  EXPECT_TRUE(std::isnan(exp(tensor({NAN})).item<float>()));
  EXPECT_VALUES(isnan(tensor({NAN, 1.f})), {1, 0});
}

TEST(Elementwise, DivisionFamilyRounding) {
  // LibTorch 1.13: floor_divide floors (it truncated before 1.13), remainder takes the divisor's
  // sign, fmod the dividend's; an integer zero divisor throws.
  Tensor a = tensor({-7, 7, -7, 7}), b = tensor({2, -2, -2, 2});
  EXPECT_LONGS(floor_divide(a, b), {-4, -4, 3, 3});
  EXPECT_LONGS(remainder(a, b), {1, -1, -1, 1});
  EXPECT_LONGS(fmod(a, b), {-1, 1, -1, 1});
  EXPECT_VALUES(floor_divide(tensor({-7.5f, 0.3f}), tensor({2.f, 0.1f})), {-4, 3});
  EXPECT_THROW(fmod(a, zeros({4}, kLong)), Error);
}

TEST(Elementwise, LogicalAndComparisons) {
  Tensor a = tensor({1, 2, 3}), b = tensor({3, 2, 1});
  EXPECT_VALUES(a < b, {1, 0, 0});
  EXPECT_VALUES(a <= b, {1, 1, 0});
  EXPECT_VALUES(a > b, {0, 0, 1});
  EXPECT_VALUES(a >= 2, {0, 1, 1});
  EXPECT_VALUES(a == b, {0, 1, 0});
  EXPECT_VALUES(a != 2, {1, 0, 1});
  EXPECT_VALUES(2 < a, {0, 0, 1});
  Tensor m = a > 1, n = a < 3;
  EXPECT_VALUES(m & n, {0, 1, 0});
  EXPECT_VALUES(m | n, {1, 1, 1});
  EXPECT_VALUES(~m, {1, 0, 0});
  EXPECT_VALUES(logical_not(a - 2), {0, 1, 0});
  EXPECT_VALUES(logical_and(m, n), {0, 1, 0});
  EXPECT_VALUES(logical_or(m, n), {1, 1, 1});
  EXPECT_VALUES(a & 1, {1, 0, 1});
  EXPECT_VALUES(~tensor({0, 1}), {-1, -2});
}

TEST(Elementwise, WhereAndMaskedFill) {
  Tensor x = tensor({-1.f, 2.f, -3.f});
  EXPECT_VALUES(where(x > 0, x, zeros_like(x)), {0, 2, 0});
  EXPECT_VALUES(where(x > 0, x, 0), {0, 2, 0});
  EXPECT_VALUES(where(x > 0, 1, x), {-1, 1, -3});
  EXPECT_VALUES(where(x > 0, 1.0, 0.0), {0, 1, 0});
  // A 0-d condition broadcasts: the seed's traceable `where(x.sum() > 0, x * 2, x + 2)`.
  EXPECT_VALUES(where(x.sum() > 0, x * 2, x + 2), {1, 4, -1});
  EXPECT_VALUES(x.masked_fill(x < 0, 0), {0, 2, 0});
  EXPECT_VALUES(masked_fill(x, x < 0, tensor(5.f)), {5, 2, 5});
  Tensor y = zeros({2, 2});
  y.masked_fill_(tensor({true, false}), 1);
  EXPECT_VALUES(y, {1, 0, 1, 0});
}

TEST(Reductions, FullAndDims) {
  Tensor x = arange(6, dtype(kFloat)).view({2, 3});
  EXPECT_EQ(x.sum().item<float>(), 15.f);
  EXPECT_VALUES(x.sum(0), {3, 5, 7});
  EXPECT_VALUES(x.sum({1}), {3, 12});
  EXPECT_SHAPE(x.sum(1, true), {2, 1});
  EXPECT_SHAPE(x.sum({0, 1}), {});
  EXPECT_VALUES(x.mean(0), {1.5, 2.5, 3.5});
  EXPECT_EQ(x.mean().item<float>(), 2.5f);
  EXPECT_VALUES(x.prod(1), {0, 60});
  EXPECT_EQ(x.max().item<float>(), 5.f);
  EXPECT_EQ(x.min().item<float>(), 0.f);
  auto [mx, ix] = x.max(1);
  EXPECT_VALUES(mx, {2, 5});
  EXPECT_LONGS(ix, {2, 2});
  auto [mn, in] = x.min(0, true);
  EXPECT_SHAPE(mn, {1, 3});
  EXPECT_LONGS(in, {0, 0, 0});
  EXPECT_EQ(x.argmax().item<int64_t>(), 5);
  EXPECT_LONGS(x.argmax(0), {1, 1, 1});
  EXPECT_LONGS(argmin(x, 1), {0, 0});
  EXPECT_VALUES(x.amax(0), {3, 4, 5});
  EXPECT_TRUE((x > 4).any().item<bool>());
  EXPECT_FALSE((x > 4).all().item<bool>());
  EXPECT_VALUES((x > 0).all(1), {0, 1});
  EXPECT_VALUES((x > 4).any(0, true), {0, 0, 1});
  EXPECT_EQ(zeros({0}).sum().item<float>(), 0.f);
  EXPECT_EQ(tensor({true, true}).sum().item<int64_t>(), 2);
  EXPECT_VALUES(x.cumsum(1), {0, 1, 3, 3, 7, 12});
  EXPECT_VALUES(arange(4).cumsum(0), {0, 1, 3, 6});
  EXPECT_EQ(arange(4).cumsum(0).scalar_type(), kLong);
  EXPECT_TRUE(std::isnan(tensor({1.f, NAN}).max().item<float>()));
  EXPECT_EQ(tensor({-INFINITY}).max().item<float>(), -INFINITY);
  EXPECT_NEAR(ones({100000}).sum().item<float>(), 100000.f, 1e-3);
}

TEST(LinearAlgebra, MatmulFamily) {
  Tensor a = arange(6, dtype(kFloat)).view({2, 3}), b = arange(6, dtype(kFloat)).view({3, 2});
  EXPECT_VALUES(mm(a, b), {10, 13, 28, 40});
  EXPECT_VALUES(matmul(a, b), {10, 13, 28, 40});
  EXPECT_VALUES(mm(a, a.t()), {5, 14, 14, 50});            // transposed view: BLAS flag, no copy
  EXPECT_VALUES(mm(b.t(), b), {20, 26, 26, 35});
  EXPECT_VALUES(mm(a.slice(1, 0, 3, 2), b.slice(0, 0, 3, 2)), {8, 10, 20, 28}); // strided: copied
  EXPECT_VALUES(matmul(a, tensor({1.f, 1.f, 1.f})), {3, 12});
  EXPECT_VALUES(matmul(tensor({1.f, 1.f}), a), {3, 5, 7});
  EXPECT_EQ(matmul(tensor({1.f, 2.f}), tensor({3.f, 4.f})).item<float>(), 11.f);
  EXPECT_VALUES(addmm(ones({2}), a, b, 2, 1), {12, 15, 30, 42});
  Tensor ba = stack({a, a * 2}), bb = stack({b, b});
  EXPECT_VALUES(bmm(ba, bb).select(0, 1), {20, 26, 56, 80});
  EXPECT_SHAPE(matmul(ba, b), {2, 2, 2});
  EXPECT_SHAPE(matmul(zeros({4, 1, 2, 3}), zeros({5, 3, 2})), {4, 5, 2, 2});
  Tensor w = arange(6, dtype(kFloat)).view({2, 3}); // (out=2, in=3)
  EXPECT_VALUES(linear(ones({1, 3}), w, tensor({1.f, -1.f})), {4, 11});
  EXPECT_SHAPE(linear(ones({4, 5, 3}), w), {4, 5, 2});
  EXPECT_VALUES(mm(arange(4).view({2, 2}), arange(4).view({2, 2})), {2, 3, 6, 11});
  EXPECT_VALUES(mm(a.to(kDouble), b.to(kDouble)), {10, 13, 28, 40});
}

TEST(Shape, CatStackSplit) {
  Tensor a = arange(4).view({2, 2}), b = arange(4, 6).view({1, 2});
  EXPECT_VALUES(cat({a, b}), {0, 1, 2, 3, 4, 5});
  EXPECT_SHAPE(cat({a, a}, 1), {2, 4});
  EXPECT_VALUES(cat({a, a}, -1).select(0, 1), {2, 3, 2, 3});
  EXPECT_SHAPE(stack({a, a}), {2, 2, 2});
  EXPECT_SHAPE(stack({a, a}, 2), {2, 2, 2});
  EXPECT_VALUES(stack({a, a}, 2).select(2, 1), {0, 1, 2, 3});
  EXPECT_EQ(chunk(arange(5), 2).size(), 2u);
  EXPECT_EQ(unbind(a).size(), 2u);
}

TEST(Indexing, AdvancedGatherScatter) {
  Tensor x = arange(12).view({3, 4});
  EXPECT_VALUES(x.index({tensor({2, 0})}), {8, 9, 10, 11, 0, 1, 2, 3});
  EXPECT_VALUES(x.index({Slice(), tensor({3, 0})}), {3, 0, 7, 4, 11, 8});
  EXPECT_VALUES(x.index({tensor({0, 2}), tensor({1, 3})}), {1, 11});
  EXPECT_VALUES(x.index({x > 9}), {10, 11});
  EXPECT_VALUES(x.index({tensor({true, false, true})}), {0, 1, 2, 3, 8, 9, 10, 11});
  EXPECT_SHAPE(x.index({tensor({0}).view({1, 1})}), {1, 1, 4});
  EXPECT_VALUES(x.index({tensor({-1})}), {8, 9, 10, 11});
  // Non-adjacent index tensors put the broadcast dims first, as LibTorch.
  Tensor y = arange(24).view({2, 3, 4});
  EXPECT_SHAPE(y.index({tensor({0, 1}), Slice(), tensor({0, 1})}), {2, 3});
  EXPECT_VALUES(y.index({tensor({0, 1}), Slice(), tensor({0, 1})}).select(0, 1), {13, 17, 21});
  EXPECT_VALUES(x.index_select(1, tensor({0, 0})), {0, 0, 4, 4, 8, 8});
  EXPECT_VALUES(x.gather(1, tensor({0, 3, 1}).view({3, 1})), {0, 7, 9});
  EXPECT_VALUES(zeros({2, 3}).scatter(1, tensor({2, 0}).view({2, 1}), 5), {0, 0, 5, 5, 0, 0});
  EXPECT_VALUES(zeros({3}, kLong).scatter(0, tensor({1, 2}), tensor({7, 8})), {0, 7, 8});
  Tensor z = zeros({3, 4});
  z.index_put_({tensor({0, 2})}, 1);
  EXPECT_VALUES(z.sum(1), {4, 0, 4});
  z.index_put_({z > 0}, -1);
  EXPECT_VALUES(z.sum(1), {-4, 0, -4});
  z.index_put_({Slice(), 0}, tensor({7.f, 8.f, 9.f}));
  EXPECT_VALUES(z.select(1, 0), {7, 8, 9});
  z.index_put_({tensor({1}), tensor({1})}, tensor({3.f}));
  EXPECT_EQ(z.index({1, 1}).item<float>(), 3.f);
  Tensor acc = zeros({4});
  acc.index_put_({tensor({1, 1, 3})}, tensor({1.f, 2.f, 5.f}), /*accumulate=*/true);
  EXPECT_VALUES(acc, {0, 3, 0, 5});
  EXPECT_VALUES(tensor({1.f, -2.f}).where(tensor({true, false}), 0), {1, 0});
  Tensor w = arange(6, dtype(kFloat)).view({3, 2});
  EXPECT_VALUES(embedding(w, tensor({2, 0, 2})), {4, 5, 0, 1, 4, 5});
  EXPECT_SHAPE(embedding(w, tensor({2, 0}).view({1, 2})), {1, 2, 2});
}

TEST(Indexing, DynamicOps) {
  Tensor x = tensor({0, 3, 0, 5});
  EXPECT_LONGS(nonzero(x), {1, 3});
  EXPECT_SHAPE(nonzero(x), {2, 1});
  EXPECT_LONGS(nonzero(tensor({1, 0, 0, 1}).view({2, 2})), {0, 0, 1, 1});
  EXPECT_VALUES(masked_select(x, x > 0), {3, 5});
  auto w = where(x > 0);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_LONGS(w[0], {1, 3});
  auto [u, inv, cnt] = unique_consecutive(tensor({1, 1, 2, 2, 2, 1}), true, true);
  EXPECT_VALUES(u, {1, 2, 1});
  EXPECT_LONGS(inv, {0, 0, 1, 1, 1, 2});
  EXPECT_LONGS(cnt, {2, 3, 1});
}

TEST(Sorting, SortArgsortTopk) {
  Tensor x = tensor({3.f, 1.f, 2.f, 1.f});
  auto [v, i] = x.sort();
  EXPECT_VALUES(v, {1, 1, 2, 3});
  EXPECT_LONGS(i, {1, 3, 2, 0});
  auto [vd, id] = sort(x, /*stable=*/true, 0, /*descending=*/true);
  EXPECT_VALUES(vd, {3, 2, 1, 1});
  EXPECT_LONGS(id, {0, 2, 1, 3});
  // The seed's partition: a stable argsort of the mask keeps the original order in each part.
  Tensor m = tensor({0.19f, -0.76f, 0.5f, -0.18f}) <= 0;
  EXPECT_LONGS(argsort(m.to(kInt), /*stable=*/true, 0), {0, 2, 1, 3});
  EXPECT_LONGS(argsort(tensor({3, 1, 2}).view({1, 3}), -1, true), {0, 2, 1});
  auto [tv, ti] = topk(tensor({1.f, 5.f, 3.f, 4.f}), 2);
  EXPECT_VALUES(tv, {5, 4});
  EXPECT_LONGS(ti, {1, 3});
  auto [sv, si] = topk(tensor({1.f, 5.f, 3.f}), 2, 0, /*largest=*/false);
  EXPECT_VALUES(sv, {1, 3});
  EXPECT_LONGS(arange(6).view({2, 3}).argsort(0, true), {1, 1, 1, 0, 0, 0});
}

TEST(Sorting, MedianIsTheLowerMiddleAndNanWins) {
  EXPECT_VALUES(median(tensor({1.f, 4.f, 2.f, 3.f})), {2});
  auto [v, i] = median(tensor({3.f, 1.f, 3.f, 1.f, 2.f, 2.f}), 0);
  EXPECT_VALUES(v, {2});
  EXPECT_LONGS(i, {4}); // the first of the tied middles, as LibTorch's kernel
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto [nv, ni] = median(tensor({1.f, nan, 2.f, nan, 5.f}), 0);
  EXPECT_TRUE(std::isnan(nv.item<float>()));
  EXPECT_LONGS(ni, {1}); // the first NaN
  auto [rv, ri] = tensor({7, -2, 9, 4, 0, 3}).view({2, 3}).median(1, /*keepdim=*/true);
  EXPECT_LONGS(rv, {7, 3});
  EXPECT_LONGS(ri, {0, 2});
  // The full median's gradient is shared by the elements equal to it.
  Tensor t = tensor({2.f, 1.f, 2.f, 3.f}).requires_grad_();
  t.median().backward();
  EXPECT_VALUES(t.grad(), {0.5, 0, 0.5, 0});
}

TEST(Indexing, IndexCopyIndexFill) {
  Tensor x = arange(12, kFloat).view({3, 4});
  EXPECT_VALUES(x.index_copy(0, tensor({2, 0}), ones({2, 4})), {1, 1, 1, 1, 4, 5, 6, 7, 1, 1, 1, 1});
  EXPECT_VALUES(x.index_fill(1, tensor({-1, 0}), -1), {-1, 1, 2, -1, -1, 5, 6, -1, -1, 9, 10, -1});
  EXPECT_LONGS(x.to(kLong).index_fill(1, tensor({1}), 2.5).select(0, 0), {0, 2, 2, 3});
  Tensor y = zeros({3});
  y.index_copy_(0, tensor(int64_t(1)), tensor(5.f));
  EXPECT_VALUES(y, {0, 5, 0});
}

TEST(Bitwise, OperatorsAndInPlace) {
  Tensor a = tensor({-7, 3, 12}), b = tensor({5, 6, 10});
  EXPECT_LONGS(a ^ b, {-4, 5, 6});
  EXPECT_LONGS(6 ^ a, {-1, 5, 10});
  Tensor c = a.clone();
  c &= b;
  c |= tensor({16});
  EXPECT_LONGS(c, {17, 18, 24});
  Tensor m = tensor({1, 0, 1}).to(kBool);
  EXPECT_LONGS((m ^ true).to(kLong), {0, 1, 0});
  Tensor f = tensor({0.f, 2.f, -1.f});
  f.logical_not_();
  EXPECT_VALUES(f, {1, 0, 0});
  EXPECT_LONGS(7 % tensor({4, -3}), {3, -2});
}

TEST(Types, DeprecatedTypeProperties) {
  Tensor x = zeros({2}), y = zeros({3}, kDouble);
  EXPECT_TRUE(x.type() == zeros({1}).type());
  EXPECT_TRUE(x.type() != y.type());
  EXPECT_EQ(x.type().scalarType(), kFloat);
  EXPECT_EQ(y.type().toString(), "CPUDoubleType");
  EXPECT_EQ(&x.type().toScalarType(kDouble), &y.type());
  EXPECT_EQ(zeros({1}, x.type().options()).scalar_type(), kFloat);
  Tensor z = zeros({2, 3, 4}); // sizes() views z's shape
  IntArrayRef s = z.sizes();
  EXPECT_EQ(s.slice(1).vec(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(s.slice(0, 2).vec(), (std::vector<int64_t>{2, 3}));
}

TEST(NnFunctions, SoftmaxLayerNorm) {
  Tensor x = tensor({1.f, 2.f, 3.f});
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0), s = e1 + e2 + e3;
  expect_near(softmax(x, 0), {e1 / s, e2 / s, e3 / s});
  expect_near(log_softmax(x, 0), {1 - std::log(s), 2 - std::log(s), 3 - std::log(s)});
  expect_near(softmax(x.view({3, 1}), 0).view({3}), {e1 / s, e2 / s, e3 / s});
  Tensor ln = layer_norm(tensor({1.f, 2.f, 3.f, 4.f}).view({2, 2}), {2});
  expect_near(ln, {-1, 1, -1, 1}, 1e-3);
  Tensor ln2 = layer_norm(tensor({1.f, 3.f}), {2}, tensor({2.f, 2.f}), tensor({1.f, 1.f}));
  expect_near(ln2, {-1, 3}, 1e-3);
  EXPECT_VALUES(dropout(x, 0.5, false), {1, 2, 3});
}

TEST(Comparison, EqualAllclose) {
  EXPECT_TRUE(equal(arange(3), arange(3)));
  EXPECT_FALSE(equal(arange(3), arange(4)));
  EXPECT_TRUE(allclose(tensor({1.f}), tensor({1.f + 1e-7f})));
  EXPECT_FALSE(allclose(tensor({1.f}), tensor({1.1f})));
  EXPECT_TRUE(tensor({1.f}).allclose(tensor({1.05f}), 0.1));
  EXPECT_TRUE(allclose(tensor({NAN}), tensor({NAN}), 1e-5, 1e-8, true));
  EXPECT_FALSE(allclose(tensor({NAN}), tensor({NAN})));
}

TEST(Parallel, ParallelForCoversTheRangeOnceAndRethrows) {
  std::vector<int> hits(1000, 0);
  parallel_for(10, 1000, 7, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) ++hits[size_t(i)];
  });
  for (size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i], i < 10 ? 0 : 1) << i;
  int calls = 0;
  parallel_for(5, 5, 1, [&](int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  EXPECT_THROW(parallel_for(0, 1000, 10,
                            [](int64_t b, int64_t e) { GFY_CHECK(!(b <= 500 && 500 < e), "bad box at 500"); }),
               Error);
  EXPECT_FALSE(in_parallel_region());
}
