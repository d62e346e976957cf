// Tensor core: creation, dtypes, views, broadcasting and LibTorch's type promotion.
#include "TestUtil.h"

using namespace gfy;
using namespace gfy::testing;
using namespace gfy::indexing;

TEST(Creation, ZerosOnesFullArange) {
  EXPECT_VALUES(zeros({2, 2}), {0, 0, 0, 0});
  EXPECT_VALUES(ones({3}, kLong), {1, 1, 1});
  EXPECT_EQ(ones({3}, kLong).scalar_type(), kLong);
  EXPECT_EQ(zeros({1}).scalar_type(), kFloat);
  EXPECT_EQ(full({2}, 7).scalar_type(), kLong);
  EXPECT_EQ(full({2}, 7.5).scalar_type(), kFloat);
  EXPECT_EQ(full({2}, true).scalar_type(), kBool);
  EXPECT_EQ(full({2}, 7, TensorOptions().dtype(kDouble)).scalar_type(), kDouble);
  EXPECT_VALUES(arange(5), {0, 1, 2, 3, 4});
  EXPECT_EQ(arange(5).scalar_type(), kLong);
  EXPECT_EQ(arange(0.0, 1.0, 0.25).scalar_type(), kFloat);
  EXPECT_VALUES(arange(0.0, 1.0, 0.25), {0, 0.25, 0.5, 0.75});
  EXPECT_VALUES(arange(1, 10, 3), {1, 4, 7});
  EXPECT_VALUES(arange(5, 0, -2), {5, 3, 1});
  EXPECT_VALUES(linspace(0, 1, 3), {0, 0.5, 1});
  EXPECT_VALUES(eye(2), {1, 0, 0, 1});
  EXPECT_EQ(arange(4, dtype(kFloat)).scalar_type(), kFloat);
}

TEST(Creation, TensorAndFromBlobAndLike) {
  EXPECT_EQ(tensor({1.f, 2.f}).scalar_type(), kFloat);
  EXPECT_EQ(tensor({1, 2}).scalar_type(), kLong);
  EXPECT_EQ(tensor({true, false}).scalar_type(), kBool);
  EXPECT_EQ(tensor({1.0, 2.0}).scalar_type(), kFloat);
  EXPECT_EQ(tensor(std::vector<double>{1, 2}).scalar_type(), kFloat);  // as LibTorch
  EXPECT_EQ(scalar_tensor(3).scalar_type(), kFloat);
  EXPECT_EQ(tensor(3.5).dim(), 0);
  float buf[6] = {1, 2, 3, 4, 5, 6};
  Tensor b = from_blob(buf, {2, 3});
  EXPECT_VALUES(b.select(1, 2), {3, 6});
  buf[0] = 10;
  EXPECT_EQ(b.index({0, 0}).item<float>(), 10.f);
  Tensor l = ones_like(b, kInt);
  EXPECT_EQ(l.scalar_type(), kInt);
  EXPECT_SHAPE(l, {2, 3});
  EXPECT_VALUES(full_like(b, 2), {2, 2, 2, 2, 2, 2});
  EXPECT_EQ(zeros_like(b).scalar_type(), kFloat);
  EXPECT_SHAPE(empty_like(b), {2, 3});
}

TEST(Creation, SeededRandom) {
  manual_seed(42);
  Tensor a = rand({100}), n = randn({1000}), i = randint(3, 7, {100});
  manual_seed(42);
  EXPECT_TRUE(equal(a, rand({100})));
  EXPECT_TRUE(equal(n, randn({1000})));
  EXPECT_TRUE(equal(i, randint(3, 7, {100})));
  EXPECT_GE(a.min().item<float>(), 0.f);
  EXPECT_LT(a.max().item<float>(), 1.f);
  EXPECT_NEAR(n.mean().item<double>(), 0.0, 0.15);
  EXPECT_GE(i.min().item<int64_t>(), 3);
  EXPECT_LE(i.max().item<int64_t>(), 6);
  EXPECT_EQ(i.scalar_type(), kLong);
}

