// if-assign-to-where: comments inside the converted arms are kept above the replacement; one
// that the reused text already holds is not repeated.
#include "mock_torch.h"

torch::Tensor commented(torch::Tensor x) {
  torch::Tensor y;
  if (x.sum().item<float>() > 0) {
    // positive: double it
    y = x * /* factor */ 2;
  } else {
    y = x - 1; /* shift
                  down */
  }
  return y;
}

torch::Tensor one_armed(torch::Tensor x) {
  torch::Tensor y = x;
  if (x.max().item<float>() /* peak */ > 1) {
    y = x / 2; // halve
  }
  return y;
}
