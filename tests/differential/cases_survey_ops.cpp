// Differential cases for the other names public LibTorch code needed and the shim lacked
// (scripts/compat-survey, docs/compat.md "Measured on public code"): the regression, binary and
// divergence losses in their torch::, F:: and module spellings, GLU and PReLU, a Sequential
// whose first module takes two tensors, load onto a device, the TORCH_CHECK family and
// at::globalContext() switches. Inputs are host formulas (model_inputs.h).
#include "dump_main.h"
#include "model_inputs.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

using diff::Out;
using diff::S;
using diff::model_inputs::fix_model;
using diff::model_inputs::wave;
namespace F = torch::nn::functional;
namespace nn = torch::nn;

torch::Tensor probs(const std::vector<int64_t>& shape, double phase) { return torch::sigmoid(wave(shape, 3.0, phase)); }

/// A block that mixes an embedding of `t` into `x`, as diffusion models' UNet blocks do.
struct TimedBlockImpl : nn::Module {
  TimedBlockImpl() : fc(register_module("fc", nn::Linear(4, 4))), emb(register_module("emb", nn::Linear(1, 4))) {}
  torch::Tensor forward(torch::Tensor x, torch::Tensor t) { return fc(x) + emb(t); }
  nn::Linear fc, emb;
};
TORCH_MODULE(TimedBlock);

}  // namespace

// --- losses ------------------------------------------------------------------------------------
DIFF_CASE(survey_l1_smooth_l1_huber) {
  auto x = wave({3, 4}, 2.0, 0.1), y = wave({3, 4}, 2.0, 0.7);
  return {F::l1_loss(x, y), F::l1_loss(x, y, F::L1LossFuncOptions(torch::kSum)),
          F::l1_loss(x, y, F::L1LossFuncOptions().reduction(torch::kNone)), nn::L1Loss()(x, y),
          torch::l1_loss(x, y, torch::Reduction::Sum), F::smooth_l1_loss(x, y),
          F::smooth_l1_loss(x, y, F::SmoothL1LossFuncOptions(torch::kNone), 0.5),
          nn::SmoothL1Loss(nn::SmoothL1LossOptions().beta(2.0))(x, y), torch::smooth_l1_loss(x, y, 0, 0.0),
          F::huber_loss(x, y, F::HuberLossFuncOptions().delta(0.5)), nn::HuberLoss()(x, y),
          torch::mse_loss(x, y), torch::mse_loss(x, y, torch::Reduction::None)};
}
DIFF_CASE(survey_binary_cross_entropy) {
  auto p = probs({4, 3}, 0.2), t = probs({4, 3}, 0.9).round(), w = wave({3}, 1.0, 0.3).abs();
  auto edge = torch::tensor({0.0f, 1.0f, 0.5f, 1e-30f}), edge_t = torch::tensor({1.0f, 0.0f, 0.5f, 1.0f});
  return {F::binary_cross_entropy(p, t), F::binary_cross_entropy(p, t, F::BinaryCrossEntropyFuncOptions().weight(w)),
          F::binary_cross_entropy(p, t, F::BinaryCrossEntropyFuncOptions().reduction(torch::kNone)),
          nn::BCELoss(nn::BCELossOptions().reduction(torch::kSum))(p, t), torch::binary_cross_entropy(p, t),
          F::binary_cross_entropy(edge, edge_t, F::BinaryCrossEntropyFuncOptions().reduction(torch::kNone))};
}
DIFF_CASE(survey_binary_cross_entropy_out_of_range_errors) {
  return F::binary_cross_entropy(torch::tensor({0.5f, 1.5f}), torch::tensor({1.0f, 0.0f}));
}
DIFF_CASE(survey_binary_cross_entropy_size_mismatch_errors) {
  return F::binary_cross_entropy(probs({2, 3}, 0.1), probs({3}, 0.2));
}
DIFF_CASE(survey_binary_cross_entropy_with_logits) {
  auto x = wave({4, 3}, 30.0, 0.4), t = probs({4, 3}, 0.9), w = wave({3}, 1.0, 0.3).abs(),
       pw = wave({3}, 2.0, 0.5).abs();
  return {F::binary_cross_entropy_with_logits(x, t),
          F::binary_cross_entropy_with_logits(x, t, F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(pw)),
          F::binary_cross_entropy_with_logits(
              x, t, F::BinaryCrossEntropyWithLogitsFuncOptions().weight(w).reduction(torch::kNone)),
          nn::BCEWithLogitsLoss()(x, t),
          nn::BCEWithLogitsLoss(nn::BCEWithLogitsLossOptions().pos_weight(pw).reduction(torch::kSum))(x, t),
          torch::binary_cross_entropy_with_logits(x, t, w, pw)};
}
DIFF_CASE(survey_binary_cross_entropy_with_logits_size_errors) {
  return nn::BCEWithLogitsLoss()(wave({4, 3}, 1.0, 0.1), wave({4, 1}, 1.0, 0.2));
}
DIFF_CASE(survey_kl_div) {
  auto logp = torch::log_softmax(wave({3, 5}, 2.0, 0.1), 1), q = torch::softmax(wave({3, 5}, 2.0, 0.6), 1);
  auto q0 = q.clone();
  q0.index_put_({0, 1}, 0.0);
  return {F::kl_div(logp, q), F::kl_div(logp, q, F::KLDivFuncOptions(torch::kBatchMean)),
          F::kl_div(logp, q0, F::KLDivFuncOptions(torch::kNone)),
          F::kl_div(logp, q.log(), F::KLDivFuncOptions(torch::kSum).log_target(true)),
          nn::KLDivLoss(nn::KLDivLossOptions(torch::kBatchMean))(logp, q), torch::kl_div(logp, q)};
}
DIFF_CASE(survey_torch_nll_and_cross_entropy_spellings) {
  auto logits = wave({4, 3}, 2.0, 0.3), target = torch::tensor({int64_t{0}, int64_t{2}, int64_t{1}, int64_t{2}});
  auto w = wave({3}, 1.0, 0.2).abs() + 0.5;
  return {torch::nll_loss(torch::log_softmax(logits, 1), target),
          torch::nll_loss(torch::log_softmax(logits, 1), target, w, torch::Reduction::Sum, 2),
          torch::cross_entropy_loss(logits, target, {}, torch::Reduction::None)};
}
DIFF_CASE(survey_loss_module_buffers) {
  nn::BCEWithLogitsLoss with(nn::BCEWithLogitsLossOptions().pos_weight(torch::ones({3}) * 2));
  nn::BCELoss without;
  std::vector<torch::Tensor> out;
  for (auto& b : with->named_buffers())
    if (b.value().defined()) out.push_back(b.value());
  for (auto& b : without->named_buffers())
    if (b.value().defined()) out.push_back(b.value());
  out.push_back(torch::tensor({static_cast<int64_t>(out.size())}));
  return out;
}

