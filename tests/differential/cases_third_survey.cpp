// Differential cases for the names the third, held-out compat survey found missing (issue #34,
// docs/compat.md "Third survey"): torch::tensor of nested braces, count_nonzero, the sampling ops
// (multinomial, bernoulli, exponential_: their draws differ between libraries, so the cases
// return what must hold for any draw), nn::init::orthogonal_, Module::replace_module and
// unregister_module, memory formats (channels-last), and ATen's argument checks (TensorArg).
#include "dump_main.h"
#include "model_inputs.h"

#include <ATen/TensorUtils.h>

#include <vector>

namespace {

using diff::Out;
using diff::S;
using diff::flag;
using diff::model_inputs::fix_model;
using diff::model_inputs::wave;
namespace nn = torch::nn;

/// Probabilities with zero columns (1 and 3): draws must never pick them.
torch::Tensor zero_column_probs() {
  auto p = torch::sigmoid(wave({3, 6}, 2.0, 0.4));
  p.index_put_({torch::indexing::Slice(), 1}, 0.0);
  p.index_put_({torch::indexing::Slice(), 3}, 0.0);
  return p;
}

struct TwoLayerImpl : nn::Module {
  TwoLayerImpl() : fc(register_module("fc", nn::Linear(3, 4))), out(register_module("out", nn::Linear(4, 2))) {}
  nn::Linear fc, out;
};
TORCH_MODULE(TwoLayer);

}  // namespace

// --- torch::tensor of nested braces -------------------------------------------------------------
DIFF_CASE(survey3_tensor_nested_lists) {
  const float x1 = 1.5f, y1 = 2.0f, x2 = 7.25f, y2 = 9.0f;
  return {torch::tensor({{1, 2, 3}, {4, 5, 6}}), torch::tensor({{x1, y1, x2, y2}}), torch::tensor({{0.5, 1.5}, {2.5, 3.5}}),
          torch::tensor({{{1, 2}}, {{3, 4}}}, torch::kFloat), torch::tensor({{true, false}, {false, true}}),
          torch::tensor({{1.0, 2.0}}, torch::dtype(torch::kDouble)), torch::tensor({{1, 2}}, torch::kInt),
          flag(torch::tensor({{2.5f}}, torch::requires_grad()).requires_grad())};
}
DIFF_CASE(survey3_tensor_ragged_list_errors) { return torch::tensor({{1, 2}, {3}}); }
DIFF_CASE(survey3_tensor_mixed_types_errors) { return torch::tensor({{1, 2}, {3.5, 4.0}}); }
DIFF_CASE(survey3_tensor_vector_in_list_errors) {
  std::vector<float> row{1.0f, 2.0f};
  return torch::tensor({row, row});
}

// --- count_nonzero ------------------------------------------------------------------------------
DIFF_CASE(survey3_count_nonzero) {
  // An int dim is ambiguous in LibTorch (IntArrayRef or optional<int64_t>): code names one.
  auto x = torch::relu(wave({3, 4, 2}, 2.0, 0.3));
  auto mask = x > 0.5;
  const std::vector<int64_t> last{-1};
  return {torch::count_nonzero(x), torch::count_nonzero(x, c10::optional<int64_t>(1)),
          x.count_nonzero(std::vector<int64_t>{0, 2}), mask.count_nonzero(), torch::count_nonzero(mask, last),
          torch::count_nonzero(torch::zeros({0, 3})), x.to(torch::kInt).count_nonzero(c10::optional<int64_t>(0))};
}
DIFF_CASE(survey3_count_nonzero_repeated_dim_errors) {
  return torch::count_nonzero(torch::ones({2, 2}), std::vector<int64_t>{0, 0});
}

