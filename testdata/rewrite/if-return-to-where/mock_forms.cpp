// if-return-to-where: more condition forms (mock headers).
#include "mock_torch.h"

torch::Tensor mixed_compare(torch::Tensor x, torch::Tensor y, float limit) {
  if (x.max().item<float>() >= limit && y.min().item<double>() != -2)
    return x + y;
  return x - y;
}

torch::Tensor scalar_left(torch::Tensor x) {
  if (0 < x.sum().item<float>())
    return x * 3;
  else
    return x / 3;
}

torch::Tensor truthiness(torch::Tensor x) {
  if (x.sum().item<float>())
    return x;
  return x + 1;
}
