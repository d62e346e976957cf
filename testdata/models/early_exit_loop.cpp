// Loops whose trip count follows tensor values: a refinement that runs while the state is large
// (bounded by a static count), and one that stops once nothing is left. A trace records the
// number of iterations it saw; the fixed-trip form with masked updates does not depend on it.
#include <torch/torch.h>

// graphify-entry: h: f32[3], w: f32[3,3]
struct ShrinkWhileLarge : torch::nn::Module {
  torch::Tensor forward(torch::Tensor h, torch::Tensor w) {
    for (int64_t t = 0; t < 6 && h.abs().max().item<float>() > 0.25f; ++t) {
      auto z = torch::matmul(w, h);
      h = torch::tanh(z) * 0.5;
    }
    return h;
  }
};

// graphify-entry: x: f32[5]
struct DrainUntilEmpty : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < 8; ++i) {
      auto next = torch::relu(x - 0.5);
      x = next;
      if (next.sum().item<float>() == 0.0f)
        break;
    }
    return x;
  }
};
// graphify-expect-fix: fixed
