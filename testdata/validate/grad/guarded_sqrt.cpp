// The double-where problem: the branch guards sqrt so that it only ever sees positive values, but
// `torch::where(x.min() > 0, x.sqrt(), x)` evaluates both arms, and backward multiplies the zero
// gradient of the unselected sqrt arm by sqrt's derivative, infinite or NaN where x <= 0:
// 0 * inf = NaN. The outputs agree; the gradients w.r.t. x do not (the NaN-safe form is
// `torch::where(c, torch::where(c, x, 1).sqrt(), x)`).
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct GuardedSqrt : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.min().item<float>() > 0) {
      return x.sqrt();
    }
    return x;
  }
};
