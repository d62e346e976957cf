// if-assign-to-where through the general if-conversion: branch locals, several variables that
// read each other, nested ifs. Every statement runs unconditionally; values never overwrite
// what a later select reads.
#include "mock_torch.h"

torch::Tensor branch_locals(torch::Tensor x, torch::Tensor y) {
  torch::Tensor a = x * y;
  torch::Tensor b = x + y;
  if (x.sum().item<float>() > 0) {
    auto t = x * y;
    a = t + 1;
    b = t - a;
  } else {
    a = x - y;
  }
  return a + b;
}

torch::Tensor read_before_write(torch::Tensor x) {
  torch::Tensor a = x.abs();
  torch::Tensor b = x.relu();
  if (x.sum().item<float>() > 0) {
    a = x;
    b = x * 2;
  } else {
    b = a + 1;
    a = x * 3;
  }
  return a + b;
}

torch::Tensor nested(torch::Tensor x) {
  torch::Tensor out = x;
  if (x.sum().item<float>() > 0) {
    if (x.max().item<float>() > 4)
      out = x / 4;
    else
      out = x * 2;
  }
  return out;
}

torch::Tensor clash_with_later_local(torch::Tensor x) {
  torch::Tensor y = x;
  if (x.mean().item<float>() < 0) {
    auto s = x.abs();
    y = s * s;
  }
  auto s = y + 1;
  return s;
}
