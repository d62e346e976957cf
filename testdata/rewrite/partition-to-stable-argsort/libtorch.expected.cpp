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

// A concatenation of host tensors copied to the device is no partition: the copy's finding is not
// answered with this rule's refusal.
torch::Tensor host_lengths(torch::Tensor x) {
  auto lengths = torch::cat({torch::ones({2}, torch::kLong), torch::zeros({2}, torch::kLong)}).to(x.device());
  return x + lengths.sum();
}
