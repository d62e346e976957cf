// if-assign-to-where: two fixes in one function each need a fresh name (a lifted condition that
// two variables read, a branch local that clashes with a local of the other branch). The names
// are unique across the fixes of the function, not only within each: `cond` then `cond2`, `t2`
// then `t3`. Each fix alone would pick the first, and the file would not compile.
#include "mock_torch.h"

torch::Tensor two_lifted_conditions(torch::Tensor x) {
  torch::Tensor a = x;
  torch::Tensor b = x;
  if (x.sum().item<float>() > 0) {
    a = x * 2;
  } else {
    b = x * 3;
  }
  if (x.max().item<float>() > 1) {
    a = a + 1;
  } else {
    b = b - 1;
  }
  return a + b;
}

torch::Tensor two_branch_locals(torch::Tensor x) {
  torch::Tensor v = x;
  if (x.sum().item<float>() > 0) {
    auto t = x * 2;
    v = t + 1;
  }
  if (x.max().item<float>() > 1) {
    auto t = x / 2;
    v = v - t;
  }
  return v;
}

// Another function starts afresh: its condition is `cond` again.
torch::Tensor one_lifted_condition(torch::Tensor x) {
  torch::Tensor a = x;
  torch::Tensor b = x;
  if (x.mean().item<float>() > 0) {
    a = x * 2;
  } else {
    b = x * 3;
  }
  return a - b;
}