// --- activations -------------------------------------------------------------------------------
DIFF_CASE(survey_glu_prelu) {
  auto x = wave({2, 4, 3}, 2.0, 0.1);
  nn::PReLU one;
  nn::PReLU per_channel(nn::PReLUOptions().num_parameters(4).init(0.1));
  per_channel->weight.copy_(torch::tensor({0.1f, -0.2f, 0.3f, 0.0f}));
  return {F::glu(x), F::glu(x, F::GLUFuncOptions(1)), nn::GLU(nn::GLUOptions(1))(x), one(x), per_channel(x),
          torch::prelu(x, torch::tensor({0.5f})), one->weight};
}
DIFF_CASE(survey_glu_odd_dim_errors) { return F::glu(wave({2, 3}, 1.0, 0.1)); }
DIFF_CASE(survey_prelu_channel_mismatch_errors) {
  return torch::prelu(wave({2, 4}, 1.0, 0.1), torch::ones({3}));
}

// --- containers, serialization, checks -----------------------------------------------------------
DIFF_CASE(survey_sequential_two_input_first_module) {
  nn::Sequential seq(TimedBlock(), nn::ReLU(), nn::Linear(4, 2));
  fix_model(*seq);
  auto x = wave({3, 4}, 1.0, 0.2), t = wave({3, 1}, 1.0, 0.5);
  return {seq->forward(x, t), seq->forward<torch::Tensor>(x, t)};
}
DIFF_CASE(survey_load_onto_device) {
  nn::Linear a(3, 2), b(3, 2);
  fix_model(*a);
  char path[] = "/tmp/graphify-diff-load-XXXXXX";
  const int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  torch::save(a, path);
  torch::load(b, path, torch::Device(torch::kCPU));
  torch::Tensor t;
  torch::save(a->weight, path);
  torch::load(t, path, torch::kCPU);
  std::remove(path);
  return {b->weight, b->bias, t};
}
DIFF_CASE(survey_torch_check_macros) {
  auto x = torch::ones({2});
  TORCH_CHECK(x.dim() == 1, "expected a vector, got ", x.dim(), " dims");
  TORCH_CHECK(x.numel() == 2);
  bool threw = false;
  try {
    TORCH_CHECK(x.dim() == 2, "expected a matrix");
  } catch (const c10::Error& e) {
    threw = std::string(e.what()).find("expected a matrix") != std::string::npos;
  }
  return S{threw ? 1.0 : 0.0};
}
DIFF_CASE(survey_global_context_switches) {
  auto& ctx = at::globalContext();
  const bool b0 = ctx.benchmarkCuDNN(), d0 = ctx.deterministicCuDNN();
  ctx.setBenchmarkCuDNN(true);
  ctx.setDeterministicCuDNN(true);
  ctx.setAllowTF32CuBLAS(false);
  torch::globalContext().setAllowTF32CuDNN(false);
  const bool b1 = ctx.benchmarkCuDNN(), d1 = ctx.deterministicCuDNN();
  ctx.setBenchmarkCuDNN(b0);
  ctx.setDeterministicCuDNN(d0);
  return {S{b0 ? 1.0 : 0.0}, S{d0 ? 1.0 : 0.0}, S{b1 ? 1.0 : 0.0}, S{d1 ? 1.0 : 0.0},
          S{ctx.allowTF32CuBLAS() ? 1.0 : 0.0}, S{ctx.allowTF32CuDNN() ? 1.0 : 0.0}};
}
DIFF_CASE(survey_conv_padding_braced_list) {
  nn::Conv2d conv(nn::Conv2dOptions(2, 3, {1, 3}).padding({0, 1}));
  fix_model(*conv);
  auto x = wave({1, 2, 4, 5}, 1.0, 0.3);
  return {conv(x), F::conv2d(x, conv->weight, F::Conv2dFuncOptions().padding({1, 0}))};
}
DIFF_CASE(survey_tensor_from_array_ref) {
  std::vector<float> v = {1.5f, -2.0f, 0.25f};
  return torch::tensor(torch::ArrayRef<float>(v.data(), v.size())).clone();
}
