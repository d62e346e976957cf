// A lookup guarded by a range check: the rows are read only when every id is below the table's
// size. As a where() both arms would run, and index_select would raise "index out of range" on
// exactly the inputs the guard excluded, so the rewrite is refused (issue #32): validate finds
// no rewrite, and the original's values on every trial (E2ERefusals).
#include <torch/torch.h>

// graphify-entry: w: f32[4,3], ids: i64[5] in [0, 6]
struct GuardedLookup : torch::nn::Module {
  torch::Tensor forward(torch::Tensor w, torch::Tensor ids) {
    if (ids.max().item<float>() < 4)
      return w.index_select(0, ids).sum(0);
    return w.sum(0);
  }
};
