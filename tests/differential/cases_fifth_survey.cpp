// Differential cases for what the fifth compat survey and its forward match found missing (issue
// #34, docs/compat.md "Fifth survey"): bidirectional recurrent layers and the LSTM projection
// (proj_size), cummax/cummin, fliplr/flipud, unfold, the in-place comparisons (gt_, ...), scatter_add,
// _unique2/_unique, the learning-rate schedulers (LRScheduler, StepLR), the virtual overloads
// of Module::to and InputArchive::load_from's sources. Weights come from fix_model, so neither library's generator plays a part.
#include "dump_main.h"
#include "model_inputs.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

using diff::Out;
using diff::S;
using diff::model_inputs::fix_model;
using diff::model_inputs::names_checksum;
using diff::model_inputs::wave;
namespace nn = torch::nn;

// --- bidirectional recurrent layers and the LSTM projection ---------------------------------------
Out lstm_outputs(nn::LSTM& lstm, const torch::Tensor& x) {
  auto [out, state] = lstm(x);
  return {out, std::get<0>(state), std::get<1>(state), S{names_checksum(lstm->named_parameters())}};
}

DIFF_CASE(survey5_lstm_bidirectional) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).bidirectional(true));
  fix_model(*lstm);
  return lstm_outputs(lstm, wave({5, 2, 3}, 1.0, 0.2));
}
DIFF_CASE(survey5_lstm_bidirectional_two_layers_batch_first) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true).batch_first(true));
  fix_model(*lstm);
  auto x = wave({2, 5, 3}, 1.0, 0.4);
  auto [out, state] = lstm(x);
  auto h0 = wave({4, 2, 4}, 0.5, 0.1), c0 = wave({4, 2, 4}, 0.5, 0.7);
  auto [with_state, given] = lstm(x, std::make_tuple(h0, c0));
  return {out, std::get<0>(state), std::get<1>(state), with_state, std::get<0>(given), std::get<1>(given),
          S{names_checksum(lstm->named_parameters())}};
}
DIFF_CASE(survey5_lstm_proj_size) {
  nn::LSTM lstm(nn::LSTMOptions(3, 5).proj_size(2).num_layers(2));
  fix_model(*lstm);
  return lstm_outputs(lstm, wave({4, 2, 3}, 1.0, 0.3));
}
DIFF_CASE(survey5_lstm_proj_size_bidirectional) {
  nn::LSTM lstm(nn::LSTMOptions(3, 5).proj_size(2).num_layers(2).bidirectional(true).bias(false));
  fix_model(*lstm);
  return lstm_outputs(lstm, wave({4, 2, 3}, 1.0, 0.6));
}
DIFF_CASE(survey5_lstm_bidirectional_gradients) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
  fix_model(*lstm);
  auto x = wave({4, 2, 3}, 1.0, 0.5).requires_grad_();
  auto [out, state] = lstm(x);
  (out * wave({4, 2, 8}, 1.0, 0.9)).sum().backward();
  return {x.grad(), lstm->named_parameters()["weight_hh_l1_reverse"].grad(),
          lstm->named_parameters()["bias_ih_l0_reverse"].grad(), lstm->named_parameters()["weight_ih_l0"].grad()};
}
DIFF_CASE(survey5_lstm_bidirectional_hidden_size_errors) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).bidirectional(true));
  auto h0 = torch::zeros({1, 2, 4});
  return std::get<0>(lstm(wave({5, 2, 3}, 1.0, 0.2), std::make_tuple(h0, h0)));
}
DIFF_CASE(survey5_lstm_proj_size_too_large_errors) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).proj_size(4));
  return std::get<0>(lstm(wave({5, 2, 3}, 1.0, 0.2)));
}
DIFF_CASE(survey5_gru_bidirectional) {
  nn::GRU gru(nn::GRUOptions(3, 4).num_layers(2).bidirectional(true));
  fix_model(*gru);
  auto x = wave({5, 2, 3}, 1.0, 0.2);
  auto [out, h] = gru(x);
  auto [out2, h2] = gru(x, wave({4, 2, 4}, 0.5, 0.3));
  return {out, h, out2, h2, S{names_checksum(gru->named_parameters())}};
}
DIFF_CASE(survey5_rnn_bidirectional) {
  nn::RNN rnn(nn::RNNOptions(3, 4).bidirectional(true).batch_first(true).nonlinearity(torch::kReLU));
  fix_model(*rnn);
  auto [out, h] = rnn(wave({2, 6, 3}, 1.0, 0.8));
  return {out, h, S{names_checksum(rnn->named_parameters())}};
}
DIFF_CASE(survey5_gru_bidirectional_hidden_size_errors) {
  nn::GRU gru(nn::GRUOptions(3, 4).bidirectional(true));
  return std::get<0>(gru(wave({5, 2, 3}, 1.0, 0.2), torch::zeros({1, 2, 4})));
}

