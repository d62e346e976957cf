// early-exit-loop-to-masked: the mask the masked loop declares must not capture a field of the
// same name read through the implicit `this` after the loop.
#include <torch/torch.h>

struct Refiner : torch::nn::Module {
  torch::Tensor active = torch::ones({4});

  torch::Tensor forward(torch::Tensor x) {
    auto active2 = torch::ones({}, x.options().dtype(torch::kBool));
    for (int i = 0; i < 8; ++i) {
      x = torch::where(active2, torch::relu(x - 0.5), x);
      active2 = torch::logical_and(active2, torch::logical_not(x.sum() < 1.0f));
    }
    return x * active;
  }
};
