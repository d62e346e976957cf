// if-assign-to-where: two fixes in one function each need a fresh name (a lifted condition that
// two variables read, a branch local that clashes with a local of the other branch). The names
// are unique across the fixes of the function, not only within each: `cond` then `cond2`, `t2`
// then `t3`. Each fix alone would pick the first, and the file would not compile.
#include "mock_torch.h"

torch::Tensor two_lifted_conditions(torch::Tensor x) {
  torch::Tensor a = x;
  torch::Tensor b = x;
  auto cond = x.sum() > 0;
  a = torch::where(cond, x * 2, a);
  b = torch::where(cond, b, x * 3);
  auto cond2 = x.max() > 1;
  a = torch::where(cond2, a + 1, a);
  b = torch::where(cond2, b, b - 1);
  return a + b;
}

torch::Tensor two_branch_locals(torch::Tensor x) {
  torch::Tensor v = x;
  auto t2 = x * 2;
  v = torch::where(x.sum() > 0, t2 + 1, v);
  auto t3 = x / 2;
  v = torch::where(x.max() > 1, v - t3, v);
  return v;
}

// Another function starts afresh: its condition is `cond` again.
torch::Tensor one_lifted_condition(torch::Tensor x) {
  torch::Tensor a = x;
  torch::Tensor b = x;
  auto cond = x.mean() > 0;
  a = torch::where(cond, x * 2, a);
  b = torch::where(cond, b, x * 3);
  return a - b;
}