// --- sampling -----------------------------------------------------------------------------------
DIFF_CASE(survey3_multinomial_without_replacement) {
  torch::manual_seed(0);
  auto p = zero_column_probs();
  auto draw = torch::multinomial(p, 4);  // 4 nonzero categories per row: each drawn once
  auto sorted = std::get<0>(draw.sort(1));
  auto one = p.multinomial(1);
  auto row = torch::multinomial(p[0], 2);
  return {sorted, torch::tensor(one.sizes().vec()),
          flag(draw.scalar_type() == torch::kLong), flag(((one != 1) & (one != 3)).all().item<bool>()),
          torch::tensor(row.sizes().vec()), flag(row[0].item<int64_t>() != row[1].item<int64_t>())};
}
DIFF_CASE(survey3_multinomial_with_replacement) {
  torch::manual_seed(0);
  auto p = zero_column_probs();
  auto draw = torch::multinomial(p, 50, /*replacement=*/true);
  auto picked_zero = (draw == 1) | (draw == 3);
  auto in_range = (draw >= 0) & (draw < 6);
  auto certain = torch::multinomial(torch::tensor({0.0f, 0.0f, 2.0f}), 5, true);  // only category 2
  return {torch::tensor(draw.sizes().vec()), flag(!picked_zero.any().item<bool>()), flag(in_range.all().item<bool>()),
          certain};
}
DIFF_CASE(survey3_multinomial_too_many_samples_errors) { return torch::multinomial(torch::ones({4}), 5); }
DIFF_CASE(survey3_multinomial_3d_errors) { return torch::multinomial(torch::ones({2, 2, 2}), 1); }
DIFF_CASE(survey3_multinomial_integer_errors) { return torch::multinomial(torch::ones({4}, torch::kLong), 1); }
DIFF_CASE(survey3_multinomial_no_samples_errors) { return torch::multinomial(torch::ones({4}), 0); }
DIFF_CASE(survey3_multinomial_negative_errors) { return torch::multinomial(torch::tensor({0.5f, -0.1f}), 1); }
DIFF_CASE(survey3_multinomial_zero_row_errors) { return torch::multinomial(torch::zeros({2, 3}), 2); }
DIFF_CASE(survey3_multinomial_replacement_negative_errors) {
  return torch::multinomial(torch::tensor({0.5f, -0.1f, 0.2f}), 3, true);
}
DIFF_CASE(survey3_bernoulli) {
  torch::manual_seed(0);
  auto p = torch::tensor({0.0f, 1.0f, 1.0f, 0.0f});  // certain outcomes
  auto x = torch::empty({2, 3}, torch::kDouble);
  auto ints = torch::empty({5}, torch::kLong);
  auto half = torch::bernoulli(torch::full({200}, 0.5));
  return {torch::bernoulli(p), p.bernoulli(), x.bernoulli_(1.0).clone(), x.bernoulli_(0.0), ints.bernoulli_(1.0),
          torch::bernoulli(p, 1.0), torch::zeros({3}).bernoulli_(torch::tensor({1.0, 0.0, 1.0})),
          flag(((half == 0) | (half == 1)).all().item<bool>())};
}
DIFF_CASE(survey3_bernoulli_probability_errors) { return torch::zeros({3}).bernoulli_(1.5); }
DIFF_CASE(survey3_exponential) {
  torch::manual_seed(0);
  auto e = torch::empty({500}).exponential_(2.0);
  return {torch::tensor(e.sizes().vec()), flag((e >= 0).all().item<bool>()), flag(torch::isfinite(e).all().item<bool>()),
          flag(e.mean().item<float>() > 0.3f && e.mean().item<float>() < 0.7f)};
}
DIFF_CASE(survey3_exponential_lambda_errors) { return torch::empty({3}).exponential_(-1.0); }

// --- nn::init::orthogonal_ ----------------------------------------------------------------------
DIFF_CASE(survey3_init_orthogonal) {
  torch::manual_seed(0);
  auto wide = nn::init::orthogonal_(torch::empty({3, 5}));
  auto tall = nn::init::orthogonal_(torch::empty({6, 2}), 2.0);
  auto conv = nn::init::orthogonal_(torch::empty({4, 2, 3, 3})).reshape({4, -1});
  auto square = nn::init::orthogonal_(torch::empty({4, 4}, torch::kDouble));
  return {wide.mm(wide.t()), tall.t().mm(tall), conv.mm(conv.t()), square.t().mm(square), square.mm(square.t())};
}
DIFF_CASE(survey3_init_orthogonal_1d_errors) { return nn::init::orthogonal_(torch::empty({4})); }

// --- replace_module / unregister_module ---------------------------------------------------------
DIFF_CASE(survey3_replace_module) {
  TwoLayer net;
  fix_model(*net);
  net->out = net->replace_module("out", nn::Linear(4, 3));
  fix_model(*net);
  std::vector<torch::Tensor> out;
  for (const auto& p : net->named_parameters()) out.push_back(p.value());
  auto x = wave({2, 3}, 1.0, 0.2);
  out.push_back(net->out(net->fc(x)));
  net->unregister_module("fc");
  out.push_back(torch::tensor(static_cast<int64_t>(net->named_parameters().size())));
  return out;
}
DIFF_CASE(survey3_replace_missing_module_errors) {
  TwoLayer net;
  net->replace_module("head", nn::Linear(4, 3));
  return torch::zeros({1});
}
DIFF_CASE(survey3_unregister_missing_module_errors) {
  TwoLayer net;
  net->unregister_module("head");
  return torch::zeros({1});
}

