// Already graph-safe: the only branch reads a size (static), and the gather indexes with long
// tensors from argmax/arange, whose length is fixed by the shape, both built where h is (an
// arange given no device would be built on the host and copied as h is indexed). graphify must
// report nothing here.
#include <torch/torch.h>

// graphify-entry: x: f32[4,5]
struct ArgmaxPickImpl : torch::nn::Module {
  ArgmaxPickImpl() : proj(register_module("proj", torch::nn::Linear(5, 3))) {}

  torch::Tensor forward(torch::Tensor x) {
    auto h = proj->forward(x);                       // h: (N, 3)
    auto best = h.argmax(1);                         // best: (N,) long
    auto rows = torch::arange(h.size(0), h.options().dtype(torch::kLong));
    auto picked = h.index({rows, best});             // picked: (N,)
    if (x.size(0) > 2) {
      return picked * 2;
    }
    return picked;
  }

  torch::nn::Linear proj;
};
TORCH_MODULE(ArgmaxPick);
// graphify-expect-fix: clean
