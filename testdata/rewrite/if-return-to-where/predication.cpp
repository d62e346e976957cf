// if-return-to-where through the general if-conversion: branch locals (renamed where their
// names clash), statements between the early return and the final one, chains of early
// returns, nested early returns, reassigned parameters.
#include "mock_torch.h"

torch::Tensor branch_locals(torch::Tensor x) {
  if (x.sum().item<float>() > 0) {
    auto h = x * 2;
    auto g = h + 1;
    return g * h;
  }
  auto h = x - 1;
  return h.abs();
}

torch::Tensor statements_between(torch::Tensor x, torch::Tensor y) {
  if (x.mean().item<float>() > 0)
    return x + y;
  auto z = x + y;
  z = z * 2;
  return z - 1;
}

torch::Tensor early_chain(torch::Tensor x) {
  if (x.max().item<float>() > 10)
    return x / 10;
  if (x.min().item<float>() < -10)
    return x / -10;
  return x;
}

torch::Tensor nested_returns(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item<float>() > 0) {
    if (y.sum().item<float>() > 0)
      return y * x;
    return x + y;
  }
  return -(x - y);
}

torch::Tensor reassigned_parameter(torch::Tensor x) {
  if (x.sum().item<float>() > 0)
    return x;
  x = x * 2;
  return x;
}

torch::Tensor assign_then_return(torch::Tensor x, torch::Tensor y) {
  if (y.sum().item<float>() > 0)
    y = y * 2;
  if (x.sum().item<float>() > 0)
    return x + y;
  return x - y;
}
