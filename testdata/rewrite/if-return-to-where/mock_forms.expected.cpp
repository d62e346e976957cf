// if-return-to-where: more condition forms (mock headers).
#include "mock_torch.h"

torch::Tensor mixed_compare(torch::Tensor x, torch::Tensor y, float limit) {
  return torch::where(torch::logical_and(x.max() >= limit, y.min() != -2),
                      x + y, x - y);
}

torch::Tensor scalar_left(torch::Tensor x) {
  return torch::where(0 < x.sum(), x * 3, x / 3);
}

torch::Tensor truthiness(torch::Tensor x) {
  return torch::where(x.sum() != 0, x, x + 1);
}
