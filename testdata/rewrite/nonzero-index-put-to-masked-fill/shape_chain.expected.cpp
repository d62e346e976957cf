// nonzero-index-put-to-masked-fill through elements-preserving calls after nonzero().
#include <torch/torch.h>

void zero_to_eps(torch::Tensor x) {
  TORCH_CHECK(x.dim() == 1);
  x.masked_fill_(x == 0, 1e-6);
}

void flattened(torch::Tensor x) {
  TORCH_CHECK(x.dim() == 1 && x.numel() > 0, "a non-empty vector");
  x.masked_fill_(x < 0, 0);
}

void inline_chain(torch::Tensor scores) {
  auto x = scores.flatten();
  x.masked_fill_(x > 5, 5);
}
