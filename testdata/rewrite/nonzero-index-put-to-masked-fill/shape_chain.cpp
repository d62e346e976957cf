// nonzero-index-put-to-masked-fill through elements-preserving calls after nonzero().
#include <torch/torch.h>

void zero_to_eps(torch::Tensor x) {
  auto i = (x == 0).nonzero().squeeze(1);
  x.index_put_({i}, 1e-6);
}

void flattened(torch::Tensor x) {
  auto i = (x < 0).nonzero().view(-1);
  x.index_put_({i}, 0);
}

void inline_chain(torch::Tensor x) { x.index_put_({(x > 5).nonzero().squeeze(1)}, 5); }
