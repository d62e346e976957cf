// early-exit-loop-to-masked: loops that stop on a tensor value run to their static bound with
// masked updates.
#include <torch/torch.h>

torch::Tensor greedy_decode(torch::Tensor h, torch::Tensor w, torch::Tensor tok, int64_t max_len) {
  torch::Tensor done = tok == 0;
  for (int64_t t = 0; t < max_len && !done.all().item<bool>(); ++t) {
    auto logits = torch::matmul(h, w);
    h = torch::tanh(h + logits);
    tok = logits.argmax(-1);
    done = torch::logical_or(done, tok == 0);
  }
  return h + tok;
}

torch::Tensor refine(torch::Tensor x) {
  for (int i = 0; i < 20; ++i) {
    auto next = torch::relu(x - 0.5);
    auto delta = (next - x).abs().max();
    x = next;
    if (delta.item<float>() < 1e-3f)
      break;
  }
  return x;
}

torch::Tensor write_steps(torch::Tensor h, torch::Tensor out) {
  for (int64_t t = 0; t < out.size(0); ++t) {
    h = torch::sigmoid(h);
    out.index_put_({t}, h);
    out[t] = out[t] * 2;
    if (h.sum().item<float>() > 4.0f) {
      break;
    }
  }
  return out;
}

torch::Tensor decode_until_eos(torch::Tensor h, torch::Tensor w, int64_t eos) {
  for (int64_t t = 0; t < 16; ++t) {
    h = torch::tanh(torch::matmul(w, h));
    int64_t next = h.argmax().item<int64_t>();
    if (next == eos)
      break;
  }
  return h;
}
