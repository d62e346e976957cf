// Found by the rewrite-soundness fuzzer (seed 1, Case1): a condition macro as an operand of &&
// in a ternary. The lifted condition loses the macro's text: --fix produces
//   torch::where((torch::logical_and(>, x.max() >= 0.5)), (x * 2), x)
// which does not compile, so the compile gate refuses every fix of the file.
#include <torch/torch.h>

#define ABOVE_ONE(v) ((v).min().item<float>() > 1)
// graphify-entry: x: f32[4]
struct MacroOperandOfLogicalAnd : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto r = ((ABOVE_ONE(torch::tanh(x)) && x.max().item<float>() >= 0.5) ? (x * 2) : x);
    return r;
  }
};
#undef ABOVE_ONE
