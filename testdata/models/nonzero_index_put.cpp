// Seed 002, the nonzero example: nonzero() returns as many coordinates as there are zeros, so the
// index tensor's shape depends on x's values. A free function marked as a graph region, so that
// models written as plain functions (not nn::Module) are covered too. The rewrite to masked_fill_
// is exact for a vector only (nonzero() of a matrix lists [k, 2] coordinates, which index_put_
// would read as rows); the TORCH_CHECK states the rank, as real code does.
#include <graphify/annotations.h>
#include <torch/torch.h>

// graphify-entry: w: f32[3,3], x: f32[3]
GRAPHIFY_GRAPH_REGION torch::Tensor replace_zeros_then_project(torch::Tensor w, torch::Tensor x) {
  TORCH_CHECK(x.dim() == 1, "x must be a vector");
  auto idx = (x == 0).nonzero();
  x.index_put_({idx}, 1e-4);
  return torch::matmul(w, x);
}
// graphify-expect-fix: fixed
