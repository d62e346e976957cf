// scalar-read-to-device against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor scale(torch::Tensor x, torch::Tensor y) {
  return x * y.max().to(torch::kFloat);
}

torch::Tensor shift(torch::Tensor x) {
  auto centered = x - x.mean().to(torch::kDouble);
  return centered / x.abs().max().to(torch::kFloat);
}