// --- cummax, cummin ------------------------------------------------------------------------------
DIFF_CASE(survey5_cummax_cummin) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto ties = torch::tensor({1.0f, 3.0f, 3.0f, 2.0f, 5.0f, 5.0f, 0.0f});  // ties take the later index
  auto with_nan = torch::tensor({1.0f, nan, 4.0f, nan, 0.0f});           // a NaN stays, a later NaN replaces it
  auto grid = wave({3, 4}, 2.0, 0.3);
  auto ints = torch::tensor({{3, 1, 4}, {1, 5, 9}, {2, 6, 5}});
  auto [v1, i1] = torch::cummax(ties, 0);
  auto [v2, i2] = torch::cummin(ties, 0);
  auto [v3, i3] = with_nan.cummax(0);
  auto [v4, i4] = with_nan.cummin(0);
  auto [v5, i5] = grid.cummax(1);
  auto [v6, i6] = torch::cummin(grid, -2);
  auto [v7, i7] = ints.cummax(0);
  auto [v8, i8] = torch::cummax(torch::tensor(2.5), 0);
  auto [v9, i9] = torch::cummin(torch::tensor({true, false, true}), 0);
  auto [v10, i10] = torch::cummax(torch::zeros({2, 0}), 1);
  return {v1, i1, v2, i2, v3, i3, v4, i4, v5, i5, v6, i6, v7, i7, v8, i8, v9, i9, v10, i10};
}
DIFF_CASE(survey5_cummax_gradients) {
  auto x = torch::tensor({{1.0, 3.0, 3.0, 2.0}, {4.0, 1.0, 5.0, 5.0}}).requires_grad_();
  auto [values, indices] = x.cummax(1);
  (values * torch::tensor({1.0, 2.0, 3.0, 4.0})).sum().backward();
  return {values, indices, x.grad()};
}
DIFF_CASE(survey5_cummax_dim_errors) { return std::get<0>(torch::cummax(torch::ones({2, 3}), 2)); }

// --- fliplr, flipud ------------------------------------------------------------------------------
DIFF_CASE(survey5_fliplr_flipud) {
  auto x = torch::arange(24).view({2, 3, 4});
  return {torch::fliplr(x), x.flipud(), torch::flipud(torch::arange(3.0)), wave({2, 3}, 1.0, 0.1).fliplr()};
}
DIFF_CASE(survey5_fliplr_1d_errors) { return torch::fliplr(torch::arange(3)); }
DIFF_CASE(survey5_flipud_0d_errors) { return torch::flipud(torch::tensor(1.0)); }

// --- unfold (sliding windows) --------------------------------------------------------------------
DIFF_CASE(survey5_unfold) {
  auto x = torch::arange(10.0).view({2, 5});
  auto windows = x.unfold(1, 3, 1);  // (2, 3, 3)
  auto strided = torch::arange(24).view({2, 3, 4}).unfold(0, 1, 2);
  return {windows, x.unfold(-1, 2, 2), x.unfold(0, 2, 1), strided, torch::tensor(3.0).unfold(0, 1, 1),
          x.unfold(1, 0, 1).sizes().vec() == std::vector<int64_t>{2, 6, 0} ? S{1} : S{0}, windows.contiguous().sum(-1)};
}
DIFF_CASE(survey5_unfold_gradients) {
  auto x = wave({7}, 1.0, 0.2).requires_grad_();
  (x.unfold(0, 3, 2) * wave({3, 3}, 1.0, 0.5)).sum().backward();
  return x.grad();
}
DIFF_CASE(survey5_unfold_size_errors) { return torch::arange(4.0).unfold(0, 5, 1); }
DIFF_CASE(survey5_unfold_step_errors) { return torch::arange(4.0).unfold(0, 2, 0); }

