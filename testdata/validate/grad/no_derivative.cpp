// An entry whose backward the bundled runtime cannot run: it has no derivative for floor_divide
// (ops.def: derivative_not_implemented; LibTorch 1.13 has none either). The
// gradients of such an entry are reported as not supported (a note by default, a failure with
// --grad); its outputs are still compared.
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct RunningProduct : torch::nn::Module {
  RunningProduct() : w(register_parameter("w", torch::ones({4}))) {}

  torch::Tensor forward(torch::Tensor x) { return torch::floor_divide(x * w, 0.5); }

  torch::Tensor w;
};
