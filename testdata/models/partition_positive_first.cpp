// Seed 002, "Use fixed-size masks": moving the positive entries to the front with two boolean
// gathers. Each x.index({mask}) has a value-dependent length, so no static graph can hold it, even
// though the concatenation always has x's length. The second part is the complement of the
// first ('~positive'): written as 'x <= 0' it would drop NaN elements, and graphify refuses that
// form (docs/rewrites.md, partition-to-stable-argsort).
#include <torch/torch.h>

// graphify-entry: w: f32[3,3], x: f32[3]
struct PartitionPositiveFirst : torch::nn::Module {
  torch::Tensor forward(torch::Tensor w, torch::Tensor x) {
    auto positive = x > 0;
    x = torch::cat({x.index({positive}), x.index({~positive})});
    return torch::matmul(w, x);
  }
};
// graphify-expect-fix: fixed
