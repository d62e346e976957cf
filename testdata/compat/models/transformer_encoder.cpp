// A transformer encoder in the style of the public LibTorch text and vision-transformer ports:
// sinusoidal positional encoding kept as a buffer, a hand-written multi-head self-attention
// (einsum scores, causal mask from triu, masked_fill with -inf), an encoder layer built on
// torch::nn::MultiheadAttention with pre-norm LayerNorm and a GELU feed-forward, and a
// mean-pooled classifier.
#include <torch/torch.h>

#include <cmath>

using torch::Tensor;
using namespace torch::indexing;

struct PositionalEncodingImpl : torch::nn::Module {
  PositionalEncodingImpl(int64_t d_model, int64_t max_len = 64) {
    auto table = torch::zeros({max_len, d_model});
    auto position = torch::arange(0, max_len, torch::kFloat).unsqueeze(1);
    auto div_term = torch::exp(torch::arange(0, d_model, 2, torch::kFloat) * (-std::log(10000.0) / d_model));
    table.index_put_({Slice(), Slice(0, None, 2)}, torch::sin(position * div_term));
    table.index_put_({Slice(), Slice(1, None, 2)}, torch::cos(position * div_term));
    pe = register_buffer("pe", table.unsqueeze(0));
  }

  Tensor forward(const Tensor& x) { return x + pe.index({Slice(), Slice(None, x.size(1))}); }

  Tensor pe;
};
TORCH_MODULE(PositionalEncoding);

struct SelfAttentionImpl : torch::nn::Module {
  SelfAttentionImpl(int64_t dim, int64_t heads)
      : heads(heads), head_dim(dim / heads), scale(1.0 / std::sqrt(static_cast<double>(dim / heads))) {
    qkv = register_module("qkv", torch::nn::Linear(torch::nn::LinearOptions(dim, dim * 3).bias(false)));
    proj = register_module("proj", torch::nn::Linear(dim, dim));
  }

  Tensor forward(const Tensor& x, bool causal) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
    auto chunks = qkv->forward(x).reshape({B, T, 3, heads, head_dim}).permute({2, 0, 3, 1, 4}).unbind(0);
    auto q = chunks[0], k = chunks[1], v = chunks[2];
    auto att = torch::einsum("bhqd,bhkd->bhqk", {q, k}) * scale;
    if (causal) {
      auto mask = torch::triu(torch::ones({T, T}, torch::kBool), 1);
      att = att.masked_fill(mask, -std::numeric_limits<float>::infinity());
    }
    att = torch::softmax(att, -1);
    auto y = torch::matmul(att, v).transpose(1, 2).reshape({B, T, C});
    return proj(y);
  }

  int64_t heads, head_dim;
  double scale;
  torch::nn::Linear qkv{nullptr}, proj{nullptr};
};
TORCH_MODULE(SelfAttention);

struct EncoderLayerImpl : torch::nn::Module {
  EncoderLayerImpl(int64_t d_model, int64_t nhead, int64_t dim_feedforward, double dropout = 0.1)
      : self_attn(torch::nn::MultiheadAttentionOptions(d_model, nhead).dropout(dropout)),
        linear1(d_model, dim_feedforward),
        linear2(dim_feedforward, d_model),
        norm1(torch::nn::LayerNormOptions({d_model})),
        norm2(torch::nn::LayerNormOptions({d_model}).eps(1e-6)),
        dropout1(dropout),
        dropout2(dropout) {
    register_module("self_attn", self_attn);
    register_module("linear1", linear1);
    register_module("linear2", linear2);
    register_module("norm1", norm1);
    register_module("norm2", norm2);
    register_module("dropout1", dropout1);
    register_module("dropout2", dropout2);
  }

  // src: (T, B, E), as torch::nn::MultiheadAttention expects.
  Tensor forward(const Tensor& src, const Tensor& key_padding_mask = {}) {
    auto x = norm1(src);
    auto attn = std::get<0>(self_attn(x, x, x, key_padding_mask));
    auto h = src + dropout1(attn);
    auto ff = linear2(torch::nn::functional::dropout(torch::gelu(linear1(norm2(h))),
                                                     torch::nn::functional::DropoutFuncOptions().p(0.1).training(is_training())));
    return h + dropout2(ff);
  }

  torch::nn::MultiheadAttention self_attn;
  torch::nn::Linear linear1, linear2;
  torch::nn::LayerNorm norm1, norm2;
  torch::nn::Dropout dropout1, dropout2;
};
TORCH_MODULE(EncoderLayer);

struct TextClassifierImpl : torch::nn::Module {
  TextClassifierImpl(int64_t vocab, int64_t d_model, int64_t nhead, int64_t layers, int64_t classes)
      : embed(register_module("embed", torch::nn::Embedding(vocab, d_model))),
        pos(register_module("pos", PositionalEncoding(d_model))),
        attn(register_module("attn", SelfAttention(d_model, nhead))),
        layers(register_module("layers", torch::nn::ModuleList())),
        head(register_module("head", torch::nn::Linear(d_model, classes))),
        d_model(d_model) {
    for (int64_t i = 0; i < layers; ++i) this->layers->push_back(EncoderLayer(d_model, nhead, 2 * d_model));
  }

  // tokens: (B, T) long; pad: (B, T) bool, true where the token is padding.
  Tensor forward(const Tensor& tokens, const Tensor& pad) {
    auto x = pos(embed(tokens) * std::sqrt(static_cast<double>(d_model)));
    x = x + attn(x, /*causal=*/true);
    x = x.transpose(0, 1);
    for (const auto& layer : *layers) x = layer->as<EncoderLayer>()->forward(x, pad);
    x = x.transpose(0, 1);
    auto keep = (~pad).unsqueeze(-1).to(x.scalar_type());
    auto pooled = (x * keep).sum(1) / keep.sum(1).clamp_min(1);
    return torch::log_softmax(head(pooled), -1);
  }

  torch::nn::Embedding embed;
  PositionalEncoding pos;
  SelfAttention attn;
  torch::nn::ModuleList layers;
  torch::nn::Linear head;
  int64_t d_model;
};
TORCH_MODULE(TextClassifier);
