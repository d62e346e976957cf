// Seed 002, "Replace if with where": the branch reads a reduction back to the host, so a trace
// records whichever arm the tracing input took and silently diverges on inputs of the other sign.
#include <torch/torch.h>

// graphify-entry: x: f32[3]
struct NonTraceableModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.sum().item<float>() > 0) {
      return x * 2;
    }
    return x + 2;
  }
};
// graphify-expect-fix: fixed
