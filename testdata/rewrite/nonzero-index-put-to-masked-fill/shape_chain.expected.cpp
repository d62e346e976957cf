// nonzero-index-put-to-masked-fill through elements-preserving calls after nonzero().
#include <torch/torch.h>

void zero_to_eps(torch::Tensor x) { x.masked_fill_(x == 0, 1e-6); }

void flattened(torch::Tensor x) { x.masked_fill_(x < 0, 0); }

void inline_chain(torch::Tensor x) { x.masked_fill_(x > 5, 5); }
