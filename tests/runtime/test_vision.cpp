// The vision layers as model code uses them: Conv2d / BatchNorm2d / pooling / Upsample modules
// (parameter names, shapes, LibTorch's init bounds, train vs eval), capture and replay of a
// conv-bn-relu-pool block, channel dropout, and bad shapes that must throw, never crash.
// Values are checked against LibTorch by the differential suite (tests/differential).
#include "TestUtil.h"

#include <cmath>

using namespace gfy;
using namespace gfy::testing;

namespace {

/// A ResNet-style stem: conv (no bias) -> batch norm -> relu -> max pool.
struct StemImpl : nn::Module {
  StemImpl()
      : conv(register_module("conv", nn::Conv2d(nn::Conv2dOptions(3, 8, 3).stride(2).padding(1).bias(false)))),
        bn(register_module("bn", nn::BatchNorm2d(8))),
        pool(register_module("pool", nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).padding(1)))) {}
  Tensor forward(const Tensor &x) { return pool(relu(bn(conv(x)))); }
  nn::Conv2d conv;
  nn::BatchNorm2d bn;
  nn::MaxPool2d pool;
};
GFY_MODULE(Stem);

} // namespace

TEST(Conv2dModule, ParametersAsLibTorch) {
  nn::Conv2d conv(nn::Conv2dOptions(4, 6, {3, 2}).groups(2));
  auto params = conv->named_parameters();
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params.keys(), (std::vector<std::string>{"weight", "bias"}));
  EXPECT_SHAPE(conv->weight, {6, 2, 3, 2});
  EXPECT_SHAPE(conv->bias, {6});
  // kaiming_uniform(a = sqrt(5)) and the bias both draw from U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  const double bound = 1.0 / ::std::sqrt(2.0 * 3 * 2);
  EXPECT_LE(conv->weight.abs().max().item<double>(), bound);
  EXPECT_LE(conv->bias.abs().max().item<double>(), bound);
  EXPECT_GT(conv->weight.abs().max().item<double>(), bound / 2);
  EXPECT_EQ(nn::Conv1d(2, 3, 4)->named_parameters().size(), 2u);
  EXPECT_EQ(nn::Conv2d(nn::Conv2dOptions(2, 3, 1).bias(false))->parameters().size(), 1u);
}

TEST(Conv2dModule, RefusesBadOptions) {
  EXPECT_THROW(nn::Conv2d(nn::Conv2dOptions(3, 4, 3).groups(2)), Error);
  EXPECT_THROW(nn::Conv2d(nn::Conv2dOptions(4, 3, 3).groups(2)), Error);
  EXPECT_THROW(nn::Conv2d(nn::Conv2dOptions(4, 4, 3).padding(kSame).stride(2)), Error);
  EXPECT_THROW(nn::Conv2d(nn::Conv2dOptions(4, 4, 3).padding_mode(kReflect)), Error);
}

TEST(Conv2dModule, SamePaddingKeepsTheSize) {
  nn::Conv2d even(nn::Conv2dOptions(2, 3, {2, 4}).padding(kSame).dilation(2));
  EXPECT_SHAPE(even(randn({1, 2, 7, 6})), {1, 3, 7, 6});
  nn::Conv1d valid(nn::Conv1dOptions(2, 3, 3).padding(kValid));
  EXPECT_SHAPE(valid(randn({2, 5})), {3, 3});
}

