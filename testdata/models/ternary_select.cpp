// A conditional operator choosing between two tensors on a host-read value; same fix as an
// if/else return, written where the ternary was.
#include <torch/torch.h>

// graphify-entry: x: f32[2,3], y: f32[2,3]
struct TernarySelect : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    return x.max().item<float>() > 0.5 ? x * y : x - y;
  }
};
// graphify-expect-fix: fixed
