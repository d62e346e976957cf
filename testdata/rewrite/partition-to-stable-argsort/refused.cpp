// partition-to-stable-argsort: refused shapes.
#include "mock_torch.h"

torch::Tensor not_complement(torch::Tensor x) {
  return torch::cat({x.index({x > 0}), x.index({x < 0})}); // EXPECT-NO-FIX: the second mask is not the complement of the first
}

torch::Tensor different_sources(torch::Tensor x, torch::Tensor y) {
  auto m = x > 0;
  return torch::cat({x.index({m}), y.index({~m})}); // EXPECT-NO-FIX: the two gathers index different tensors
}

torch::Tensor other_dim(torch::Tensor x) {
  auto m = x > 0;
  return torch::cat({x.index({m}), x.index({~m})}, 1); // EXPECT-NO-FIX: not along dimension 0
}
