// masked-reduce-to-where against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor masked_sum(torch::Tensor x) {
  auto m = x > 0;
  return torch::where(m, x, 0).sum();
}

torch::Tensor masked_mean(torch::Tensor x, torch::Tensor y) {
  return torch::where(y < 0, x, 0).sum() /
         torch::logical_and(y < 0, torch::ones_like(x, torch::kBool)).sum();
}

torch::Tensor self_mean(torch::Tensor x) {
  auto m = x != 0;
  auto avg = torch::where(m, x, 0).sum() / m.sum();
  return avg * 2;
}

torch::Tensor index_sum(torch::Tensor x) {
  return torch::where(x > 1, x, 0).sum() * 3;
}
