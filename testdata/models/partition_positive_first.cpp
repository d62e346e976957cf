// Seed 002, "Use fixed-size masks": moving the positive entries to the front with two boolean
// gathers. Each x.index({mask}) has a value-dependent length, so no static graph can hold it, even
// though the concatenation always has x's length.
#include <torch/torch.h>

// graphify-entry: w: f32[3,3], x: f32[3]
struct PartitionPositiveFirst : torch::nn::Module {
  torch::Tensor forward(torch::Tensor w, torch::Tensor x) {
    x = torch::cat({x.index({x > 0}), x.index({x <= 0})});
    return torch::matmul(w, x);
  }
};
