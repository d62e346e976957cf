// if-return-to-where through the general if-conversion: branch locals (renamed where their
// names clash), statements between the early return and the final one, chains of early
// returns, nested early returns, reassigned parameters.
#include "mock_torch.h"

torch::Tensor branch_locals(torch::Tensor x) {
  auto h = x * 2;
  auto g = h + 1;
  auto h2 = x - 1;
  return torch::where(x.sum() > 0, g * h, h2.abs());
}

torch::Tensor statements_between(torch::Tensor x, torch::Tensor y) {
  auto z = x + y;
  auto z2 = z * 2;
  return torch::where(x.mean() > 0, x + y, z2 - 1);
}

torch::Tensor early_chain(torch::Tensor x) {
  return torch::where(x.max() > 10, x / 10,
                      torch::where(x.min() < -10, x / -10, x));
}

torch::Tensor nested_returns(torch::Tensor x, torch::Tensor y) {
  return torch::where(x.sum() > 0, torch::where(y.sum() > 0, y * x, x + y),
                      -(x - y));
}

torch::Tensor reassigned_parameter(torch::Tensor x) {
  auto x2 = x * 2;
  return torch::where(x.sum() > 0, x, x2);
}

torch::Tensor assign_then_return(torch::Tensor x, torch::Tensor y) {
  y = torch::where(y.sum() > 0, y * 2, y);
  return torch::where(x.sum() > 0, x + y, x - y);
}
