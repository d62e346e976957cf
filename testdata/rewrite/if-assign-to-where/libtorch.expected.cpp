// if-assign-to-where against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor two_variables(torch::Tensor x, torch::Tensor y) {
  torch::Tensor a;
  torch::Tensor b;
  auto cond = x.mean() > 0;
  a = torch::where(cond, x * 2, x - 1);
  b = torch::where(cond, y + 1, y * 3);
  return a + b;
}

torch::Tensor one_armed(torch::Tensor x) {
  auto y = x * 2;
  y = torch::where(x.max() > 1, y / 2, y);
  return y;
}

torch::Tensor chain(torch::Tensor x) {
  auto s = x.sum();
  torch::Tensor out = x;
  out = torch::where(s > 1, x * 2, torch::where(s < -1, -x, out));
  return out;
}
