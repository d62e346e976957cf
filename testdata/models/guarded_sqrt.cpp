// A square root taken only when every element is positive. As where(c, x.sqrt() * 2, x * 0.5)
// the unselected arm's gradient would be 0 * inf = NaN at the non-positive elements (the
// double-where problem); the rewrite guards sqrt's input with the condition, so the values and
// the gradients both match the original.
#include <torch/torch.h>

// graphify-entry: x: f32[6]
struct GuardedSqrt : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.min().item<float>() > 0)
      return x.sqrt() * 2;
    return x * 0.5;
  }
};
// graphify-expect-fix: fixed
