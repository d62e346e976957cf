// early-exit-loop-to-masked: loops whose only bound is a value read from the data, which the user
// bounded (GRAPHIFY_STATIC_BOUND on the function). The loop runs to the bound, and the comparison
// with the value joins the mask, as an early exit does: exact while the value stays within it.
#include <graphify/annotations.h>
#include <torch/torch.h>

// The number of steps is the longest requested length; at most 16. An integer read of a tensor
// not known to hold integers becomes the tensor converted as the read converts it.
GRAPHIFY_STATIC_BOUND(len, 16)
torch::Tensor refine_steps(torch::Tensor h, torch::Tensor w, torch::Tensor lengths) {
  const int64_t len = lengths.max().item<int64_t>();
  for (int64_t t = 0; t < len; ++t)
    h = torch::tanh(torch::matmul(h, w) + h);
  return h;
}

// The comparison reversed and inclusive, beside an end token: both exits join the mask.
GRAPHIFY_GRAPH_REGION GRAPHIFY_STATIC_BOUND(steps, 32)
torch::Tensor decode_until(torch::Tensor h, torch::Tensor w, torch::Tensor budget, int64_t eos) {
  int steps = budget.sum().item<int>();
  for (int t = 0; steps >= t; ++t) {
    auto logits = torch::matmul(h, w);
    h = torch::tanh(logits);
    if (logits.argmax().item<int64_t>() == eos)
      break;
  }
  return h;
}

// A decode whose sequence grows and leaves the loop: the split core declares the bounded value as
// a tensor (reshaped: 'count' is not known to hold one element) and returns the sequence at the
// bound's length with the length the original reached.
GRAPHIFY_STATIC_BOUND(n, 8)
torch::Tensor grow_to(torch::Tensor h, torch::Tensor w, torch::Tensor count) {
  auto ys = h.argmax(-1, true);
  const int64_t n = count.item<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    h = torch::tanh(torch::matmul(h, w));
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
  }
  return ys;
}

// Two bounds on one function: each loop takes the bound of the value its header compares with.
GRAPHIFY_STATIC_BOUND(rows, 4) GRAPHIFY_STATIC_BOUND(cols, 12)
torch::Tensor smooth(torch::Tensor h, torch::Tensor shape) {
  const int64_t rows = shape.index({0}).item<int64_t>();
  const int64_t cols = shape.index({1}).item<int64_t>();
  for (int64_t i = 0; i < rows; ++i)
    h = h * 0.5;
  for (int64_t j = 0; j < cols; ++j)
    h = h + 1.0;
  return h;
}