TEST(Metadata, SizesStridesOptions) {
  Tensor x = zeros({2, 3, 4});
  EXPECT_EQ(x.dim(), 3);
  EXPECT_EQ(x.numel(), 24);
  EXPECT_EQ(x.size(-1), 4);
  EXPECT_SHAPE(x, {2, 3, 4});
  EXPECT_EQ(x.strides().vec(), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(x.is_contiguous());
  EXPECT_TRUE(x.device().is_cpu());
  EXPECT_EQ(x.device(), Device(kCPU));
  EXPECT_EQ(x.options().dtype(), kFloat);
  EXPECT_EQ(x.dtype(), kFloat);
  EXPECT_EQ(x.element_size(), 4);
  EXPECT_FALSE(Tensor().defined());
  EXPECT_EQ(Device("cuda:1").index(), 1);
}

TEST(Views, ShareStorage) {
  Tensor x = arange(12, dtype(kFloat)).view({3, 4});
  Tensor t = x.t();
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_SHAPE(t, {4, 3});
  t.index_put_({0, 0}, 100);
  EXPECT_EQ(x.index({0, 0}).item<float>(), 100.f);
  EXPECT_VALUES(x.select(0, 1), {4, 5, 6, 7});
  EXPECT_VALUES(x.narrow(1, 1, 2).select(0, 0), {1, 2});
  EXPECT_VALUES(x.slice(1, 0, 4, 2).select(0, 2), {8, 10});
  EXPECT_VALUES(x.slice(0, -1), {8, 9, 10, 11});
  EXPECT_SHAPE(x.unsqueeze(0), {1, 3, 4});
  EXPECT_SHAPE(x.unsqueeze(-1), {3, 4, 1});
  EXPECT_SHAPE(x.unsqueeze(0).squeeze(), {3, 4});
  EXPECT_SHAPE(x.unsqueeze(1).squeeze(1), {3, 1 * 4});
  EXPECT_SHAPE(x.permute({1, 0}), {4, 3});
  EXPECT_SHAPE(x.view({-1}), {12});
  EXPECT_SHAPE(x.reshape({2, -1}), {2, 6});
  EXPECT_SHAPE(x.flatten(), {12});
  EXPECT_SHAPE(zeros({2, 3, 4}).flatten(1), {2, 12});
  EXPECT_SHAPE(x.expand({2, 3, 4}), {2, 3, 4});
  EXPECT_EQ(x.expand({2, 3, 4}).stride(0), 0);
  EXPECT_VALUES(t.contiguous().select(0, 1), {1, 5, 9});
  EXPECT_TRUE(t.contiguous().is_contiguous());
  Tensor r = t.reshape({12});  // not viewable: copies
  EXPECT_VALUES(r.slice(0, 0, 3), {100, 4, 8});
  auto ch = x.chunk(2, 1);
  ASSERT_EQ(ch.size(), 2u);
  EXPECT_VALUES(ch[1].select(0, 0), {2, 3});
  auto sp = arange(5).split(2);
  ASSERT_EQ(sp.size(), 3u);
  EXPECT_VALUES(sp[2], {4});
  auto sw = arange(5).split({1, 4});
  EXPECT_VALUES(sw[1], {1, 2, 3, 4});
  EXPECT_VALUES(x[2], {8, 9, 10, 11});
}

TEST(Views, IndexingBasic) {
  Tensor x = arange(24).view({2, 3, 4});
  EXPECT_SHAPE(x.index({Slice(), 1}), {2, 4});
  EXPECT_SHAPE(x.index({Ellipsis, 0}), {2, 3});
  EXPECT_SHAPE(x.index({"...", 0}), {2, 3});
  EXPECT_SHAPE(x.index({None, 0}), {1, 3, 4});
  EXPECT_SHAPE(x.index({0, Slice(None, 2), Slice(1, None, 2)}), {2, 2});
  EXPECT_VALUES(x.index({1, 2}), {20, 21, 22, 23});
  EXPECT_EQ(x.index({1, -1, -1}).item<int64_t>(), 23);
  EXPECT_SHAPE(x.index({true}), {1, 2, 3, 4});
}

TEST(Broadcasting, Shapes) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {4}), (std::vector<int64_t>{3, 4}));
  Tensor a = arange(3).view({3, 1}), b = arange(4);
  EXPECT_SHAPE(a + b, {3, 4});
  EXPECT_VALUES((a * 10 + b).select(0, 2), {20, 21, 22, 23});
  EXPECT_SHAPE(zeros({2, 1, 3}) + zeros({4, 1}), {2, 4, 3});
  EXPECT_SHAPE(zeros({}) + zeros({5}), {5});
}

