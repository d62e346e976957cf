// if-assign-to-where: several variables under an unbraced parent need a block for the condition.
#include "mock_torch.h"

torch::Tensor nested(torch::Tensor x, torch::Tensor a, torch::Tensor b, bool training) {
  if (training)
    if (x.sum().item<float>() > 0) {
      a = x;
      b = x * 2;
    }
  return a + b;
}