// --- in-place comparisons ------------------------------------------------------------------------
DIFF_CASE(survey5_compare_in_place) {
  auto x = wave({2, 3}, 2.0, 0.1);
  auto row = wave({3}, 1.0, 0.4);
  auto ints = torch::tensor({{1, 5, 3}, {4, 2, 6}});
  return {x.clone().gt_(0.5), x.clone().lt_(row), x.clone().ge_(row), x.clone().le_(-0.25), x.clone().eq_(x),
          x.clone().ne_(row), ints.clone().gt_(3), ints.clone().le_(torch::tensor({2, 2, 6})),
          ints.clone().eq_(2.0), x.to(torch::kDouble).gt_(x)};
}
DIFF_CASE(survey5_compare_in_place_broadcast_errors) { return wave({3}, 1.0, 0.1).gt_(wave({2, 3}, 1.0, 0.2)); }
DIFF_CASE(survey5_compare_in_place_leaf_errors) {
  auto w = torch::ones({3}, torch::requires_grad());
  return w.gt_(0.5);
}

// --- scatter_add ---------------------------------------------------------------------------------
DIFF_CASE(survey5_scatter_add) {
  auto self = wave({3, 4}, 1.0, 0.1);
  auto rows = torch::tensor({{0, 2, 0, 1}, {0, 0, 2, 2}});  // row 0 of column 0 twice: they add up
  auto src = wave({3, 5}, 1.0, 0.7);                        // larger than the index: its corner is read
  auto cols = torch::tensor({{3, 3}, {0, 1}, {2, 2}});
  auto inplace = self.clone();
  inplace.scatter_add_(0, rows, src);
  auto counts = torch::zeros({5}, torch::kLong).scatter_add_(0, torch::tensor({1, 1, 4, 1}), torch::ones({4}, torch::kLong));
  return {inplace, self.scatter_add(1, cols, src), torch::scatter_add(self, -1, cols, src), counts,
          torch::zeros({2, 2}).scatter_add(0, torch::zeros({0, 2}, torch::kLong), torch::ones({0, 2}))};
}
DIFF_CASE(survey5_scatter_add_gradients) {
  auto self = wave({3, 2}, 1.0, 0.1).requires_grad_();
  // src of the index's shape: LibTorch 1.13's backward refuses a larger one (its own bug).
  auto src = wave({3, 2}, 1.0, 0.5).requires_grad_();
  auto out = self.scatter_add(0, torch::tensor({{0, 1}, {2, 0}, {0, 0}}), src);
  (out * wave({3, 2}, 1.0, 0.9)).sum().backward();
  return {out, self.grad(), src.grad()};
}
DIFF_CASE(survey5_scatter_add_negative_index_errors) {
  return torch::zeros({3}).scatter_add(0, torch::tensor({0, -1}), torch::ones({2}));
}
DIFF_CASE(survey5_scatter_add_index_range_errors) {
  return torch::zeros({3}).scatter_add(0, torch::tensor({0, 3}), torch::ones({2}));
}
DIFF_CASE(survey5_scatter_add_dtype_errors) {
  return torch::zeros({3}).scatter_add(0, torch::tensor({0, 1}), torch::ones({2}, torch::kDouble));
}

// --- _unique2, _unique ---------------------------------------------------------------------------
DIFF_CASE(survey5_unique) {
  auto x = torch::tensor({{3, 1, 2}, {1, 3, 3}});
  auto [u, inverse, counts] = torch::_unique2(x, true, true, true);
  auto [u_only, no_inverse, no_counts] = torch::_unique2(x);
  auto [f, f_inverse] = torch::_unique(torch::tensor({2.5f, -1.0f, 2.5f, 0.0f}), true, true);
  auto [b, b_inverse] = torch::_unique(torch::tensor({true, false, true}));
  return {u, inverse, counts, u_only, no_inverse, no_counts, f, f_inverse, b, b_inverse};
}

