// A module with parameters (a Linear layer and a registered tensor) and a value branch on its own
// activations: graphify-validate compares its gradients without being asked, w.r.t. the input and
// every parameter (fc.weight, fc.bias, scale).
#include <torch/torch.h>

// graphify-entry: x: f32[2,3]
struct GatedProjection : torch::nn::Module {
  GatedProjection()
      : fc(register_module("fc", torch::nn::Linear(3, 2))),
        scale(register_parameter("scale", torch::full({2}, 0.5))) {}

  torch::Tensor forward(torch::Tensor x) {
    auto h = fc->forward(x);                         // h: (N, 2)
    if (h.mean().item<float>() > 0) {
      return h.tanh();
    }
    return h * scale;
  }

  torch::nn::Linear fc;
  torch::Tensor scale;
};
