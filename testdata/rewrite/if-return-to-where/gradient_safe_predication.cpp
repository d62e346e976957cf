// if-return-to-where through the general if-conversion: every statement of the region runs
// unconditionally, so the inputs of its domain-restricted ops (log, sqrt, division by a tensor)
// are guarded by the conditions under which the original ran them: the branch's own condition,
// the earlier conditions of a chain negated, and for the code after an early return, that
// return's condition negated. Nested ifs guard with every condition of the path.
#include <torch/torch.h>

torch::Tensor branch_local_log(torch::Tensor x) {
  if (x.min().item<float>() > 0) {
    auto l = x.log();
    return l * 2;
  }
  auto h = x * 3;
  return h;
}

torch::Tensor after_early_return(torch::Tensor x, torch::Tensor y) {
  if (y.abs().min().item<float>() == 0)
    return x - y;
  auto q = x / y;
  return q + 1;
}

torch::Tensor chain_and_nesting(torch::Tensor x, torch::Tensor y) {
  if (x.max().item<float>() < 0)
    return -(x + y);
  if (x.min().item<float>() >= 0) {
    if (y.min().item<float>() > 0) {
      auto r = (x * y).sqrt();
      return r;
    }
    return x * y;
  }
  return y - x;
}
