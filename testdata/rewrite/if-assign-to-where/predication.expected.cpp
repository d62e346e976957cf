// if-assign-to-where through the general if-conversion: branch locals, several variables that
// read each other, nested ifs. Every statement runs unconditionally; values never overwrite
// what a later select reads.
#include "mock_torch.h"

torch::Tensor branch_locals(torch::Tensor x, torch::Tensor y) {
  torch::Tensor a = x * y;
  torch::Tensor b = x + y;
  auto t = x * y;
  auto a2 = t + 1;
  auto cond = x.sum() > 0;
  a = torch::where(cond, a2, x - y);
  b = torch::where(cond, t - a2, b);
  return a + b;
}

torch::Tensor read_before_write(torch::Tensor x) {
  torch::Tensor a = x.abs();
  torch::Tensor b = x.relu();
  auto cond = x.sum() > 0;
  auto b2 = torch::where(cond, x * 2, a + 1);
  a = torch::where(cond, x, x * 3);
  b = b2;
  return a + b;
}

torch::Tensor nested(torch::Tensor x) {
  torch::Tensor out = x;
  out = torch::where(x.sum() > 0, torch::where(x.max() > 4, x / 4, x * 2), out);
  return out;
}

torch::Tensor clash_with_later_local(torch::Tensor x) {
  torch::Tensor y = x;
  auto s2 = x.abs();
  y = torch::where(x.mean() < 0, s2 * s2, y);
  auto s = y + 1;
  return s;
}
