// Found by the rewrite-soundness fuzzer (seed 2, Case3): nonzero-index-put-to-masked-fill on a
// tensor of rank 2. `(x > c).nonzero()` is [k, 2]; `x.index_put_({idx}, v)` indexes dimension 0
// with all of it (row numbers, column numbers alike), so the original throws "index 2 is out of
// bounds for dimension 0 with size 2" (or, for a [2, 2] tensor, zeroes whole rows), while
// `x.masked_fill_(x > c, v)` fills elements. The rule holds only for 1-D tensors.
// Fixed: refused unless the tensor is provably one-dimensional (rewriter/lib/RankFacts.h); the
// reason says how to state the rank (TORCH_CHECK(x.dim() == 1)).
#include <torch/torch.h>

// graphify-entry: x: f32[2,4]
struct NonzeroIndexPutOn2d : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto idx = (x > 0.5).nonzero();
    x.index_put_({idx}, 0);
    return x;
  }
};
