// masked-reduce-to-where when the selection goes through a local used only by the reduction.
#include <torch/torch.h>

torch::Tensor masked_mean(torch::Tensor x, torch::Tensor m) {
  auto picked = x.masked_select(m);
  return picked.mean();
}

torch::Tensor positive_total(torch::Tensor x) {
  auto pos = x.index({x > 0});
  auto scaled = x * 2;
  return pos.sum() + scaled.sum();
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
