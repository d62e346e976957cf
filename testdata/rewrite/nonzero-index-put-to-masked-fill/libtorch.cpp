// nonzero-index-put-to-masked-fill against the real LibTorch headers.
#include <torch/torch.h>

// Seed 002: replace zeros through nonzero() indices, of a vector (the rule is exact for one
// dimension; LibTorch's TORCH_CHECK states it).
torch::Tensor replace_zeros(torch::Tensor w, torch::Tensor x) {
  TORCH_CHECK(x.dim() == 1, "x must be a vector");
  auto idx = (x == 0).nonzero();
  x.index_put_({idx}, 1e-4);
  return torch::matmul(w, x);
}

torch::Tensor clamp_negative(torch::Tensor x) {
  auto negative = x < 0;
  x.index_put_({negative}, 0);
  return x;
}
