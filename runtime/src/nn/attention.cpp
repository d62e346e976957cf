// MultiheadAttention with LibTorch 1.13's parameters, initialisation and forward semantics
// (torch::nn::functional::multi_head_attention_forward): input projections, scaling of q by
// 1 / sqrt(head_dim), optional bias_k / bias_v and zero-attention rows, an additive attn_mask, a
// boolean key_padding_mask filled with -inf, softmax, dropout, bmm and the output projection.
//
// One deliberate difference: LibTorch chooses the fused q/k/v projection by comparing the
// inputs' values (torch::equal, a host read that would break graph capture); here the choice is
// by identity — the same tensor passed as query, key and value. Both paths compute the same
// products, so only the GEMM shapes differ, and results agree to rounding.
#include <graphify/nn/Attention.h>
#include <graphify/nn/Init.h>

#include <cmath>
#include <limits>

namespace gfy::nn {

namespace {

bool same_tensor(const Tensor &a, const Tensor &b) {
  return a.defined() && b.defined() && a.unsafeGetTensorImpl() == b.unsafeGetTensorImpl();
}

Tensor rows(const Tensor &t, int64_t start, int64_t end) { return t.defined() ? t.slice(0, start, end) : Tensor(); }

/// Appends one zero column to a (N, S) or (L, S) mask, for the extra key of bias_k or add_zero_attn.
Tensor pad_mask(const Tensor &mask) {
  if (!mask.defined()) return mask;
  return cat({mask, zeros({mask.size(0), 1}, mask.options())}, 1);
}

} // namespace

MultiheadAttentionImpl::MultiheadAttentionImpl(const MultiheadAttentionOptions &o)
    : Module("MultiheadAttention"), options(o) {
  reset();
}

void MultiheadAttentionImpl::reset() {
  const int64_t E = options.embed_dim();
  _qkv_same_embed_dim = options.kdim() == E && options.vdim() == E;
  GFY_CHECK(options.num_heads() > 0, "num_heads must be positive");
  head_dim = E / options.num_heads();
  GFY_CHECK(head_dim * options.num_heads() == E, "embed_dim must be divisible by num_heads");
  if (!_qkv_same_embed_dim) {
    q_proj_weight = register_parameter("q_proj_weight", gfy::empty({E, E}));
    k_proj_weight = register_parameter("k_proj_weight", gfy::empty({E, options.kdim()}));
    v_proj_weight = register_parameter("v_proj_weight", gfy::empty({E, options.vdim()}));
  } else {
    in_proj_weight = register_parameter("in_proj_weight", gfy::empty({3 * E, E}));
  }
  if (options.bias()) in_proj_bias = register_parameter("in_proj_bias", gfy::empty({3 * E}));
  out_proj = register_module("out_proj", Linear(LinearOptions(E, E).bias(options.bias())));
  if (options.add_bias_kv()) {
    bias_k = register_parameter("bias_k", gfy::empty({1, 1, E}));
    bias_v = register_parameter("bias_v", gfy::empty({1, 1, E}));
  }
  _reset_parameters();
}

void MultiheadAttentionImpl::_reset_parameters() {
  if (_qkv_same_embed_dim) {
    init::xavier_uniform_(in_proj_weight);
  } else {
    init::xavier_uniform_(q_proj_weight);
    init::xavier_uniform_(k_proj_weight);
    init::xavier_uniform_(v_proj_weight);
  }
  if (in_proj_bias.defined()) {
    init::constant_(in_proj_bias, 0.);
    init::constant_(out_proj->bias, 0.);
  }
  if (bias_k.defined()) init::xavier_normal_(bias_k);
  if (bias_v.defined()) init::xavier_normal_(bias_v);
}

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(const Tensor &query, const Tensor &key, const Tensor &value,
                                                           const Tensor &key_padding_mask, bool need_weights,
                                                           const Tensor &attn_mask, bool average_attn_weights) {
  GFY_CHECK(query.defined() && key.defined() && value.defined(), "MultiheadAttention: query, key and value must be defined");
  GFY_CHECK(query.dim() == 3 && key.dim() == 3 && value.dim() == 3,
            "MultiheadAttention: expected 3-D (L, N, E) query, key and value, got ", query.dim(), "-D, ", key.dim(),
            "-D and ", value.dim(), "-D");
  const int64_t L = query.size(0), N = query.size(1), E = query.size(2), heads = options.num_heads();
  GFY_CHECK(E == options.embed_dim(), "was expecting embedding dimension of ", options.embed_dim(), ", but got ", E);
  // LibTorch 1.13's C++ forward asserts equal key and value shapes (so vdim != kdim cannot run there).
  GFY_CHECK(key.sizes() == value.sizes(), "key.sizes() == value.sizes(): key and value shapes must match, got ",
            key.sizes(), " and ", value.sizes());
  GFY_CHECK(key.size(1) == N, "key batch size ", key.size(1), " does not match query batch size ", N);

  // q (L, N, E), k and v (S, N, E).
  Tensor q, k, v;
  if (_qkv_same_embed_dim) {
    if (same_tensor(query, key) && same_tensor(key, value)) {
      auto qkv = linear(query, in_proj_weight, in_proj_bias).chunk(3, -1);
      q = qkv[0], k = qkv[1], v = qkv[2];
    } else if (same_tensor(key, value)) {
      q = linear(query, rows(in_proj_weight, 0, E), rows(in_proj_bias, 0, E));
      auto kv = linear(key, rows(in_proj_weight, E, 3 * E), rows(in_proj_bias, E, 3 * E)).chunk(2, -1);
      k = kv[0], v = kv[1];
    } else {
      q = linear(query, rows(in_proj_weight, 0, E), rows(in_proj_bias, 0, E));
      k = linear(key, rows(in_proj_weight, E, 2 * E), rows(in_proj_bias, E, 2 * E));
      v = linear(value, rows(in_proj_weight, 2 * E, 3 * E), rows(in_proj_bias, 2 * E, 3 * E));
    }
  } else {
    q = linear(query, q_proj_weight, rows(in_proj_bias, 0, E));
    k = linear(key, k_proj_weight, rows(in_proj_bias, E, 2 * E));
    v = linear(value, v_proj_weight, rows(in_proj_bias, 2 * E, 3 * E));
  }
  q = q * (1.0 / std::sqrt(static_cast<double>(head_dim)));

  Tensor mask = attn_mask, padding = key_padding_mask;
  if (bias_k.defined() && bias_v.defined()) {
    k = cat({k, bias_k.repeat({1, N, 1})});
    v = cat({v, bias_v.repeat({1, N, 1})});
    mask = pad_mask(mask);
    padding = pad_mask(padding);
  }
  // (len, N, E) -> (N * heads, len, head_dim)
  q = q.contiguous().view({L, N * heads, head_dim}).transpose(0, 1);
  k = k.contiguous().view({-1, N * heads, head_dim}).transpose(0, 1);
  v = v.contiguous().view({-1, N * heads, head_dim}).transpose(0, 1);
  if (options.add_zero_attn()) {
    k = cat({k, zeros({N * heads, 1, head_dim}, k.options())}, 1);
    v = cat({v, zeros({N * heads, 1, head_dim}, v.options())}, 1);
    mask = pad_mask(mask);
    padding = pad_mask(padding);
  }
  const int64_t S = k.size(1);
  if (padding.defined())
    GFY_CHECK(padding.dim() == 2 && padding.size(0) == N && padding.size(1) == S, "expecting key_padding_mask shape of (",
              N, ", ", S, "), but got ", padding.sizes());

  Tensor weights = bmm(q, k.transpose(1, 2)); // (N * heads, L, S)
  if (mask.defined()) weights = weights + mask.unsqueeze(0).to(weights.scalar_type());
  if (padding.defined()) {
    weights = weights.view({N, heads, L, S})
                  .masked_fill(padding.unsqueeze(1).unsqueeze(2), -std::numeric_limits<double>::infinity())
                  .view({N * heads, L, S});
  }
  weights = softmax(weights, -1);
  weights = dropout(weights, options.dropout(), is_training());
  Tensor out = bmm(weights, v).transpose(0, 1).contiguous().view({L, N, E}); // (L, N, E)
  out = out_proj->forward(out);
  if (!need_weights) return {out, Tensor()};
  weights = weights.view({N, heads, L, S});
  if (average_attn_weights) weights = weights.sum(IntArrayRef{1}) / heads;
  return {out, weights};
}

} // namespace gfy::nn
