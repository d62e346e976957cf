// A scalar read to the host only to feed tensor math: no branch, but a device->host sync in the
// middle of the graph, and a trace would freeze the value. The fix keeps it a 0-d tensor.
#include <torch/torch.h>

// graphify-entry: x: f32[3,4], y: f32[4]
struct ScalarReadScale : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    return x * y.max().item<float>();
  }
};
// graphify-expect-fix: fixed
