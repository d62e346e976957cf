// masked-reduce-to-where: reductions of fixed-size tensors are left alone.
#include "mock_torch.h"

torch::Tensor plain(torch::Tensor x) { return torch::where(x > 0, x, torch::zeros_like(x)).sum(); }

// Integer indices gather a fixed number of rows (the legal moves of a policy): the sum of the
// gather reduces no selection, so this rule neither rewrites nor refuses it.
#include <algorithm>
torch::Tensor renormalized(torch::Tensor policy, torch::Tensor moves) {
  auto picked = policy.index({moves.to(torch::kLong)});
  return picked / std::max(picked.sum().item<float>(), 1e-8f);
}
