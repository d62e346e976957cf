// early-exit-loop-to-masked: two early-exit loops in one function each declare a mask; the
// second is `active2`, since the first fix's `active` is declared in the same block.
#include "mock_torch.h"

torch::Tensor two_loops(torch::Tensor x) {
  for (int i = 0; i < 4; ++i) {
    x = x.relu() * 2;
    if (x.sum().item<float>() > 1)
      break;
  }
  for (int i = 0; i < 3; ++i) {
    x = x - 0.5;
    if (x.min().item<float>() < -1)
      break;
  }
  return x;
}
