#pragma once
/// \file
/// Linear, Embedding, LayerNorm and LSTM, with LibTorch 1.13's options, parameter names,
/// initialisation ranges and return types. LSTM is built from fine-grained ops (one GEMM for the
/// input projection of all steps, then per step addmm + pointwise gates), so it captures into a graph.
///
/// \code
///   gfy::nn::LSTM lstm(gfy::nn::LSTMOptions(128, 256).num_layers(3));
///   auto [out, state] = lstm(x);            // out: (T, B, 256)
///   auto [h, c] = state;                    // (3, B, 256) each
/// \endcode

#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

namespace gfy::nn {

struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features) : in_features_(in_features), out_features_(out_features) {}
  GFY_ARG(int64_t, in_features);
  GFY_ARG(int64_t, out_features);
  GFY_ARG(bool, bias) = true;
};

/// y = x W^T + b; weight (out, in), bias (out), both U(-1/sqrt(in), 1/sqrt(in)).
class LinearImpl : public Module {
public:
  LinearImpl(int64_t in_features, int64_t out_features) : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions &options);
  Tensor forward(const Tensor &input);
  void reset();
  LinearOptions options;
  Tensor weight, bias;
};
GFY_MODULE(Linear);

struct EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  GFY_ARG(int64_t, num_embeddings);
  GFY_ARG(int64_t, embedding_dim);
  GFY_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
};

/// Lookup table: weight (num_embeddings, embedding_dim) ~ N(0, 1).
class EmbeddingImpl : public Module {
public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingImpl(const EmbeddingOptions &options);
  Tensor forward(const Tensor &indices);
  void reset();
  EmbeddingOptions options;
  Tensor weight;
};
GFY_MODULE(Embedding);

struct LayerNormOptions {
  LayerNormOptions(std::vector<int64_t> normalized_shape) : normalized_shape_(std::move(normalized_shape)) {}
  GFY_ARG(std::vector<int64_t>, normalized_shape);
  GFY_ARG(double, eps) = 1e-5;
  GFY_ARG(bool, elementwise_affine) = true;
};

class LayerNormImpl : public Module {
public:
  LayerNormImpl(std::vector<int64_t> normalized_shape) : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  explicit LayerNormImpl(const LayerNormOptions &options);
  Tensor forward(const Tensor &input);
  void reset();
  LayerNormOptions options;
  Tensor weight, bias;
};
GFY_MODULE(LayerNorm);

struct LSTMOptions {
  LSTMOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  GFY_ARG(int64_t, input_size);
  GFY_ARG(int64_t, hidden_size);
  GFY_ARG(int64_t, num_layers) = 1;
  GFY_ARG(bool, bias) = true;
  GFY_ARG(bool, batch_first) = false;
  GFY_ARG(double, dropout) = 0.0;
  GFY_ARG(bool, bidirectional) = false;
  /// > 0: h is projected to proj_size features by weight_hr_l{k} (proj_size, H) after each step.
  GFY_ARG(int64_t, proj_size) = 0;
};

/// Multi-layer LSTM. Parameters weight_ih_l{k} (4H, in), weight_hh_l{k} (4H, R), bias_ih_l{k},
/// bias_hh_l{k} (4H), weight_hr_l{k} (P, H) when proj_size P > 0 (R = P, else R = H), and the
/// same with the suffix `_reverse` when bidirectional; gate order i, f, g, o, all
/// U(-1/sqrt(H), 1/sqrt(H)).
class LSTMImpl : public Module {
public:
  LSTMImpl(int64_t input_size, int64_t hidden_size) : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions &options);
  /// input (T, B, in) or (B, T, in) with batch_first; hx = (h0 (num_layers * D, B, R),
  /// c0 (num_layers * D, B, H)), zeros when absent, D = 2 when bidirectional. Returns
  /// (output (T, B, D * R) or (B, T, D * R), (h_n, c_n)).
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(const Tensor &input,
                                                         std::optional<std::tuple<Tensor, Tensor>> hx = std::nullopt);
  void reset();
  LSTMOptions options;
  std::vector<Tensor> w_ih, w_hh, b_ih, b_hh, w_hr; ///< per layer and direction, at layer * D + direction
};
GFY_MODULE(LSTM);

} // namespace gfy::nn
