// if-return-to-where: nothing to rewrite (branches on shapes and host values only).
#include "mock_torch.h"

torch::Tensor static_shape(torch::Tensor x) {
  if (x.size(0) > 2)
    return x * 2;
  return x;
}

torch::Tensor host_flag(torch::Tensor x, bool training) {
  if (training)
    return x * 2;
  return x;
}

torch::Tensor already_where(torch::Tensor x) { return torch::where(x.sum() > 0, x * 2, x + 2); }
