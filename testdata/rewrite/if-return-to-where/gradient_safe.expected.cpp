// if-return-to-where: an arm with a domain-restricted op (sqrt, log, division) gets its input
// guarded by the condition, so the unselected arm's gradient is 0, not 0 * inf = NaN, while
// every selected value stays the same.
#include <torch/torch.h>

torch::Tensor sqrt_when_positive(torch::Tensor x) {
  auto cond = x.min() > 0;
  return torch::where(cond, torch::where(cond, x, 1).sqrt(), x);
}

torch::Tensor log_ratio_or_identity(torch::Tensor x, torch::Tensor y) {
  auto cond = y.abs().min() > 0;
  return torch::where(
      cond,
      torch::log(
          torch::where(cond, x.abs() / torch::where(cond, y.abs(), 1) + 1, 1)),
      x - y);
}

torch::Tensor constant_divisor_needs_no_guard(torch::Tensor x) {
  auto cond = x.sum() > 0;
  return torch::where(cond, x / 2, torch::where(cond, 1, x).sqrt() * 0 + x);
}
