// ternary-to-where against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor select(torch::Tensor x, torch::Tensor y) {
  return torch::where(x.max() > 0.5, x * y, x - y);
}

torch::Tensor nested(torch::Tensor x) {
  auto s = x.sum();
  torch::Tensor r = torch::where(s > 1, x * 2, torch::where(s < -1, -x, x + 1));
  return r;
}
