// Found by the rewrite-soundness fuzzer: arms of different dtypes. The module's x is double, the
// field w float; the original returns a float tensor on one side and a double one on the other,
// `torch::where(x.sum() > 0, w * 2, x)` promotes both to double. Type promotion is invisible in
// the source (both are torch::Tensor), so the rewrite needs a dtype it can prove equal, or a
// `.to(a.scalar_type())`-style cast per arm.
// Fixed: arms computed from different tensors (parameters, fields, the value that reaches a
// one-armed if) are refused; arms from the same tensors have one shape (SafetyShapes.cpp).
#include <torch/torch.h>

// graphify-entry: x: f64[4]
struct ArmsOfOtherDtype : torch::nn::Module {
  torch::Tensor w = torch::linspace(-1.0, 1.0, 4);
  torch::Tensor forward(torch::Tensor x) {
    if (x.sum().item<float>() > 0)
      return w * 2;
    return x;
  }
};
