// Found by the rewrite-soundness fuzzer (class (a): an op that raises on values, under a guard).
// `ids.max() < n && ids.min() >= 0` protects the gather; if-return-to-where lifts the guard and
// evaluates `w1.gather(0, ids)` unconditionally, so an input with ids == -1 or == 4, for which
// the original returns x, throws "index -1 is out of bounds for dimension 0 with size 4".
// Integer reads (item<int64_t>) of the same guard are refused today; floating and boolean reads
// (item<float>, .all().item<bool>()) are lifted.
#include <torch/torch.h>

// graphify-entry: x: f32[4], ids: i64[4] in [-1, 4]
struct GuardedGatherReturn : torch::nn::Module {
  int64_t n = 4;
  torch::Tensor w1 = torch::linspace(0.5, 2.0, 4);
  torch::Tensor forward(torch::Tensor x, torch::Tensor ids) {
    if (ids.max().item<float>() < n && ids.min().item<float>() >= 0)
      return w1.gather(0, ids) * x;
    return x;
  }
};
