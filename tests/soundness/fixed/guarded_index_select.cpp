// Found by the rewrite-soundness fuzzer (seed 3, Case3, next to an integer division): index_select
// under a boolean range guard. if-assign-to-where lifts `(ids >= 0).all() && (ids < n).all()` and
// evaluates `w1.index_select(0, ids)` on every input: ids with -1 or 4 now throw "index out of
// range in self" where the original returned x.
#include <torch/torch.h>

// graphify-entry: x: f32[4], ids: i64[4] in [-1, 4]
struct GuardedIndexSelectBool : torch::nn::Module {
  int64_t n = 4;
  torch::Tensor w1 = torch::linspace(0.5, 2.0, 4);
  torch::Tensor forward(torch::Tensor x, torch::Tensor ids) {
    torch::Tensor y = x;
    if ((ids >= 0).all().item<bool>() && (ids < n).all().item<bool>()) {
      y = x + w1.index_select(0, ids);
    }
    return y;
  }
};
