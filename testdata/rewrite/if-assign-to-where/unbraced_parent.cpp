// if-assign-to-where: several variables under an unbraced parent need a block for the condition.
#include "mock_torch.h"

torch::Tensor nested(torch::Tensor x, bool training) {
  torch::Tensor a = x.relu();
  torch::Tensor b = -x;
  if (training)
    if (x.sum().item<float>() > 0) {
      a = x;
      b = x * 2;
    }
  return a + b;
}
