// Three entries in one file, rewritten differently: First through a helper it calls (an if/return
// rewrite, outside First's class), Second in its own forward (a ternary rewrite), `untouched` not
// at all. First's forward is defined after the others, so "from the class to its forward" spans
// all three; each report row must list only the fixes in the code that entry runs.
#include <torch/torch.h>

torch::Tensor shift_by_sign(torch::Tensor x) {
  if (x.sum().item<float>() > 0) {
    return x * 2;
  }
  return x + 2;
}

// graphify-entry: x: f32[3]
struct First : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};

// graphify-entry: x: f32[3]
struct Second : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x.max().item<float>() > 0.5 ? x * 3 : x - 1;
  }
};

// graphify-entry: x: f32[3]
torch::Tensor untouched(torch::Tensor x) { return x.relu(); }

torch::Tensor First::forward(torch::Tensor x) { return shift_by_sign(x); }
