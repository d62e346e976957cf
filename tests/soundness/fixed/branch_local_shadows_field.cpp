// Found by the rewrite-soundness fuzzer: a branch local named like a field. Predication hoists
// `auto h = x * 2;` out of the branch, so the `h` in `return y + h;`, which read the field
// this->h, now reads the hoisted local: the result changes on every input (the hoisted name
// needs renaming when any later use would bind to it, fields included).
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct BranchLocalShadowsField : torch::nn::Module {
  torch::Tensor h = torch::linspace(-0.75, 0.75, 4);
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = x;
    if (x.sum().item<float>() > 0) {
      auto h = x * 2;
      y = h + 1;
    }
    return y + h;
  }
};
