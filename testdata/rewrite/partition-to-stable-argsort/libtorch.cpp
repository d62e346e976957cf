// partition-to-stable-argsort against the real LibTorch headers.
#include <torch/torch.h>

// Seed 002: positive entries first, each part in its original order.
torch::Tensor positive_first(torch::Tensor w, torch::Tensor x) {
  auto positive = x > 0;
  x = torch::cat({x.index({positive}), x.index({~positive})});
  return torch::matmul(w, x);
}

torch::Tensor by_mask(torch::Tensor x) {
  auto m = x.abs() > 1;
  return torch::cat({x.index({m}), x.index({~m})});
}