TEST(Promotion, MatchesLibTorch) {
  Tensor i = ones({2}, kInt), l = ones({2}, kLong), f = ones({2}), d = ones({2}, kDouble), b = ones({2}, kBool);
  EXPECT_EQ((i + l).scalar_type(), kLong);
  EXPECT_EQ((i + f).scalar_type(), kFloat);
  EXPECT_EQ((f + d).scalar_type(), kDouble);
  EXPECT_EQ((b + b).scalar_type(), kBool);
  EXPECT_EQ((b + i).scalar_type(), kInt);
  // Scalars are wrapped numbers: they do not widen a tensor of the same category.
  EXPECT_EQ((i + 1).scalar_type(), kInt);
  EXPECT_EQ((i + 1.5).scalar_type(), kFloat);
  EXPECT_EQ((l * 2.0).scalar_type(), kFloat);
  EXPECT_EQ((f * 2.0).scalar_type(), kFloat);
  EXPECT_EQ((d * 2).scalar_type(), kDouble);
  EXPECT_EQ((b + 1).scalar_type(), kLong);
  EXPECT_EQ((b * 1.5).scalar_type(), kFloat);
  EXPECT_EQ((2 - i).scalar_type(), kInt);
  // 0-d tensors are weaker than dimensioned ones within a category, stronger across.
  EXPECT_EQ((f + tensor(1.0, kDouble)).scalar_type(), kFloat);
  EXPECT_EQ((i + tensor(1.0, kDouble)).scalar_type(), kDouble);
  EXPECT_EQ((tensor(1.0, kDouble) + tensor(1.0, kFloat)).scalar_type(), kDouble);
  // Division of integers is true division.
  EXPECT_EQ((l / l).scalar_type(), kFloat);
  // uint8 and int8 share a place in the lattice: together they need int16.
  Tensor u8 = ones({2}, kByte), i8 = ones({2}, kChar), i16 = ones({2}, kShort);
  EXPECT_EQ((u8 + i8).scalar_type(), kShort);
  EXPECT_EQ((i8 + u8).scalar_type(), kShort);
  EXPECT_EQ((u8 + i16).scalar_type(), kShort);
  EXPECT_EQ((i16 + i).scalar_type(), kInt);
  EXPECT_EQ((u8 + b).scalar_type(), kByte);
  EXPECT_EQ((u8 + f).scalar_type(), kFloat);
  EXPECT_EQ((u8 + 300).scalar_type(), kByte);
  EXPECT_EQ((u8 / u8).scalar_type(), kFloat);
  EXPECT_EQ(u8.sum().scalar_type(), kLong);
  EXPECT_EQ(promote_types(kByte, kChar), kShort);
  EXPECT_EQ(promote_types(kChar, kInt), kInt);
  EXPECT_EQ(promote_types(kBool, kChar), kChar);
  EXPECT_EQ((l / 2).scalar_type(), kFloat);
  EXPECT_VALUES(arange(3) / 2, {0, 0.5, 1});
  // Comparisons give bool.
  EXPECT_EQ((f > 0).scalar_type(), kBool);
  EXPECT_EQ((i == l).scalar_type(), kBool);
  // Unary float functions of integers give the default dtype.
  EXPECT_EQ(exp(l).scalar_type(), kFloat);
  EXPECT_EQ(neg(l).scalar_type(), kLong);
  EXPECT_EQ(l.sum().scalar_type(), kLong);
  EXPECT_EQ(b.sum().scalar_type(), kLong);
  EXPECT_EQ(i.sum().scalar_type(), kLong);
  EXPECT_EQ(where(b, i, 2.5).scalar_type(), kFloat);
  EXPECT_EQ(where(b, 1, 2).scalar_type(), kLong);
  EXPECT_EQ(where(b, 1.0, 2.0).scalar_type(), kFloat);
  EXPECT_EQ(cat({i, f}).scalar_type(), kFloat);
}

TEST(InPlace, WritesThroughViews) {
  Tensor x = zeros({2, 3});
  x.select(1, 1).fill_(5);
  EXPECT_VALUES(x, {0, 5, 0, 0, 5, 0});
  x.add_(1);
  x.mul_(2);
  EXPECT_VALUES(x, {2, 12, 2, 2, 12, 2});
  x.sub_(ones({3}), 2);
  EXPECT_VALUES(x.select(0, 0), {0, 10, 0});
  x.div_(2);
  EXPECT_VALUES(x.select(0, 0), {0, 5, 0});
  x.zero_();
  EXPECT_VALUES(x, {0, 0, 0, 0, 0, 0});
  x.t().copy_(arange(6).view({3, 2}));
  EXPECT_VALUES(x, {0, 2, 4, 1, 3, 5});
  x.masked_fill_(x > 2, -1);
  EXPECT_VALUES(x, {0, 2, -1, 1, -1, -1});
  x += 1;
  x -= 1;
  x *= 3;
  x /= 3;
  EXPECT_VALUES(x, {0, 2, -1, 1, -1, -1});
  Tensor l = arange(3);
  l.copy_(tensor({1.9f, 2.1f, -0.5f}));
  EXPECT_VALUES(l, {1, 2, 0});
  x.clamp_(0, 1);
  EXPECT_VALUES(x, {0, 1, 0, 1, 0, 0});
}

TEST(Conversion, ToCloneDetachItem) {
  Tensor x = tensor({1.5f, -2.5f});
  EXPECT_EQ(x.to(kLong).scalar_type(), kLong);
  EXPECT_VALUES(x.to(kLong), {1, -2});
  EXPECT_VALUES(x.to(kBool), {1, 1});
  EXPECT_TRUE(x.to(kFloat).is_same(x));
  Tensor c = x.clone();
  c.fill_(0);
  EXPECT_VALUES(x, {1.5, -2.5});
  Tensor d = x.detach();
  d.fill_(3);
  EXPECT_VALUES(x, {3, 3});
  EXPECT_EQ(x.cpu().data_ptr<float>(), x.data_ptr<float>());
  EXPECT_EQ(tensor(7).item<int>(), 7);
  EXPECT_EQ(tensor(2.5).item().toDouble(), 2.5);
  EXPECT_TRUE((tensor(1) > 0).is_nonzero());
  EXPECT_EQ(x.to(TensorOptions().dtype(kDouble)).scalar_type(), kDouble);
}

TEST(Printing, Stream) {
  std::ostringstream os;
  os << arange(3);
  EXPECT_NE(os.str().find("CPULongType{3}"), std::string::npos);
}
