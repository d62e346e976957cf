// nonzero-index-put-to-masked-fill: refused shapes.
#include "mock_torch.h"

torch::Tensor index_reused(torch::Tensor x) {
  auto idx = (x == 0).nonzero(); // EXPECT-NO-FIX: 'idx' is used elsewhere
  x.index_put_({idx}, 1);
  return idx;
}

torch::Tensor foreign_mask(torch::Tensor x, torch::Tensor y) {
  auto m = y > 0;
  x.index_put_({m}, 0); // EXPECT-NO-FIX: neither nonzero\(\) of a mask nor a mask with the shape of 'x'
  return x;
}

torch::Tensor changed_between(torch::Tensor x, torch::Tensor y) {
  auto idx = (x == 0).nonzero(); // EXPECT-NO-FIX: a statement between the nonzero\(\) and its use calls 'add_'
  x.add_(y);
  x.index_put_({idx}, 1);
  return x;
}
