// if-return-to-where: a helper called in an arm may write elements of a tensor it allocated
// itself (nobody outside sees it); one that writes through a tensor it was handed (a tensor
// assigned from another shares its storage) writes the caller's tensor, and stays a side effect.
#include <torch/torch.h>

torch::Tensor offsets(const torch::Tensor &x) {
  auto p = torch::zeros({2});
  p[0] = 1;
  return x + p.sum();
}

torch::Tensor aliased(const torch::Tensor &x) {
  auto p = x;
  p[0] = 1;
  return x + p.sum();
}

torch::Tensor shifted(const torch::Tensor &x) {
  if (x.sum().item<float>() > 0)
    return offsets(x);
  return x;
}

torch::Tensor shifted_through(const torch::Tensor &x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the then branch calls 'aliased' \(line 26\), which assigns to a variable \(line 14\)$
    return aliased(x);
  return x;
}
