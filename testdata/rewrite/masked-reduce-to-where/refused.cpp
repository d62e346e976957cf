// masked-reduce-to-where: refused shapes.
#include "mock_torch.h"

torch::Tensor row_mask(torch::Tensor x, torch::Tensor y) {
  auto rows = y > 0;
  return x.index({rows}).sum(); // EXPECT-NO-FIX: cannot prove that the mask 'rows' has the shape of 'x'
}