TEST(BatchNormModule, TrainingUpdatesRunningStatsAndEvalUsesThem) {
  nn::BatchNorm2d bn(nn::BatchNorm2dOptions(2).momentum(0.5));
  EXPECT_EQ(bn->named_buffers().size(), 3u); // running_mean, running_var, num_batches_tracked
  Tensor x = arange(16, kFloat).view({2, 2, 2, 2});
  Tensor y = bn(x);
  // Each channel is normalised by its batch statistics: mean 0, biased variance 1 (to eps).
  expect_near(y.mean({0, 2, 3}), {0, 0});
  expect_near(y.pow(2).mean({0, 2, 3}), {1, 1}, 1e-4);
  // Channel 0 holds 0..3 and 8..11: mean 5.5, unbiased variance 138 / 7 (channel 1 the same + 4).
  const double var = 138.0 / 7;
  expect_near(bn->running_mean, {0.5 * 5.5, 0.5 * 9.5});
  expect_near(bn->running_var, {0.5 + 0.5 * var, 0.5 + 0.5 * var});
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
  bn->eval();
  Tensor z = bn(x);
  expect_near(z.select(1, 0).flatten(), values((x.select(1, 0).flatten() - 2.75) / ::std::sqrt(0.5 + 0.5 * var + 1e-5)));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
  EXPECT_THROW(bn(randn({2, 2, 3})), Error);                   // expected 4D input
  EXPECT_THROW(bn(randn({2, 3, 2, 2})), Error);                // running_mean should contain 3 elements
  EXPECT_THROW(nn::BatchNorm1d(2)(randn({1, 2})), Error);      // one value per channel in training
}

TEST(BatchNormModule, CumulativeAverageWithoutMomentum) {
  nn::BatchNorm1d bn(nn::BatchNorm1dOptions(1).momentum(std::nullopt).affine(false));
  EXPECT_EQ(bn->parameters().size(), 0u);
  bn(tensor({1.f, 3.f}).view({2, 1}));
  bn(tensor({5.f, 7.f}).view({2, 1}));
  expect_near(bn->running_mean, {(2.0 + 6.0) / 2});
}

TEST(Pooling, ModulesAndTheirOptions) {
  Tensor x = arange(2 * 16, kFloat).view({1, 2, 4, 4});
  EXPECT_SHAPE(nn::MaxPool2d(2)(x), {1, 2, 2, 2});
  EXPECT_VALUES(nn::MaxPool2d(2)(x).flatten().slice(0, 0, 4), {5, 7, 13, 15});
  EXPECT_VALUES(nn::AvgPool2d(nn::AvgPool2dOptions(2).stride(2))(x).flatten().slice(0, 0, 2), {2.5, 4.5});
  EXPECT_VALUES(nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1}))(x).flatten(), {7.5, 23.5});
  auto [v, i] = nn::AdaptiveMaxPool2d(nn::AdaptiveMaxPool2dOptions({std::nullopt, 1}))->forward_with_indices(x);
  EXPECT_SHAPE(v, {1, 2, 4, 1});
  EXPECT_LONGS(i.flatten().slice(0, 0, 4), {3, 7, 11, 15});
  EXPECT_THROW(max_pool2d(x, 2, 1, 2), Error);  // padding larger than half the kernel
  EXPECT_THROW(max_pool2d(x, 5), Error);        // output size too small
  EXPECT_THROW(max_pool2d(randn({4}), 1), Error);
  EXPECT_THROW(adaptive_avg_pool2d(x, {1}), Error);
}

TEST(Upsample, NearestAndBilinear) {
  Tensor x = tensor({0.f, 1.f, 2.f, 3.f}).view({1, 1, 2, 2});
  nn::Upsample up(nn::UpsampleOptions().scale_factor(std::vector<double>{2, 2}));
  EXPECT_VALUES(up(x).flatten().slice(0, 0, 4), {0, 0, 1, 1});
  namespace F = nn::functional;
  Tensor b = F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{3, 3}).mode(kBilinear).align_corners(true));
  EXPECT_VALUES(b.flatten(), {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
  EXPECT_THROW(F::interpolate(x, F::InterpolateFuncOptions().mode(kBilinear).size(std::vector<int64_t>{3, 3})
                                     .scale_factor(std::vector<double>{2, 2})),
               Error);
  EXPECT_THROW(F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{3, 3}).align_corners(true)), Error);
}

