// Reductions over a boolean selection: masked_select has a value-dependent length even though
// only its sum (or mean) leaves the function. The fix reduces torch::where(m, x, 0) instead, and
// divides by m.sum() for the mean (NaN on an empty selection on both sides, as 0/0).
#include <torch/torch.h>

// graphify-entry: x: f32[6]
struct MaskedSum : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto m = x > 0;
    return x.masked_select(m).sum();
  }
};

// graphify-entry: x: f32[2,3], y: f32[2,3]
struct MaskedMean : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    return x.masked_select(y < 0).mean();
  }
};
// graphify-expect-fix: fixed
