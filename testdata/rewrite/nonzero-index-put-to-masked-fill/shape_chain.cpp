// nonzero-index-put-to-masked-fill through elements-preserving calls after nonzero().
#include <torch/torch.h>

void zero_to_eps(torch::Tensor x) {
  TORCH_CHECK(x.dim() == 1);
  auto i = (x == 0).nonzero().squeeze(1);
  x.index_put_({i}, 1e-6);
}

void flattened(torch::Tensor x) {
  TORCH_CHECK(x.dim() == 1 && x.numel() > 0, "a non-empty vector");
  auto i = (x < 0).nonzero().view(-1);
  x.index_put_({i}, 0);
}

void inline_chain(torch::Tensor scores) {
  auto x = scores.flatten();
  x.index_put_({(x > 5).nonzero().squeeze(1)}, 5);
}
