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

// 'y' is not proven to hold one element: its read becomes 'y' reshaped to 0-d, which throws
// where item() would and keeps where() from broadcasting 'x' against a one-element 'y'.
torch::Tensor unproven_single_element(torch::Tensor x, torch::Tensor y) {
  if (y.item<float>() > 0)
    return x;
  return -x;
}
