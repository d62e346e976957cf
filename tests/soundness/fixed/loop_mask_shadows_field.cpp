// Found by the rewrite-soundness fuzzer: early-exit-loop-to-masked declares its mask as
// `auto active = ...` before the loop; the loop body's `active`, which read the field
// this->active, now reads the boolean mask (a float tensor plus a bool mask computes, so it
// compiles, with other values).
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct LoopMaskShadowsField : torch::nn::Module {
  torch::Tensor active = torch::linspace(-0.75, 0.75, 4);
  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < 4; ++i) {
      x = torch::tanh(x) + active;
      if (x.sum().item<float>() > 1)
        break;
    }
    return x;
  }
};
