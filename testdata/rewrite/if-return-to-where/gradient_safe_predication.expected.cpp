// if-return-to-where through the general if-conversion: every statement of the region runs
// unconditionally, so the inputs of its domain-restricted ops (log, sqrt, division by a tensor)
// are guarded by the conditions under which the original ran them: the branch's own condition,
// the earlier conditions of a chain negated, and for the code after an early return, that
// return's condition negated. Nested ifs guard with every condition of the path.
#include <torch/torch.h>

torch::Tensor branch_local_log(torch::Tensor x) {
  auto cond = x.min() > 0;
  auto l = torch::where(cond, x, 1).log();
  auto h = x * 3;
  return torch::where(cond, l * 2, h);
}

torch::Tensor after_early_return(torch::Tensor x, torch::Tensor y) {
  auto cond = y.abs().min() == 0;
  auto q = x / torch::where(cond, 1, y);
  return torch::where(cond, x - y, q + 1);
}

torch::Tensor chain_and_nesting(torch::Tensor x, torch::Tensor y) {
  auto cond = x.max() < 0;
  auto cond2 = x.min() >= 0;
  auto cond3 = y.min() > 0;
  auto r = torch::where(cond, 1,
                        torch::where(cond2, torch::where(cond3, (x * y), 1), 1))
               .sqrt();
  return torch::where(
      cond, -(x + y),
      torch::where(cond2, torch::where(cond3, r, x * y), y - x));
}