TEST(Dropout2d, ZeroesWholeChannelsInTrainingOnly) {
  manual_seed(3);
  nn::Dropout2d drop(0.5);
  Tensor x = ones({4, 8, 3, 3});
  Tensor y = drop(x);
  Tensor per_channel = y.sum({2, 3}); // each channel is all 0 or all 2 (kept and scaled by 2)
  for (double v : values(per_channel)) EXPECT_TRUE(v == 0 || v == 18) << v;
  EXPECT_GT(values((per_channel == 0).sum())[0], 0);
  EXPECT_LT(values((per_channel == 0).sum())[0], 32);
  drop->eval();
  EXPECT_TRUE(drop(x).is_same(x));
}

TEST(Conv2d, BadShapesThrow) {
  Tensor x = randn({1, 3, 5, 5});
  EXPECT_THROW(conv2d(x, randn({4, 2, 3, 3})), Error);           // wrong channel count
  EXPECT_THROW(conv2d(x, randn({4, 3, 7, 7})), Error);           // kernel larger than the padded input
  EXPECT_THROW(conv2d(x, randn({4, 3, 3, 3}), randn({3})), Error); // bias size
  EXPECT_THROW(conv2d(x, randn({4, 3, 3})), Error);              // weight rank
  EXPECT_THROW(conv2d(randn({5, 5}), randn({4, 3, 3, 3})), Error);
  EXPECT_THROW(conv2d(x, randn({4, 3, 3, 3}), {}, 0), Error);     // stride 0
  EXPECT_THROW(conv2d(x, randn({4, 3, 3, 3}), {}, 1, -1), Error); // negative padding
  EXPECT_THROW(conv2d(x, randn({4, 3, 3, 3}), {}, {1, 1, 1}), Error);
  EXPECT_THROW(conv2d(x.to(kBool), randn({4, 3, 3, 3}).to(kBool)), Error); // integers compute, bool does not
  EXPECT_THROW(conv2d(x, randn({4, 3, 3, 3}, kDouble)), Error);
}

TEST(CaptureVision, ConvBatchNormEvalReplaysOnNewInputs) {
  manual_seed(5);
  Stem stem;
  stem->eval();
  stem->bn->running_mean.copy_(randn({8}));
  stem->bn->running_var.copy_(rand({8}) + 0.5);
  Tensor x = randn({2, 3, 16, 16}), out;
  Graph g = capture([&] { out = stem(x); });
  EXPECT_SHAPE(out, {2, 8, 4, 4});
  for (int i = 0; i < 3; ++i) {
    x.copy_(randn({2, 3, 16, 16}));
    g.replay();
    expect_near(out, values(stem(x)), 1e-5);
  }
}

TEST(CaptureVision, TrainingBatchNormReplayKeepsUpdatingRunningStats) {
  manual_seed(6);
  nn::BatchNorm2d bn(4);
  Tensor x = randn({3, 4, 5, 5}) * 2 + 1, out;
  Graph g = capture([&] { out = bn(x); });
  std::vector<double> after_capture = values(bn->running_mean);
  g.replay();
  // Replay repeats the in-place update: the mean moved 0.1 of the way again.
  std::vector<double> m = values(x.mean({0, 2, 3}));
  std::vector<double> expected;
  for (size_t c = 0; c < m.size(); ++c) expected.push_back(0.9 * after_capture[c] + 0.1 * m[c]);
  expect_near(bn->running_mean, expected);
}

TEST(CaptureVision, UpsampleAndAdaptivePoolReplay) {
  manual_seed(7);
  Tensor x = randn({1, 2, 6, 5}), out;
  namespace F = nn::functional;
  auto f = [&] {
    Tensor up = F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{1.5, 2}).mode(kBilinear).align_corners(false));
    return adaptive_avg_pool2d(up, {3, 2}) + std::get<0>(adaptive_max_pool2d(up, {3, 2}));
  };
  Graph g = capture([&] { out = f(); });
  x.copy_(randn({1, 2, 6, 5}));
  g.replay();
  expect_near(out, values(f()));
}
