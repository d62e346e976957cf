// A rejection sampler's second acceptance test builds its mask with zeros_like of the first one
// and fills it through the rejected rows, as rejection samplers for Gamma and Beta policies do.
// zeros_like keeps the mask's dtype, so indexing through the new mask is a boolean selection too;
// one given a floating dtype is not a mask, and indexing with it is a plain index.
// RUN-ARGS: --graph-region=accept
#include <torch/torch.h>

torch::Tensor accept(torch::Tensor out, const torch::Tensor &u, const torch::Tensor &v, const torch::Tensor &x) {
  auto first = u < 1 - 0.0331 * x.pow(4);
  auto second = torch::zeros_like(first);
  second.masked_fill_(~first, true);
  out.index_put_({second}, v.index({second}));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'index_put_' with a boolean mask has a data-dependent output shape: assigning through a boolean mask computes the true positions on the host; a static graph cannot hold it [graphify-dynamic-shape]
  // CHECK-MESSAGES: :[[@LINE-2]]:30: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
  auto weights = torch::zeros_like(first, torch::kFloat);
  return out * weights.sum();
}
