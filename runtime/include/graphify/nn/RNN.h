#pragma once
/// \file
/// The recurrent layers of LibTorch 1.13 besides LSTM (nn/Layers.h): `GRU` and `RNN` (multi-layer,
/// `batch_first`, inter-layer `dropout`, `bidirectional`) and the cells `GRUCell`, `LSTMCell`,
/// `RNNCell`, with LibTorch's options, parameter names (`weight_ih_l0`, `weight_ih`, ...), gate
/// orders, U(-1/sqrt(H), 1/sqrt(H)) initialisation and return types. Each step is one call of
/// gfy::gru_cell / lstm_cell / rnn_*_cell (fine-grained ops), so every layer captures.
///
/// \code
///   gfy::nn::GRU gru(gfy::nn::GRUOptions(32, 64).num_layers(2).batch_first(true));
///   auto [out, h_n] = gru(x);                   // x (B, T, 32): out (B, T, 64), h_n (2, B, 64)
///   gfy::nn::LSTMCell cell(32, 64);
///   auto [h, c] = cell(x_t, std::make_tuple(h, c));
/// \endcode

#include <graphify/nn/Init.h>
#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <optional>
#include <tuple>
#include <variant>

namespace gfy::nn {

using rnn_nonlinearity_t = std::variant<enumtype::kTanh, enumtype::kReLU>;

struct GRUOptions {
  GRUOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  GFY_ARG(int64_t, input_size);
  GFY_ARG(int64_t, hidden_size);
  GFY_ARG(int64_t, num_layers) = 1;
  GFY_ARG(bool, bias) = true;
  GFY_ARG(bool, batch_first) = false;
  GFY_ARG(double, dropout) = 0.0;
  GFY_ARG(bool, bidirectional) = false;
};

struct RNNOptions {
  RNNOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  GFY_ARG(int64_t, input_size);
  GFY_ARG(int64_t, hidden_size);
  GFY_ARG(int64_t, num_layers) = 1;
  GFY_ARG(rnn_nonlinearity_t, nonlinearity) = kTanh;
  GFY_ARG(bool, bias) = true;
  GFY_ARG(bool, batch_first) = false;
  GFY_ARG(double, dropout) = 0.0;
  GFY_ARG(bool, bidirectional) = false;
};

/// The parameters and the layer loop GRU and RNN share; `gates` is 3 (GRU) or 1 (RNN).
class RecurrentLayersBase : public Module {
public:
  /// input (T, B, in) or (B, T, in) with batch_first; hx (num_layers * D, B, H), zeros when
  /// undefined, D = 2 when bidirectional. Returns (output (T, B, D * H), h_n).
  std::tuple<Tensor, Tensor> forward(const Tensor &input, Tensor hx = {});
  /// U(-1/sqrt(H), 1/sqrt(H)) on every parameter.
  void reset_parameters();
  std::vector<Tensor> w_ih, w_hh, b_ih, b_hh; ///< per layer and direction, at layer * D + direction

protected:
  RecurrentLayersBase(const char *name, int64_t input_size, int64_t hidden_size, int64_t num_layers, bool bias,
                      bool batch_first, double dropout, bool bidirectional, int64_t gates);
  /// One time step of the layer and direction at `layer` (layer * D + direction): (B, in) x (B, H) -> (B, H).
  virtual Tensor cell(const Tensor &x, const Tensor &h, size_t layer) const = 0;

private:
  int64_t input_size_, hidden_size_, num_layers_, directions_;
  bool batch_first_;
  double dropout_;
};

class GRUImpl : public RecurrentLayersBase {
public:
  GRUImpl(int64_t input_size, int64_t hidden_size) : GRUImpl(GRUOptions(input_size, hidden_size)) {}
  explicit GRUImpl(const GRUOptions &options);
  GRUOptions options;

protected:
  Tensor cell(const Tensor &x, const Tensor &h, size_t layer) const override;
};
GFY_MODULE(GRU);

class RNNImpl : public RecurrentLayersBase {
public:
  RNNImpl(int64_t input_size, int64_t hidden_size) : RNNImpl(RNNOptions(input_size, hidden_size)) {}
  explicit RNNImpl(const RNNOptions &options);
  RNNOptions options;

protected:
  Tensor cell(const Tensor &x, const Tensor &h, size_t layer) const override;
};
GFY_MODULE(RNN);

/// Options of the three cells (LibTorch has one struct per cell; RNNCellOptions adds nonlinearity).
struct GRUCellOptions {
  GRUCellOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  GFY_ARG(int64_t, input_size);
  GFY_ARG(int64_t, hidden_size);
  GFY_ARG(bool, bias) = true;
};
struct LSTMCellOptions {
  LSTMCellOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  GFY_ARG(int64_t, input_size);
  GFY_ARG(int64_t, hidden_size);
  GFY_ARG(bool, bias) = true;
};
struct RNNCellOptions {
  RNNCellOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  GFY_ARG(int64_t, input_size);
  GFY_ARG(int64_t, hidden_size);
  GFY_ARG(bool, bias) = true;
  GFY_ARG(rnn_nonlinearity_t, nonlinearity) = kTanh;
};

/// Parameters weight_ih (G * H, in), weight_hh (G * H, H), bias_ih, bias_hh (G * H).
class RecurrentCellBase : public Module {
public:
  void reset_parameters();
  Tensor weight_ih, weight_hh, bias_ih, bias_hh;

protected:
  RecurrentCellBase(const char *name, int64_t input_size, int64_t hidden_size, bool bias, int64_t gates);
  /// Checks that the input is (B, input_size).
  void check_input(const Tensor &input) const;
  int64_t input_size_, hidden_size_;
};

class GRUCellImpl : public RecurrentCellBase {
public:
  GRUCellImpl(int64_t input_size, int64_t hidden_size) : GRUCellImpl(GRUCellOptions(input_size, hidden_size)) {}
  explicit GRUCellImpl(const GRUCellOptions &options);
  /// input (B, in); hx (B, H), zeros when undefined.
  Tensor forward(const Tensor &input, const Tensor &hx = {});
  GRUCellOptions options;
};
GFY_MODULE(GRUCell);

class LSTMCellImpl : public RecurrentCellBase {
public:
  LSTMCellImpl(int64_t input_size, int64_t hidden_size) : LSTMCellImpl(LSTMCellOptions(input_size, hidden_size)) {}
  explicit LSTMCellImpl(const LSTMCellOptions &options);
  /// Returns (h', c'); hx_opt = (h, c), zeros when absent.
  std::tuple<Tensor, Tensor> forward(const Tensor &input,
                                     std::optional<std::tuple<Tensor, Tensor>> hx_opt = std::nullopt);
  LSTMCellOptions options;
};
GFY_MODULE(LSTMCell);

class RNNCellImpl : public RecurrentCellBase {
public:
  RNNCellImpl(int64_t input_size, int64_t hidden_size) : RNNCellImpl(RNNCellOptions(input_size, hidden_size)) {}
  explicit RNNCellImpl(const RNNCellOptions &options);
  Tensor forward(const Tensor &input, const Tensor &hx = {});
  RNNCellOptions options;
};
GFY_MODULE(RNNCell);

} // namespace gfy::nn
