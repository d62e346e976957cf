// if-return-to-where against the real LibTorch headers.
#include <torch/torch.h>

// Seed 002: an early return on a reduction read back to the host.
torch::Tensor early_return(torch::Tensor x) {
  return torch::where(x.sum() > 0, x * 2, x + 2);
}

torch::Tensor if_else_return(torch::Tensor x, torch::Tensor y) {
  return torch::where(x.max() < 0.5, x * y, x - y);
}

torch::Tensor else_if_chain(torch::Tensor x) {
  auto s = x.sum();
  return torch::where(s > 1, x * 2, torch::where(s < -1, -x, x + 1));
}

torch::Tensor through_local(torch::Tensor x) {
  auto m = x.mean();
  return torch::where(m > 0, x.relu(), x.abs());
}

torch::Tensor connectives(torch::Tensor x, torch::Tensor y) {
  return torch::where(
      torch::logical_or(x.all(), torch::logical_not(y.sum() > 0)), x + y,
      x - y);
}
