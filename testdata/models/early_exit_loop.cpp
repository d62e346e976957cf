// Loops whose trip count follows tensor values: a refinement that runs while the state is large
// (bounded by a static count), and one that stops once nothing is left. A trace records the
// number of iterations it saw; the fixed-trip form with masked updates does not depend on it.
#include <graphify/annotations.h>
#include <torch/torch.h>

// graphify-entry: h: f32[3], w: f32[3,3]
struct ShrinkWhileLarge : torch::nn::Module {
  torch::Tensor forward(torch::Tensor h, torch::Tensor w) {
    for (int64_t t = 0; t < 6 && h.abs().max().item<float>() > 0.25f; ++t) {
      auto z = torch::matmul(w, h);
      h = torch::tanh(z) * 0.5;
    }
    return h;
  }
};

// graphify-entry: x: f32[5]
struct DrainUntilEmpty : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < 8; ++i) {
      auto next = torch::relu(x - 0.5);
      x = next;
      if (next.sum().item<float>() == 0.0f)
        break;
    }
    return x;
  }
};
// A greedy decode: one token per step appended to the sequence, stop after the end token. The
// sequence's length follows the tokens; the fixed-trip form keeps appending and returns it at the
// bound's length with the length the original reached, which the host epilogue slices by.
// graphify-entry: h: f32[1,4], w: f32[4,4]
torch::Tensor greedy_tokens(torch::Tensor h, torch::Tensor w, int64_t max_len = 6, int64_t eos = 2) {
  auto ys = torch::zeros({1, 1}, h.options().dtype(torch::kLong));
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w);
    auto tok = logits.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    h = torch::tanh(h + logits);
    if (tok.item<int64_t>() == eos)
      break;
  }
  return ys;
}
// The same decode with the score of each step summed on the host and used after the loop: the
// sum becomes a 0-d float tensor updated under the mask, which the host epilogue reads back.
// graphify-entry: h: f32[1,4], w: f32[4,4]
torch::Tensor greedy_scored(torch::Tensor h, torch::Tensor w, int64_t max_len = 6, int64_t eos = 2) {
  auto ys = torch::zeros({1, 1}, h.options().dtype(torch::kLong));
  float total = 0.0f;
  for (int64_t t = 0; t < max_len; ++t) {
    auto logits = torch::matmul(h, w);
    auto tok = logits.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    total += logits.max().item<float>();
    h = torch::tanh(h + logits);
    if (tok.item<int64_t>() == eos)
      break;
  }
  return ys.to(torch::kFloat) * total;
}
// graphify-expect-fix: fixed

// A decode whose number of steps is read from the data (the longest requested length): the loop
// has no static trip count, but the function promises at most 6 steps (GRAPHIFY_STATIC_BOUND), so
// the rewrite runs 6 and masks the steps past the length; the sequence it grows leaves the core
// at 6 steps with the length it reached, which the host epilogue slices by.
// graphify-entry: h: f32[1,4], w: f32[4,4], lengths: i64[3] in [0, 6]
GRAPHIFY_STATIC_BOUND(len, 6)
torch::Tensor bounded_decode(torch::Tensor h, torch::Tensor w, torch::Tensor lengths) {
  auto ys = h.argmax(-1, true);
  const int64_t len = lengths.max().item<int64_t>();
  for (int64_t t = 0; t < len; ++t) {
    h = torch::tanh(torch::matmul(h, w) + h);
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
  }
  return ys.to(torch::kFloat) + h.sum();
}
// graphify-expect-fix: fixed

// A decode whose end token is optional (a vocabulary without one says -1), tested on the host
// before the token read: the host test stays on the host and picks the token's test, or a false
// 0-d mask that reads nothing from the token where the original's `&&` skipped the read.
struct EndToken {
  int64_t id = -1;
  int64_t end_id() const { return id; }
};
// graphify-entry: h: f32[1,4], w: f32[4,4]
torch::Tensor greedy_optional_end(torch::Tensor h, torch::Tensor w, EndToken end = EndToken{2}) {
  auto ys = torch::zeros({1, 1}, h.options().dtype(torch::kLong));
  for (int64_t t = 0; t < 6; ++t) {
    auto logits = torch::matmul(h, w);
    auto tok = logits.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    h = torch::tanh(h + logits);
    if (end.end_id() != -1 && tok.item<int64_t>() == end.end_id())
      break;
  }
  return ys;
}
// The same decode told to stop at once unless it keeps going (`||` of a host flag, true here).
// graphify-entry: h: f32[1,4], w: f32[4,4]
torch::Tensor greedy_first_only(torch::Tensor h, torch::Tensor w, bool keep_going = false, int64_t eos = 2) {
  auto ys = torch::zeros({1, 1}, h.options().dtype(torch::kLong));
  for (int64_t t = 0; t < 6; ++t) {
    auto logits = torch::matmul(h, w);
    auto tok = logits.argmax(-1, true);
    ys = torch::cat({ys, tok}, 1);
    h = torch::tanh(h + logits);
    if (!keep_going || tok.item<int64_t>() == eos)
      break;
  }
  return ys;
}
