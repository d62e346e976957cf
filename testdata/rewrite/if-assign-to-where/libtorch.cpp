// if-assign-to-where against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor two_variables(torch::Tensor x, torch::Tensor y) {
  torch::Tensor a;
  torch::Tensor b;
  if (x.mean().item<float>() > 0) {
    a = x * 2;
    b = y + 1;
  } else {
    a = x - 1;
    b = y * 3;
  }
  return a + b;
}

torch::Tensor one_armed(torch::Tensor x) {
  auto y = x * 2;
  if (x.max().item<float>() > 1)
    y = y / 2;
  return y;
}

torch::Tensor chain(torch::Tensor x) {
  auto s = x.sum();
  torch::Tensor out = x;
  if (s.item<float>() > 1) {
    out = x * 2;
  } else if (s.item<float>() < -1) {
    out = -x;
  }
  return out;
}
