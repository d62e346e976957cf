// Differential cases for the other names public LibTorch code needed and the shim lacked
// (scripts/compat-survey, docs/compat.md "Measured on public code"): the regression, binary and
// divergence losses in their torch::, F:: and module spellings, GLU and PReLU, a Sequential
// whose first module takes two tensors, load onto a device, the TORCH_CHECK family and
// at::globalContext() switches. Inputs are host formulas (model_inputs.h).
#include "dump_main.h"
#include "model_inputs.h"

#include <cstdio>
#include <limits>
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

// --- diag, cdist, one_hot, nll_loss2d, accessor (the last gaps of the survey) -------------------
DIFF_CASE(survey_diag) {
  auto v = wave({3}, 1.0, 0.2), m = wave({3, 4}, 1.0, 0.6);
  return {torch::diag(v), torch::diag(v, 1), v.diag(-2), torch::diag(m), m.diag(1), torch::diag(m, -1),
          torch::diag(m, 3), torch::diag(torch::arange(3))};
}
DIFF_CASE(survey_diag_gradient) {
  auto v = wave({3}, 1.0, 0.2).requires_grad_(), m = wave({3, 4}, 1.0, 0.6).requires_grad_();
  (torch::diag(v, 1) * wave({4, 4}, 1.0, 0.9)).sum().backward();
  (torch::diag(m, -1) * torch::tensor({2.0f, 3.0f})).sum().backward();
  return {v.grad(), m.grad()};
}
DIFF_CASE(survey_diag_3d_errors) { return torch::diag(wave({2, 2, 2}, 1.0, 0.1)); }
DIFF_CASE(survey_cdist) {
  auto a = wave({4, 3}, 2.0, 0.1), b = wave({5, 3}, 2.0, 0.8);
  auto ab = torch::cat({b, a.slice(0, 1, 2)});  // one row of b equals a row of a: a zero distance
  auto batched = wave({2, 3, 2}, 1.0, 0.3), batched2 = wave({2, 4, 2}, 1.0, 0.5);
  return {torch::cdist(a, ab), torch::cdist(a, b, 1.0), torch::cdist(a, b, 0.0),
          torch::cdist(a, b, std::numeric_limits<double>::infinity()), torch::cdist(a, b, 3.0),
          torch::cdist(batched, batched2)};
}
DIFF_CASE(survey_cdist_gradient_at_zero_distance) {
  auto a = wave({3, 2}, 1.0, 0.1).requires_grad_();
  auto b = torch::cat({wave({2, 2}, 1.0, 0.7), a.detach().slice(0, 0, 1)});
  torch::cdist(a, b).sum().backward();
  return {a.grad()};
}
DIFF_CASE(survey_cdist_columns_errors) { return torch::cdist(wave({2, 3}, 1.0, 0.1), wave({2, 4}, 1.0, 0.2)); }
DIFF_CASE(survey_torch_one_hot) {
  auto labels = torch::tensor(std::vector<int64_t>{2, 0, 1, 2});
  return {torch::one_hot(labels, 4), torch::one_hot(labels)};
}
DIFF_CASE(survey_nll_loss2d) {
  auto logp = torch::log_softmax(wave({2, 3, 2, 2}, 2.0, 0.4), 1);
  auto t = torch::tensor(std::vector<int64_t>{0, 2, 1, 1, 2, 0, 1, 2}).view({2, 2, 2});
  return {torch::nll_loss2d(logp, t), torch::nll_loss2d(logp, t, {}, torch::Reduction::None),
          torch::nll_loss2d(logp, t, torch::tensor({1.0f, 2.0f, 0.5f}), torch::Reduction::Sum, 1)};
}
DIFF_CASE(survey_nll_loss2d_3d_input_errors) {
  return torch::nll_loss2d(wave({2, 3, 2}, 1.0, 0.1), torch::zeros({2, 2}, torch::kLong));
}
DIFF_CASE(survey_accessor) {
  auto m = wave({3, 4}, 1.0, 0.3).t().contiguous().t();  // column-major: the accessor follows the strides
  auto a = m.accessor<float, 2>();
  float trace = 0;
  for (int64_t i = 0; i < a.size(0); ++i) trace += a[i][i];
  a[2][3] = trace;
  auto l = torch::arange(6).view({2, 3});
  auto la = l.accessor<int64_t, 2>();
  return {m, torch::tensor({static_cast<float>(la[1][2] + la.size(1) + a.stride(1))})};
}
DIFF_CASE(survey_accessor_dims_errors) {
  auto m = wave({3, 4}, 1.0, 0.3);
  return torch::tensor({m.accessor<float, 3>().size(0)});
}
DIFF_CASE(survey_accessor_dtype_errors) {
  auto m = wave({3, 4}, 1.0, 0.3);
  return torch::tensor({m.accessor<double, 2>()[0][0]});
}
DIFF_CASE(survey_ordered_dict_of_parameters) {
  nn::Sequential net(nn::Linear(3, 2), nn::Linear(2, 1));
  fix_model(*net);
  torch::OrderedDict<std::string, torch::Tensor> params = net->named_parameters();
  torch::OrderedDict<std::string, torch::Tensor> copy = params;
  for (auto it = params.begin(); it != params.end(); ++it)
    if ((*it).key().find("bias") != std::string::npos) copy[(*it).key()] = (*it).value() * 2;
  torch::Tensor* missing = params.find("2.weight");
  return {copy["0.bias"], copy["1.weight"], params["0.bias"], S{static_cast<double>(params.size())},
          S{static_cast<double>(params.contains("1.bias"))}, S{static_cast<double>(missing == nullptr)}};
}
DIFF_CASE(survey_ordered_dict_missing_key_errors) {
  nn::Linear fc(3, 2);
  return fc->named_parameters()["weights"];
}
DIFF_CASE(survey_ordered_dict_duplicate_key_errors) {
  torch::OrderedDict<std::string, torch::Tensor> d;
  d.insert("a", torch::zeros({1}));
  d.insert("a", torch::ones({1}));
  return d["a"];
}
