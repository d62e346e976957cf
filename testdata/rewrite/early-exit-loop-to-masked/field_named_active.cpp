// early-exit-loop-to-masked: the mask the masked loop declares must not capture a field of the
// same name read through the implicit `this` after the loop.
#include <torch/torch.h>

struct Refiner : torch::nn::Module {
  torch::Tensor active = torch::ones({4});

  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < 8; ++i) {
      x = torch::relu(x - 0.5);
      if (x.sum().item<float>() < 1.0f)
        break;
    }
    return x * active;
  }
};
