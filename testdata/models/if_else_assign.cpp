// Two variables assigned in both arms of a value-dependent if/else; the fix is one torch::where
// per assigned variable, sharing the lifted condition.
#include <torch/torch.h>

// graphify-entry: x: f32[4], y: f32[4]
struct IfElseAssign : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    torch::Tensor a;
    torch::Tensor b;
    if (x.mean().item<float>() > 0) {
      a = x * 2;
      b = y + 1;
    } else {
      a = x - 1;
      b = y * 3;
    }
    return a + b;
  }
};

// The condition read through the Scalar that item() returns.
// graphify-entry: x: f32[4], y: f32[4]
struct ConvertedCondition : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    float peak = x.abs().max().item().toFloat();
    if (peak > 1.0f)
      y = y / 2;
    return y;
  }
};
// graphify-expect-fix: fixed
