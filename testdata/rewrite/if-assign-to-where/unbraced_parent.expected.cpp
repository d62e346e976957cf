// if-assign-to-where: several variables under an unbraced parent need a block for the condition.
#include "mock_torch.h"

torch::Tensor nested(torch::Tensor x, bool training) {
  torch::Tensor a = x.relu();
  torch::Tensor b = -x;
  if (training) {
    auto cond = x.sum() > 0;
    a = torch::where(cond, x, a);
    b = torch::where(cond, x * 2, b);
  }
  return a + b;
}
