// ternary-to-where against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor select(torch::Tensor x, torch::Tensor y) {
  return x.max().item<float>() > 0.5 ? x * y : x - y;
}

torch::Tensor nested(torch::Tensor x) {
  auto s = x.sum();
  torch::Tensor r = s.item<float>() > 1 ? x * 2 : s.item<float>() < -1 ? -x : x + 1;
  return r;
}
