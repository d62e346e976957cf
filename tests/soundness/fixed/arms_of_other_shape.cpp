// Found by the rewrite-soundness fuzzer: arms of different shapes that broadcast. `r` is [2, 4]
// unless the branch assigns `y * 2`, which is [4]; `torch::where(x.sum() > 0, y * 2, r)` is
// [2, 4] on every input. "Broadcast-compatible" is not "the same shape".
// Fixed: arms computed from different tensors (parameters, fields, the value that reaches a
// one-armed if) are refused; arms from the same tensors have one shape (SafetyShapes.cpp).
#include <torch/torch.h>

// graphify-entry: x: f32[2,4], y: f32[4]
struct ArmsOfOtherShape : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    torch::Tensor r = x;
    if (x.sum().item<float>() > 0) {
      r = y * 2;
    }
    return r;
  }
};