// --- memory formats -----------------------------------------------------------------------------
DIFF_CASE(survey3_channels_last) {
  auto x = wave({2, 3, 4, 5}, 2.0, 0.1);
  auto cl = x.contiguous(torch::MemoryFormat::ChannelsLast);
  auto back = cl.contiguous(at::MemoryFormat::Contiguous);
  nn::Conv2d conv(nn::Conv2dOptions(3, 2, 3).padding(1));
  fix_model(*conv);
  auto fmt = [](const torch::Tensor& t) { return S{static_cast<double>(static_cast<int>(t.suggest_memory_format()))}; };
  return {cl, torch::tensor(cl.strides().vec()), fmt(x), fmt(cl), fmt(x.permute({0, 2, 3, 1})),
          flag(cl.is_contiguous(c10::MemoryFormat::ChannelsLast)), flag(cl.is_contiguous()), flag(back.is_contiguous()),
          conv(cl) - conv(x), (cl * 2 + 1).sum({2, 3}), fmt(wave({1, 1, 1, 1}, 1.0, 0.0)),
          fmt(wave({2, 3, 2, 2, 2}, 1.0, 0.0).contiguous(torch::MemoryFormat::ChannelsLast3d))};
}
DIFF_CASE(survey3_channels_last_rank_errors) {
  return wave({3, 4, 5}, 1.0, 0.0).contiguous(torch::MemoryFormat::ChannelsLast);
}

DIFF_CASE(survey3_channels_last_exact_match) {
  // Strides ordered channels-last but not dense (a slice of W): suggested only without exact match.
  auto cl = wave({2, 3, 4, 6}, 1.0, 0.2).contiguous(torch::MemoryFormat::ChannelsLast);
  auto sliced = cl.narrow(3, 0, 4);
  auto fmt = [](torch::MemoryFormat f) { return S{static_cast<double>(static_cast<int>(f))}; };
  return {fmt(sliced.suggest_memory_format()), fmt(sliced.suggest_memory_format(true)),
          fmt(cl.suggest_memory_format(true)), flag(sliced.is_contiguous(torch::MemoryFormat::ChannelsLast))};
}
DIFF_CASE(survey3_contiguous_preserve) {
  // Preserve on a tensor already row-major returns it (is_contiguous(Preserve) is row-major).
  auto x = wave({1, 2, 2, 2}, 1.0, 0.0);
  return {x.contiguous(torch::MemoryFormat::Preserve), flag(x.is_contiguous(torch::MemoryFormat::Preserve))};
}
DIFF_CASE(survey3_contiguous_preserve_errors) {
  return wave({2, 2, 3}, 1.0, 0.0).transpose(0, 2).contiguous(torch::MemoryFormat::Preserve);
}

// --- ATen's argument checks ---------------------------------------------------------------------
DIFF_CASE(survey3_tensor_arg_checks_pass) {
  auto boxes = wave({5, 4}, 1.0, 0.1), scores = wave({5}, 1.0, 0.2);
  at::TensorArg boxes_t{boxes, "boxes", 1}, scores_t{scores, "scores", 2};
  at::CheckedFrom c = "nms_cpu";
  at::checkAllSameType(c, {boxes_t, scores_t});
  at::checkDim(c, boxes_t, 2);
  at::checkSize(c, boxes_t, 1, 4);
  at::checkSize(c, scores_t, {5});
  at::checkAllDefined(c, {boxes_t, scores_t});
  at::checkScalarTypes(c, scores_t, {at::kFloat, at::kDouble});
  at::checkContiguous(c, boxes_t);
  at::checkDeviceType(c, {boxes, scores}, at::kCPU);
  return boxes.sum();
}
DIFF_CASE(survey3_tensor_arg_same_type_errors) {
  auto a = torch::zeros({2}), b = torch::zeros({2}, torch::kDouble);
  at::TensorArg a_t{a, "input", 1}, b_t{b, "rois", 2};
  at::checkAllSameType("roi_align_forward_cpu", {a_t, b_t});
  return a;
}
DIFF_CASE(survey3_tensor_arg_dim_errors) {
  auto a = torch::zeros({2});
  at::TensorArg a_t{a, "boxes", 1};
  at::checkDim("nms_cpu", a_t, 2);
  return a;
}
DIFF_CASE(survey3_tensor_arg_same_gpu_errors) {
  auto a = torch::zeros({2}), b = torch::zeros({2});
  at::TensorArg a_t{a, "input", 1}, b_t{b, "rois", 2};
  at::checkAllSameGPU("roi_align_forward_cuda", {a_t, b_t});
  return a;
}
