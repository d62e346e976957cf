// One step of LibTorch's recurrent cells, composed from linear and pointwise ops: the same
// formulas, gate orders and bias handling as aten/src/ATen/native/RNN.cpp, so that weights
// trained with LibTorch load and run unchanged. The nn:: recurrent modules (src/nn/rnn.cpp)
// call these per time step.
#include "OpsCommon.h"

namespace gfy {
using namespace detail;

namespace {

/// Checks the shapes of one cell call: input (B, in) or (in), hx like input with H features.
void check_cell(const Tensor &input, const Tensor &hx, const Tensor &w_ih, const Tensor &w_hh, int64_t gates,
                const char *name) {
  check_defined(input, "input");
  check_defined(hx, "hx");
  check_defined(w_ih, "w_ih");
  check_defined(w_hh, "w_hh");
  GFY_CHECK(input.dim() == 1 || input.dim() == 2, name, ": Expected input to be 1D or 2D, got ", input.dim(), "D instead");
  GFY_CHECK(hx.dim() == input.dim(), name, ": Expected hidden to be ", input.dim(), "D, got ", hx.dim(), "D instead");
  GFY_CHECK(input.size(-1) == w_ih.size(1), "input has inconsistent input_size: got ", input.size(-1), " expected ",
            w_ih.size(1));
  GFY_CHECK(input.dim() == 1 || input.size(0) == hx.size(0), "Input batch size ", input.size(0),
            " doesn't match hidden0 batch size ", hx.size(0));
  GFY_CHECK(w_ih.size(0) == gates * hx.size(-1) && w_hh.size(0) == gates * hx.size(-1) && w_hh.size(1) == hx.size(-1),
            "hidden has inconsistent hidden_size: got ", hx.size(-1), ", expected ", w_hh.size(1));
}

} // namespace

Tensor gru_cell(const Tensor &input, const Tensor &hx, const Tensor &w_ih, const Tensor &w_hh, const Tensor &b_ih,
                const Tensor &b_hh) {
  check_cell(input, hx, w_ih, w_hh, 3, "gru_cell");
  // gi, gh: (B, 3H), gate order r (reset), z (update), n (new).
  auto gi = linear(input, w_ih, b_ih).chunk(3, -1);
  auto gh = linear(hx, w_hh, b_hh).chunk(3, -1);
  Tensor r = sigmoid(gi[0] + gh[0]);
  Tensor z = sigmoid(gi[1] + gh[1]);
  Tensor n = tanh(gi[2] + gh[2] * r);
  return (hx - n) * z + n;
}

std::tuple<Tensor, Tensor> lstm_cell(const Tensor &input, const std::vector<Tensor> &hx, const Tensor &w_ih,
                                     const Tensor &w_hh, const Tensor &b_ih, const Tensor &b_hh) {
  GFY_CHECK(hx.size() == 2, "lstm_cell expects two hidden states");
  check_cell(input, hx[0], w_ih, w_hh, 4, "lstm_cell");
  check_defined(hx[1], "cx");
  // gates: (B, 4H), order i, f, g, o.
  auto g = (linear(input, w_ih, b_ih) + linear(hx[0], w_hh, b_hh)).chunk(4, -1);
  Tensor c = sigmoid(g[1]) * hx[1] + sigmoid(g[0]) * tanh(g[2]);
  Tensor h = sigmoid(g[3]) * tanh(c);
  return {h, c};
}

Tensor rnn_tanh_cell(const Tensor &input, const Tensor &hx, const Tensor &w_ih, const Tensor &w_hh, const Tensor &b_ih,
                     const Tensor &b_hh) {
  check_cell(input, hx, w_ih, w_hh, 1, "rnn_tanh_cell");
  return tanh(linear(input, w_ih, b_ih) + linear(hx, w_hh, b_hh));
}

Tensor rnn_relu_cell(const Tensor &input, const Tensor &hx, const Tensor &w_ih, const Tensor &w_hh, const Tensor &b_ih,
                     const Tensor &b_hh) {
  check_cell(input, hx, w_ih, w_hh, 1, "rnn_relu_cell");
  return relu(linear(input, w_ih, b_ih) + linear(hx, w_hh, b_hh));
}

} // namespace gfy
