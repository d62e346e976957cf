// if-return-to-where: an arm with a domain-restricted op (sqrt, log, division) gets its input
// guarded by the condition, so the unselected arm's gradient is 0, not 0 * inf = NaN, while
// every selected value stays the same.
#include <torch/torch.h>

torch::Tensor sqrt_when_positive(torch::Tensor x) {
  if (x.min().item<float>() > 0)
    return x.sqrt();
  return x;
}

torch::Tensor log_ratio_or_identity(torch::Tensor x, torch::Tensor y) {
  if (y.abs().min().item<float>() > 0)
    return torch::log(x.abs() / y.abs() + 1);
  return x - y;
}

torch::Tensor constant_divisor_needs_no_guard(torch::Tensor x) {
  if (x.sum().item<float>() > 0)
    return x / 2;
  return x.sqrt() * 0 + x;
}
