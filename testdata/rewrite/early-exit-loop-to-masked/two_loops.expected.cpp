// early-exit-loop-to-masked: two early-exit loops in one function each declare a mask; the
// second is `active2`, since the first fix's `active` is declared in the same block.
#include "mock_torch.h"

torch::Tensor two_loops(torch::Tensor x) {
  auto active = torch::ones({}, x.options().dtype(torch::kBool));
  for (int i = 0; i < 4; ++i) {
    x = torch::where(active, x.relu() * 2, x);
    active = torch::logical_and(active, torch::logical_not(x.sum() > 1));
  }
  auto active2 = torch::ones({}, x.options().dtype(torch::kBool));
  for (int i = 0; i < 3; ++i) {
    x = torch::where(active2, x - 0.5, x);
    active2 = torch::logical_and(active2, torch::logical_not(x.min() < -1));
  }
  return x;
}
