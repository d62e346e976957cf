#pragma once
/// \file
/// `MultiheadAttention` of LibTorch 1.13 (`MultiheadAttentionOptions(embed_dim, num_heads)`:
/// dropout, bias, add_bias_kv, add_zero_attn, kdim, vdim) with its parameters `in_proj_weight`
/// (3E, E) or `q/k/v_proj_weight` when kdim/vdim differ, `in_proj_bias` (3E), `bias_k`/`bias_v`,
/// and `out_proj` (Linear), initialised as LibTorch does. Inputs are sequence-first (L, N, E),
/// as in LibTorch 1.13's C++ API (no batch_first); the attention is bmm + softmax + bmm.
///
/// \code
///   gfy::nn::MultiheadAttention mha(gfy::nn::MultiheadAttentionOptions(64, 8));
///   auto [out, weights] = mha(x, x, x);       // x (L, N, 64): out (L, N, 64), weights (N, L, L)
/// \endcode

#include <graphify/nn/Layers.h>

#include <tuple>

namespace gfy::nn {

struct MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads)
      : embed_dim_(embed_dim), num_heads_(num_heads), kdim_(embed_dim), vdim_(embed_dim) {}
  GFY_ARG(int64_t, embed_dim);
  GFY_ARG(int64_t, num_heads);
  GFY_ARG(double, dropout) = 0.0;
  GFY_ARG(bool, bias) = true;
  GFY_ARG(bool, add_bias_kv) = false;
  GFY_ARG(bool, add_zero_attn) = false;
  GFY_ARG(int64_t, kdim);
  GFY_ARG(int64_t, vdim);
};

class MultiheadAttentionImpl : public Module {
public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttentionImpl(MultiheadAttentionOptions(embed_dim, num_heads)) {}
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions &options);
  /// query (L, N, E), key and value (S, N, kdim / vdim); key_padding_mask (N, S) bool, true where
  /// a key is ignored; attn_mask (L, S) or (N * heads, L, S), added to the scores (-inf masks).
  /// Returns (output (L, N, E), weights (N, L, S) averaged over heads, or (N, heads, L, S), or
  /// undefined when !need_weights).
  std::tuple<Tensor, Tensor> forward(const Tensor &query, const Tensor &key, const Tensor &value,
                                     const Tensor &key_padding_mask = {}, bool need_weights = true,
                                     const Tensor &attn_mask = {}, bool average_attn_weights = true);
  void reset();
  /// xavier_uniform_ on the projections, zero biases, xavier_normal_ on bias_k / bias_v.
  void _reset_parameters();
  MultiheadAttentionOptions options;
  bool _qkv_same_embed_dim;
  Tensor in_proj_weight, in_proj_bias, bias_k, bias_v, q_proj_weight, k_proj_weight, v_proj_weight;
  Linear out_proj{nullptr};
  int64_t head_dim;
};
GFY_MODULE(MultiheadAttention);

} // namespace gfy::nn
