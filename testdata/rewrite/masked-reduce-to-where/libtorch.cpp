// masked-reduce-to-where against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor masked_sum(torch::Tensor x) {
  auto m = x > 0;
  return x.masked_select(m).sum();
}

torch::Tensor masked_mean(torch::Tensor x, torch::Tensor y) {
  return x.masked_select(y < 0).mean();
}

torch::Tensor self_mean(torch::Tensor x) {
  auto m = x != 0;
  auto avg = x.masked_select(m).mean();
  return avg * 2;
}

torch::Tensor index_sum(torch::Tensor x) { return x.index({x > 1}).sum() * 3; }
