// early-exit-loop-to-masked: loops that stop on a tensor value run to their static bound with
// masked updates.
#include <torch/torch.h>

torch::Tensor greedy_decode(torch::Tensor h, torch::Tensor w, torch::Tensor tok, int64_t max_len) {
  torch::Tensor done = tok == 0;
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < max_len; ++t) {
    active = torch::logical_and(active, torch::logical_not(done.all()));
    auto logits = torch::matmul(h, w);
    h = torch::where(active, torch::tanh(h + logits), h);
    tok = torch::where(active, logits.argmax(-1), tok);
    done = torch::where(active, torch::logical_or(done, tok == 0), done);
  }
  return h + tok;
}

torch::Tensor refine(torch::Tensor x) {
  auto active = torch::ones({}, x.options().dtype(torch::kBool));
  for (int i = 0; i < 20; ++i) {
    auto next = torch::relu(x - 0.5);
    auto delta = (next - x).abs().max();
    x = torch::where(active, next, x);
    active = torch::logical_and(active, torch::logical_not(delta < 1e-3f));
  }
  return x;
}

torch::Tensor write_steps(torch::Tensor h, torch::Tensor out) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < out.size(0); ++t) {
    h = torch::where(active, torch::sigmoid(h), h);
    out.index_put_({t}, torch::where(active, h, out.index({t})));
    out[t] = torch::where(active, out[t] * 2, out[t]);
    active = torch::logical_and(active, torch::logical_not(h.sum() > 4.0f));
  }
  return out;
}

torch::Tensor decode_until_eos(torch::Tensor h, torch::Tensor w, int64_t eos) {
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 16; ++t) {
    h = torch::where(active, torch::tanh(torch::matmul(w, h)), h);
    auto next = h.argmax();
    active = torch::logical_and(active, torch::logical_not(next == eos));
  }
  return h;
}
