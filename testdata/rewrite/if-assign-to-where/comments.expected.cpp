// if-assign-to-where: comments inside the converted arms are kept above the replacement; one
// that the reused text already holds is not repeated.
#include "mock_torch.h"

torch::Tensor commented(torch::Tensor x) {
  torch::Tensor y;
  // positive: double it
  /* shift
                  down */
  y = torch::where(x.sum() > 0, x * /* factor */ 2, x - 1);
  return y;
}

torch::Tensor one_armed(torch::Tensor x) {
  torch::Tensor y = x;
  /* peak */
  // halve
  y = torch::where(x.max() > 1, x / 2, y);
  return y;
}
