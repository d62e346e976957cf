// partition-to-stable-argsort against the real LibTorch headers.
#include <torch/torch.h>

// Seed 002: positive entries first, each part in its original order.
torch::Tensor positive_first(torch::Tensor w, torch::Tensor x) {
  auto positive = x > 0;
  x = x.index_select(
      0, torch::argsort((~positive).to(torch::kInt), /*stable=*/true, 0));
  return torch::matmul(w, x);
}

torch::Tensor by_mask(torch::Tensor x) {
  auto m = x.abs() > 1;
  return x.index_select(
      0, torch::argsort((~m).to(torch::kInt), /*stable=*/true, 0));
}