// --- learning-rate schedulers --------------------------------------------------------------------
/// A user scheduler, as training code writes them: halves the rate of every group each step.
class HalvingLR : public torch::optim::LRScheduler {
public:
  explicit HalvingLR(torch::optim::Optimizer& optimizer) : LRScheduler(optimizer) {}

private:
  std::vector<double> get_lrs() override {
    std::vector<double> lrs = get_current_lrs();
    for (double& lr : lrs) lr *= step_count_ == 0 ? 1.0 : 0.5;
    return lrs;
  }
};

std::vector<double> learning_rates(const torch::optim::Optimizer& optimizer) {
  std::vector<double> lrs;
  for (const auto& group : optimizer.param_groups()) lrs.push_back(group.options().get_lr());
  return lrs;
}

DIFF_CASE(survey5_step_lr) {
  nn::Linear a(2, 2), b(2, 1);
  torch::optim::SGD opt({torch::optim::OptimizerParamGroup(a->parameters()),
                         torch::optim::OptimizerParamGroup(b->parameters(), std::make_unique<torch::optim::SGDOptions>(0.4))},
                        torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 2, 0.5);
  std::vector<double> trace;
  for (int epoch = 0; epoch < 6; ++epoch) {
    sched.step();
    for (double lr : learning_rates(opt)) trace.push_back(lr);
  }
  return torch::tensor(trace, torch::kDouble);
}
DIFF_CASE(survey5_user_lr_scheduler) {
  nn::Linear a(2, 2);
  torch::optim::Adam opt(a->parameters(), torch::optim::AdamOptions(0.8));
  HalvingLR sched(opt);
  std::vector<double> trace;
  for (int epoch = 0; epoch < 4; ++epoch) {
    sched.step();
    trace.push_back(learning_rates(opt)[0]);
  }
  return torch::tensor(trace, torch::kDouble);
}

// --- Module::to overloads, virtual as LibTorch's ------------------------------------------------
/// A module that overrides one overload of `to`, as image-captioning code does to keep a frozen
/// backbone where it is; the other overloads stay reachable through the base.
class FrozenHeadImpl : public nn::Module {
public:
  FrozenHeadImpl() : head(register_module("head", nn::Linear(2, 2))), body(register_module("body", nn::Linear(2, 2))) {}
  void to(torch::Device device, bool non_blocking) override {
    body->to(device, non_blocking);  // the head stays
    ++moved;
  }
  nn::Linear head, body;
  int moved = 0;
};
TORCH_MODULE(FrozenHead);

DIFF_CASE(survey5_module_to_overloads) {
  FrozenHead m;
  m->to(torch::Device(torch::kCPU), false);  // the override hides the defaulted argument
  m->nn::Module::to(torch::kDouble);
  const bool all_double = m->head->weight.scalar_type() == torch::kDouble && m->body->bias.scalar_type() == torch::kDouble;
  m->nn::Module::to(torch::Device(torch::kCPU), torch::kFloat);
  return {S{static_cast<double>(m->moved)}, diff::flag(all_double), diff::flag(m->head->weight.scalar_type() == torch::kFloat)};
}

// --- InputArchive::load_from's sources -----------------------------------------------------------
// Each library reads back its own bytes (the formats differ): the four sources and the device remap
// must give the same tensors.
DIFF_CASE(survey5_archive_load_from_memory) {
  torch::serialize::OutputArchive out;
  out.write("w", wave({2, 3}, 1.0, 0.2));
  out.write("ids", torch::arange(4));
  std::ostringstream bytes;
  out.save_to(bytes);
  const std::string data = bytes.str();

  torch::serialize::InputArchive from_array, from_reader, from_stream;
  from_array.load_from(data.data(), data.size());
  from_reader.load_from(
      [&](uint64_t pos, void* buf, size_t n) -> size_t {
        const size_t take = std::min<size_t>(n, data.size() - pos);
        std::memcpy(buf, data.data() + pos, take);
        return take;
      },
      [&]() -> size_t { return data.size(); }, torch::Device(torch::kCPU));
  std::istringstream stream(data);
  from_stream.load_from(stream, torch::Device(torch::kCPU));
  torch::Tensor w1, w2, w3, ids;
  from_array.read("w", w1);
  from_reader.read("w", w2);
  from_stream.read("w", w3);
  from_reader.read("ids", ids);
  return {w1, w2, w3, ids};
}

}  // namespace
