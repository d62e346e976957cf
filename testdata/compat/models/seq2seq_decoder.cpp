// A sequence-to-sequence model in the style of the public LibTorch translation and chatbot
// ports: a bidirectional-free GRU encoder, a Luong-style attention decoder built on GRUCell
// (bmm scores, softmax, context), an LSTMCell variant, a plain tanh RNN over the outputs, and
// greedy decoding with topk for a fixed number of steps.
#include <torch/torch.h>

#include <tuple>
#include <vector>

namespace nn = torch::nn;
namespace F = torch::nn::functional;

class EncoderRNNImpl : public nn::Module {
 public:
  EncoderRNNImpl(int64_t vocab, int64_t hidden, int64_t layers)
      : embedding(register_module("embedding", nn::Embedding(vocab, hidden))),
        gru(register_module("gru", nn::GRU(nn::GRUOptions(hidden, hidden).num_layers(layers).batch_first(true)))) {}

  // tokens (B, S) -> outputs (B, S, H), hidden (layers, B, H)
  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor& tokens) {
    auto embedded = embedding->forward(tokens);
    return gru->forward(embedded);
  }

  nn::Embedding embedding;
  nn::GRU gru;
};
TORCH_MODULE(EncoderRNN);

class AttnDecoderImpl : public nn::Module {
 public:
  AttnDecoderImpl(int64_t vocab, int64_t hidden)
      : embedding(register_module("embedding", nn::Embedding(nn::EmbeddingOptions(vocab, hidden).padding_idx(0)))),
        cell(register_module("cell", nn::GRUCell(nn::GRUCellOptions(hidden, hidden)))),
        lstm_cell(register_module("lstm_cell", nn::LSTMCell(nn::LSTMCellOptions(hidden, hidden)))),
        concat(register_module("concat", nn::Linear(hidden * 2, hidden))),
        out(register_module("out", nn::Linear(hidden, vocab))) {}

  // token (B), hidden (B, H), cell state (B, H), encoder outputs (B, S, H).
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor& token, torch::Tensor hidden,
                                                                  torch::Tensor c, const torch::Tensor& enc) {
    auto embedded = embedding(token);
    hidden = cell(embedded, hidden);
    std::tie(hidden, c) = lstm_cell(hidden, std::make_tuple(hidden, c));
    // Luong "dot" attention: scores (B, 1, S) = h (B, 1, H) x enc^T (B, H, S).
    auto scores = torch::bmm(hidden.unsqueeze(1), enc.transpose(1, 2));
    auto weights = F::softmax(scores, F::SoftmaxFuncOptions(2));
    auto context = torch::bmm(weights, enc).squeeze(1);
    auto concat_out = torch::tanh(concat(torch::cat({hidden, context}, 1)));
    return {F::log_softmax(out(concat_out), 1), hidden, c};
  }

  nn::Embedding embedding;
  nn::GRUCell cell;
  nn::LSTMCell lstm_cell;
  nn::Linear concat, out;
};
TORCH_MODULE(AttnDecoder);

class Seq2SeqImpl : public nn::Module {
 public:
  Seq2SeqImpl(int64_t vocab, int64_t hidden, int64_t layers)
      : encoder(register_module("encoder", EncoderRNN(vocab, hidden, layers))),
        decoder(register_module("decoder", AttnDecoder(vocab, hidden))),
        rnn(register_module("rnn", nn::RNN(nn::RNNOptions(vocab, hidden).nonlinearity(torch::kTanh)))),
        layers_(layers) {}

  // Greedy decoding for `steps` tokens; returns the tokens (B, steps), their log-probabilities
  // (B, steps, vocab) and a tanh-RNN summary of those log-probabilities (B, H).
  std::vector<torch::Tensor> forward(const torch::Tensor& source, int64_t steps, int64_t sos) {
    torch::Tensor enc_out, enc_hidden;
    std::tie(enc_out, enc_hidden) = encoder(source);
    auto hidden = enc_hidden[layers_ - 1];
    auto c = torch::zeros_like(hidden);
    auto token = torch::full({source.size(0)}, sos, torch::kLong);
    std::vector<torch::Tensor> tokens, scores;
    for (int64_t t = 0; t < steps; ++t) {
      torch::Tensor logp;
      std::tie(logp, hidden, c) = decoder(token, hidden, c, enc_out);
      auto top = logp.topk(1, /*dim=*/1);
      token = std::get<1>(top).squeeze(1).detach();
      tokens.push_back(token);
      scores.push_back(logp);
    }
    auto logps = torch::stack(scores, 1);
    auto summary = std::get<1>(rnn->forward(logps.transpose(0, 1)));
    return {torch::stack(tokens, 1), logps, summary.squeeze(0)};
  }

  EncoderRNN encoder;
  AttnDecoder decoder;
  nn::RNN rnn;
  int64_t layers_;
};
TORCH_MODULE(Seq2Seq);
