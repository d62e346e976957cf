// Found by the rewrite-soundness fuzzer: #ifdef inside a branch. The rewrite keeps only the arm
// the preprocessor selected when it ran, `y = torch::where(x.sum() > 0, x * 2, y);`, and deletes
// the #ifdef/#else/#endif: built without FAST_PATH, the rewritten file computes x * 2 where the
// original computes x * 3 (the runner's second pass, with `#define FAST_PATH` taken out).
#include <torch/torch.h>

#define FAST_PATH
// graphify-entry: x: f32[4]
struct IfdefInBranch : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = x;
    if (x.sum().item<float>() > 0) {
#ifdef FAST_PATH
      y = x * 2;
#else
      y = x * 3;
#endif
    }
    return y;
  }
};
#undef FAST_PATH
