// Found by the rewrite-soundness fuzzer (seed 113 --without f64,guarded-raise,ids-leaf,ifdef,
// macro-condition,nonzero-put,shadow-field, Case4): two early-exit loops in one block. Each
// early-exit-loop-to-masked fix declares its mask as `auto active` before its loop; the second
// declaration does not compile, and the compile gate refuses every fix of the file.
// Fixed: fresh names are unique across the fixes of a function (rewriter/lib/FreshNames.h).
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct TwoLoopsNamedActive : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < 4; ++i) {
      x = torch::tanh(x) * 2;
      if (x.sum().item<float>() > 1)
        break;
    }
    for (int i = 0; i < 3; ++i) {
      x = x - 0.5;
      if (x.min().item<float>() < -1)
        break;
    }
    return x;
  }
};
