// A miniature of the seed-001 language model (embedding, one fine-grained LSTM layer unrolled over
// time, projection to the vocabulary). Clean: every loop bound is a size, and token ids only feed
// an embedding lookup. The long-typed input exercises the entry grammar's value range.
#include <torch/torch.h>

// graphify-entry: ids: i64[4,5] in [0, 99]
struct TinyLstmLm : torch::nn::Module {
  static constexpr int64_t kVocab = 100;
  static constexpr int64_t kEmbed = 8;
  static constexpr int64_t kHidden = 16;

  TinyLstmLm()
      : embed(register_module("embed", torch::nn::Embedding(kVocab, kEmbed))),
        w_x(register_parameter("w_x", torch::randn({kEmbed, 4 * kHidden}) * 0.1)),
        w_h(register_parameter("w_h", torch::randn({kHidden, 4 * kHidden}) * 0.1)),
        bias(register_parameter("bias", torch::zeros({4 * kHidden}))),
        out(register_module("out", torch::nn::Linear(kHidden, kVocab))) {}

  torch::Tensor forward(torch::Tensor ids) {          // ids: (B, T) long
    auto x = embed->forward(ids);                    // x: (B, T, E)
    const int64_t batch = ids.size(0);
    const int64_t steps = ids.size(1);
    auto h = torch::zeros({batch, kHidden}, x.options());
    auto c = torch::zeros({batch, kHidden}, x.options());
    std::vector<torch::Tensor> hs;
    for (int64_t t = 0; t < steps; ++t) {
      auto xt = x.select(1, t);                      // xt: (B, E)
      auto gates = torch::matmul(xt, w_x) + torch::matmul(h, w_h) + bias;
      auto parts = gates.chunk(4, 1);
      auto i = torch::sigmoid(parts[0]);
      auto f = torch::sigmoid(parts[1]);
      auto g = torch::tanh(parts[2]);
      auto o = torch::sigmoid(parts[3]);
      c = f * c + i * g;
      h = o * torch::tanh(c);
      hs.push_back(h);
    }
    auto hidden = torch::stack(hs, 1);               // hidden: (B, T, H)
    return out->forward(hidden);                     // logits: (B, T, V)
  }

  torch::nn::Embedding embed;
  torch::Tensor w_x, w_h, bias;
  torch::nn::Linear out;
};
// graphify-expect-fix: clean
