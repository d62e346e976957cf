// GRU, RNN and the recurrent cells. The layers run each step through the cell functions of
// src/core/ops_rnn_cells.cpp, so the numerics are exactly those of the cells (and of LibTorch's
// formulas); parameter names, registration order and initialisation follow LibTorch 1.13's
// RNNImplBase and RNNCellImplBase, so state dicts and parameter loops carry over.
#include <graphify/nn/RNN.h>

#include "Recurrence.h"

#include <cmath>
#include <string>

namespace gfy::nn {

namespace {

void uniform_all(Module &m, int64_t hidden_size) {
  NoGradGuard no_grad; // initialisation is not part of any graph (LibTorch's reset does the same)
  const double bound = 1.0 / std::sqrt(double(hidden_size));
  for (auto &p : m.parameters(false)) p.uniform_(-bound, bound);
}

} // namespace

RecurrentLayersBase::RecurrentLayersBase(const char *name, int64_t input_size, int64_t hidden_size, int64_t num_layers,
                                         bool bias, bool batch_first, double dropout, bool bidirectional, int64_t gates)
    : Module(name), input_size_(input_size), hidden_size_(hidden_size), num_layers_(num_layers),
      directions_(bidirectional ? 2 : 1), batch_first_(batch_first), dropout_(dropout) {
  GFY_CHECK(num_layers >= 1, "nn::", name, ": num_layers must be at least 1");
  GFY_CHECK(hidden_size > 0, "hidden_size must be greater than zero");
  GFY_CHECK(dropout >= 0 && dropout <= 1, "dropout should be a number in range [0, 1] representing the probability of an element being zeroed");
  const int64_t H = hidden_size;
  // LibTorch's order: layer by layer, the forward direction before the reverse one ("_reverse").
  for (int64_t l = 0; l < num_layers; ++l) {
    const int64_t in = l == 0 ? input_size : H * directions_;
    for (int64_t d = 0; d < directions_; ++d) {
      const std::string s = std::to_string(l) + (d == 1 ? "_reverse" : "");
      w_ih.push_back(register_parameter("weight_ih_l" + s, gfy::empty({gates * H, in})));
      w_hh.push_back(register_parameter("weight_hh_l" + s, gfy::empty({gates * H, H})));
      if (bias) {
        b_ih.push_back(register_parameter("bias_ih_l" + s, gfy::empty({gates * H})));
        b_hh.push_back(register_parameter("bias_hh_l" + s, gfy::empty({gates * H})));
      }
    }
  }
  reset_parameters();
}

void RecurrentLayersBase::reset_parameters() { uniform_all(*this, hidden_size_); }

std::tuple<Tensor, Tensor> RecurrentLayersBase::forward(const Tensor &input, Tensor hx) {
  GFY_CHECK(input.defined(), name(), ": input is undefined");
  // LibTorch 1.13's C++ layers take 3-D input only (unbatched input is Python-only in that release).
  GFY_CHECK(input.dim() == 3, "input must have 3 dimensions, got ", input.dim());
  Tensor x = batch_first_ ? input.transpose(0, 1) : input; // x: (T, B, in)
  GFY_CHECK(x.size(2) == input_size_, "input.size(-1) must be equal to input_size. Expected ", input_size_, ", got ",
            x.size(2));
  const int64_t T = x.size(0), B = x.size(1), H = hidden_size_, L = num_layers_, D = directions_;
  if (hx.defined()) {
    GFY_CHECK(hx.sizes() == IntArrayRef({L * D, B, H}), "Expected hidden size ", L * D, " ", B, " ", H, ", got ", hx.sizes());
  } else {
    hx = zeros({L * D, B, H}, input.options());
  }
  std::vector<Tensor> hn;
  Tensor layer_in = x;
  for (int64_t l = 0; l < L; ++l) {
    std::vector<Tensor> outputs;
    for (int64_t d = 0; d < D; ++d) {
      const size_t k = size_t(l * D + d);
      Tensor h = hx.select(0, int64_t(k));
      outputs.push_back(detail::run_direction(T, d == 1, [&](int64_t t) {
        h = cell(layer_in.select(0, t), h, k);
        return h;
      }));
      hn.push_back(h);
    }
    Tensor out = detail::join_directions(outputs); // out: (T, B, D * H)
    if (dropout_ > 0 && is_training() && l + 1 < L) out = dropout(out, dropout_, true);
    layer_in = out;
  }
  return {batch_first_ ? layer_in.transpose(0, 1) : layer_in, stack(hn, 0)};
}

GRUImpl::GRUImpl(const GRUOptions &o)
    : RecurrentLayersBase("GRU", o.input_size(), o.hidden_size(), o.num_layers(), o.bias(), o.batch_first(),
                          o.dropout(), o.bidirectional(), 3),
      options(o) {}

Tensor GRUImpl::cell(const Tensor &x, const Tensor &h, size_t l) const {
  return gru_cell(x, h, w_ih[l], w_hh[l], b_ih.empty() ? Tensor() : b_ih[l], b_hh.empty() ? Tensor() : b_hh[l]);
}

RNNImpl::RNNImpl(const RNNOptions &o)
    : RecurrentLayersBase("RNN", o.input_size(), o.hidden_size(), o.num_layers(), o.bias(), o.batch_first(),
                          o.dropout(), o.bidirectional(), 1),
      options(o) {}

Tensor RNNImpl::cell(const Tensor &x, const Tensor &h, size_t l) const {
  const Tensor bi = b_ih.empty() ? Tensor() : b_ih[l], bh = b_hh.empty() ? Tensor() : b_hh[l];
  if (std::holds_alternative<enumtype::kReLU>(options.nonlinearity())) return rnn_relu_cell(x, h, w_ih[l], w_hh[l], bi, bh);
  return rnn_tanh_cell(x, h, w_ih[l], w_hh[l], bi, bh);
}

RecurrentCellBase::RecurrentCellBase(const char *name, int64_t input_size, int64_t hidden_size, bool bias, int64_t gates)
    : Module(name), input_size_(input_size), hidden_size_(hidden_size) {
  GFY_CHECK(hidden_size > 0, "hidden_size must be greater than zero");
  weight_ih = register_parameter("weight_ih", gfy::empty({gates * hidden_size, input_size}));
  weight_hh = register_parameter("weight_hh", gfy::empty({gates * hidden_size, hidden_size}));
  if (bias) {
    bias_ih = register_parameter("bias_ih", gfy::empty({gates * hidden_size}));
    bias_hh = register_parameter("bias_hh", gfy::empty({gates * hidden_size}));
  }
  reset_parameters();
}

void RecurrentCellBase::reset_parameters() { uniform_all(*this, hidden_size_); }

// LibTorch 1.13's C++ cells take batched (B, in) input only (unbatched input is a Python-side
// feature of that release), so a 1-D input is an error here too.
void RecurrentCellBase::check_input(const Tensor &input) const {
  GFY_CHECK(input.defined(), name(), ": input is undefined");
  GFY_CHECK(input.dim() == 2, name(), ": Expected input to be 2-D (batch, input_size) but received ", input.dim(),
            "-D tensor");
  GFY_CHECK(input.size(1) == input_size_, "input has inconsistent input_size: got ", input.size(1), " expected ",
            input_size_);
}

GRUCellImpl::GRUCellImpl(const GRUCellOptions &o)
    : RecurrentCellBase("GRUCell", o.input_size(), o.hidden_size(), o.bias(), 3), options(o) {}

Tensor GRUCellImpl::forward(const Tensor &input, const Tensor &hx) {
  check_input(input);
  Tensor h = hx.defined() ? hx : zeros({input.size(0), hidden_size_}, input.options());
  return gru_cell(input, h, weight_ih, weight_hh, bias_ih, bias_hh);
}

LSTMCellImpl::LSTMCellImpl(const LSTMCellOptions &o)
    : RecurrentCellBase("LSTMCell", o.input_size(), o.hidden_size(), o.bias(), 4), options(o) {}

std::tuple<Tensor, Tensor> LSTMCellImpl::forward(const Tensor &input, std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  check_input(input);
  Tensor h, c;
  if (hx_opt) {
    std::tie(h, c) = *hx_opt;
  } else {
    h = zeros({input.size(0), hidden_size_}, input.options());
    c = zeros({input.size(0), hidden_size_}, input.options());
  }
  return lstm_cell(input, {h, c}, weight_ih, weight_hh, bias_ih, bias_hh);
}

RNNCellImpl::RNNCellImpl(const RNNCellOptions &o)
    : RecurrentCellBase("RNNCell", o.input_size(), o.hidden_size(), o.bias(), 1), options(o) {}

Tensor RNNCellImpl::forward(const Tensor &input, const Tensor &hx) {
  check_input(input);
  Tensor h = hx.defined() ? hx : zeros({input.size(0), hidden_size_}, input.options());
  return std::holds_alternative<enumtype::kReLU>(options.nonlinearity())
             ? rnn_relu_cell(input, h, weight_ih, weight_hh, bias_ih, bias_hh)
             : rnn_tanh_cell(input, h, weight_ih, weight_hh, bias_ih, bias_hh);
}

} // namespace gfy::nn
