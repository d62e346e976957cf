// masked-reduce-to-where when the selection goes through a local used only by the reduction.
#include <torch/torch.h>

torch::Tensor masked_mean(torch::Tensor x, torch::Tensor m) {
  return torch::where(m, x, 0).sum() /
         torch::logical_and(m, torch::ones_like(x, torch::kBool)).sum();
}

torch::Tensor positive_total(torch::Tensor x) {
  auto scaled = x * 2;
  return torch::where(x > 0, x, 0).sum() + scaled.sum();
}

torch::Tensor used_twice(torch::Tensor x, torch::Tensor m) {
  auto picked = x.masked_select(m); // EXPECT-NO-FIX: 'picked' is used elsewhere, so the selection cannot be removed
  return picked.sum() / picked.numel();
}

torch::Tensor changed_between(torch::Tensor x, torch::Tensor m) {
  auto picked = x.masked_select(m); // EXPECT-NO-FIX: a statement between the selection and its use calls 'add_', which changes state
  x.add_(1);
  return picked.sum();
}
