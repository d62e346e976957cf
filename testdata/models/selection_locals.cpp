// Value-dependent selections through single-use locals: a masked mean held in a local, and a
// nonzero() index squeezed to one dimension before index_put_. Both fold into fixed-size forms
// (the index_put_ one for a vector, which the TORCH_CHECK states).
#include <torch/torch.h>

// graphify-entry: x: f32[6], y: f32[6]
struct SelectionLocals : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.dim() == 1, "x must be a vector");
    auto z = x.clone();
    auto i = (z == 0).nonzero().squeeze(1);
    z.index_put_({i}, 1);
    auto picked = y.masked_select(x > 0);
    return z * picked.mean();
  }
};
// graphify-expect-fix: fixed
