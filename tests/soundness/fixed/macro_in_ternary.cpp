// Found by the rewrite-soundness fuzzer (seed 2, Case1): a condition macro as a ternary's
// condition. The lifted condition keeps only the tokens outside the macro:
//   torch::Tensor y = torch::where((> (0)), x * 2, x - 1);
// which does not compile, so the compile gate refuses every fix of the file.
#include <torch/torch.h>

#define ABOVE(v, t) ((v).sum().item<float>() > (t))
// graphify-entry: x: f32[4]
struct MacroInTernary : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = ABOVE(x, 0) ? x * 2 : x - 1;
    return y;
  }
};
#undef ABOVE
