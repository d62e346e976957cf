// An early return whose branch declares locals and calls a pure helper of the user's, with
// statements between it and the final return that reassign a parameter: the general
// if-conversion hoists the locals (renaming the clash), gives the reassignment a fresh name and
// selects the returned value.
#include <torch/torch.h>

torch::Tensor gate(torch::Tensor h, torch::Tensor y) { return h * y.sigmoid(); }

// graphify-entry: x: f32[2,3], y: f32[2,3]
struct BranchLocals : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    if (x.sum().item<float>() > 0) {
      auto h = x.relu() + 1;
      auto g = gate(h, y);
      return g - h;
    }
    x = x.abs() * 2;
    auto h = x - y;
    return h * 3;
  }
};
// graphify-expect-fix: fixed
