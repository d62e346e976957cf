// The cuDNN LSTM against the fine-grained LSTM of the CPU reference (gfy::nn::LSTM, built from
// GEMMs and pointwise ops): LibTorch-layout weights packed into cuDNN's weight space must give
// the same outputs and final states, eagerly and when the cuDNN call is replayed from a graph.
#include "CudaTestUtil.h"

using namespace gfy;
using gfy::cuda_testing::expect_same;

namespace {

/// LibTorch's parameter order per layer (weight_ih, weight_hh, bias_ih, bias_hh), on the device.
std::vector<Tensor> cuda_weights(const nn::LSTM &lstm) {
  auto params = lstm->named_parameters();
  std::vector<Tensor> w;
  for (int64_t l = 0; l < lstm->options.num_layers(); ++l)
    for (const char *name : {"weight_ih_l", "weight_hh_l", "bias_ih_l", "bias_hh_l"})
      w.push_back(params[name + std::to_string(l)].to(kCUDA));
  return w;
}


TEST(CudnnLstm, MatchesFineGrainedCpuLstm) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_cudnn()) GTEST_SKIP() << "built without cuDNN";
  manual_seed(11);
  nn::LSTM lstm(nn::LSTMOptions(16, 32).num_layers(3));
  Tensor x = randn({7, 4, 16}), h0 = randn({3, 4, 32}) * 0.5, c0 = randn({3, 4, 32}) * 0.5;
  auto [y, state] = lstm->forward(x, std::make_tuple(h0, c0));
  auto [gy, gh, gc] = gfy::cuda::lstm_forward(x.to(kCUDA), cuda_weights(lstm), 3, h0.to(kCUDA), c0.to(kCUDA));
  expect_same(y, gy, 1e-4, "output");
  expect_same(std::get<0>(state), gh, 1e-4, "h_n");
  expect_same(std::get<1>(state), gc, 1e-4, "c_n");
  // Zero initial state when h0/c0 are absent.
  auto [y0, s0] = lstm->forward(x);
  auto [gy0, gh0, gc0] = gfy::cuda::lstm_forward(x.to(kCUDA), cuda_weights(lstm), 3);
  expect_same(y0, gy0, 1e-4, "output, zero state");
}

TEST(CudnnLstm, BatchFirstAndDouble) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_cudnn()) GTEST_SKIP() << "built without cuDNN";
  manual_seed(12);
  nn::LSTM lstm(nn::LSTMOptions(8, 12).num_layers(2).batch_first(true));
  lstm->to(kDouble);
  Tensor x = randn({3, 5, 8}, dtype(kDouble));
  auto [y, state] = lstm->forward(x);
  gfy::cuda::LstmOptions o;
  o.batch_first = true;
  auto [gy, gh, gc] = gfy::cuda::lstm_forward(x.to(kCUDA), cuda_weights(lstm), 2, Tensor(), Tensor(), o);
  expect_same(y, gy, 1e-10, "output");
  expect_same(std::get<1>(state), gc, 1e-10, "c_n");
}

TEST(CudnnLstm, ReplaysFromACudaGraph) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_cudnn()) GTEST_SKIP() << "built without cuDNN";
  manual_seed(13);
  nn::LSTM lstm(nn::LSTMOptions(16, 32).num_layers(2));
  gfy::cuda::CudnnLstm cudnn(16, 32, 2, kFloat);
  cudnn.set_weights(cuda_weights(lstm));
  Tensor x = randn({6, 3, 16}).to(kCUDA), y;
  (void)cudnn.forward(x); // sizes the workspace outside the capture
  gfy::cuda::CaptureSession s;
  s.begin();
  y = std::get<0>(cudnn.forward(x));
  s.end();
  Tensor next = randn({6, 3, 16});
  x.copy_(next.to(kCUDA));
  s.replay();
  expect_same(std::get<0>(lstm->forward(next)), y, 1e-4, "replayed cuDNN LSTM");
}

TEST(CudnnLstm, RejectsWrongWeights) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_cudnn()) GTEST_SKIP() << "built without cuDNN";
  gfy::cuda::CudnnLstm cudnn(4, 8, 1, kFloat);
  EXPECT_THROW(cudnn.set_weights({zeros({32, 4}, TensorOptions().device(kCUDA))}), Error);
}

} // namespace
