// early-exit-loop-to-masked: loops whose only bound is a value read from the data, which the user
// bounded (GRAPHIFY_STATIC_BOUND on the function). The loop runs to the bound, and the comparison
// with the value joins the mask, as an early exit does: exact while the value stays within it.
#include <graphify/annotations.h>
#include <torch/torch.h>
#include <tuple>

// The number of steps is the longest requested length; at most 16. An integer read of a tensor
// not known to hold integers becomes the tensor converted as the read converts it.
GRAPHIFY_STATIC_BOUND(len, 16)
torch::Tensor refine_steps(torch::Tensor h, torch::Tensor w, torch::Tensor lengths) {
  auto len = lengths.max().to(torch::kLong);
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t t = 0; t < 16; ++t) {
    active = torch::logical_and(active, t < len);
    h = torch::where(active, torch::tanh(torch::matmul(h, w) + h), h);
  }
  return h;
}

// The comparison reversed and inclusive, beside an end token: both exits join the mask.
GRAPHIFY_GRAPH_REGION GRAPHIFY_STATIC_BOUND(steps, 32)
torch::Tensor decode_until(torch::Tensor h, torch::Tensor w, torch::Tensor budget, int64_t eos) {
  auto steps = budget.sum().to(torch::kInt);
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int t = 0; 32 >= t; ++t) {
    active = torch::logical_and(active, steps >= t);
    auto logits = torch::matmul(h, w);
    h = torch::where(active, torch::tanh(logits), h);
    active =
        torch::logical_and(active, torch::logical_not(logits.argmax() == eos));
  }
  return h;
}

// A decode whose sequence grows and leaves the loop: the split core declares the bounded value as
// a tensor (reshaped: 'count' is not known to hold one element) and returns the sequence at the
// bound's length with the length the original reached.
GRAPHIFY_STATIC_BOUND(n, 8)
static std::tuple<at::Tensor, at::Tensor>
grow_to_padded(torch::Tensor h, torch::Tensor w, torch::Tensor count) {
  auto ys = h.argmax(-1, true);
  auto n = count.reshape({}).to(torch::kLong);
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  auto ys_length =
      torch::full({}, ys.size(1), ys.options().dtype(torch::kLong));
  for (int64_t i = 0; i < 8; ++i) {
    active = torch::logical_and(active, i < n);
    h = torch::where(active, torch::tanh(torch::matmul(h, w)), h);
    ys = torch::cat({ys, h.argmax(-1, true)}, 1);
    ys_length = torch::where(active, ys.size(1), ys_length);
  }
  return std::make_tuple(ys, ys_length);
}

/// graphify: host epilogue of 'grow_to_padded' (slices what its loop grew to
/// the length the loop reached; not a graph region)
torch::Tensor grow_to(torch::Tensor h, torch::Tensor w, torch::Tensor count) {
  auto padded = grow_to_padded(h, w, count);
  at::Tensor ys =
      std::get<0>(padded).narrow(1, 0, std::get<1>(padded).item<int64_t>());
  return ys;
}

// Two bounds on one function: each loop takes the bound of the value its header compares with.
GRAPHIFY_STATIC_BOUND(rows, 4) GRAPHIFY_STATIC_BOUND(cols, 12)
torch::Tensor smooth(torch::Tensor h, torch::Tensor shape) {
  auto rows = shape.index({0}).reshape({}).to(torch::kLong);
  auto cols = shape.index({1}).reshape({}).to(torch::kLong);
  auto active = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t i = 0; i < 4; ++i) {
    active = torch::logical_and(active, i < rows);
    h = torch::where(active, h * 0.5, h);
  }
  auto active2 = torch::ones({}, h.options().dtype(torch::kBool));
  for (int64_t j = 0; j < 12; ++j) {
    active2 = torch::logical_and(active2, j < cols);
    h = torch::where(active2, h + 1.0, h);
  }
  return h;
}
