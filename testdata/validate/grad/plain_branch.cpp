// A plain value branch whose arms are finite everywhere: the where-rewrite keeps the outputs and
// the gradients (w.r.t. both inputs, on either side of the branch).
#include <torch/torch.h>

// graphify-entry: x: f32[4], w: f32[4]
torch::Tensor scale_or_shift(torch::Tensor x, torch::Tensor w) {
  if (x.sum().item<float>() > 0) {
    return x * w;
  }
  return x - w * 2;
}
