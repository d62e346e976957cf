// nonzero-index-put-to-masked-fill: indexing with long tensors is fixed-size.
#include "mock_torch.h"

torch::Tensor long_index(torch::Tensor x, torch::Tensor y) {
  x.index_put_({y.argmax(0)}, 1);
  return x;
}
