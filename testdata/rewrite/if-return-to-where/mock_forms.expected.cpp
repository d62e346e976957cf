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

// 'y' is not proven to hold one element: its read becomes 'y' reshaped to 0-d, which throws
// where item() would and keeps where() from broadcasting 'x' against a one-element 'y'.
torch::Tensor unproven_single_element(torch::Tensor x, torch::Tensor y) {
  return torch::where(y.reshape({}) > 0, x, -x);
}
