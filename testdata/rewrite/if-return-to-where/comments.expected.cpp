// if-return-to-where: the comments of the early return and of the code it folds are kept.
#include "mock_torch.h"

torch::Tensor early(torch::Tensor x) {
  // scaled
  // otherwise unchanged
  return torch::where(x.mean() > 0, x * 2, x);
}
