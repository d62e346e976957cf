// Found by the rewrite-soundness fuzzer (seeds 3 and 4): integer division under a non-zero guard.
// if-assign-to-where hoists `torch::floor_divide(ids + 7, ids)` out of the branch, so inputs
// with a zero in ids, for which the original skips the branch, throw "ZeroDivisionError"
// (LibTorch raises on integer division by zero; remainder does the same).
#include <torch/torch.h>

// graphify-entry: x: f32[4], ids: i64[4] in [-1, 4]
struct GuardedIntegerDivision : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor ids) {
    torch::Tensor y = x;
    if ((ids != 0).all().item<bool>()) {
      y = x + torch::floor_divide(ids + 7, ids).to(torch::kFloat);
    }
    return y;
  }
};
