// Found by the rewrite-soundness fuzzer (seed 1 --without f64,guarded-raise,host-read,ifdef,
// int-read,macro-condition,nonzero-put,shadow-field,two-rows, Case2; seed 2, Case0 and Case5):
// two if/else statements in one block that each assign two variables. if-assign-to-where names
// each lifted condition `cond` and does not see the name the other fix introduces:
//   auto cond = x.sum() > 0; ... auto cond = x.max() > 1;
// does not compile ("conflicting declaration"), so the compile gate refuses every fix of the file.
// Fixed: fresh names are unique across the fixes of a function (rewriter/lib/FreshNames.h).
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct TwoConditionsNamedCond : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor a = x;
    torch::Tensor b = x;
    if (x.sum().item<float>() > 0) {
      a = x * 2;
    } else {
      b = x * 3;
    }
    if (x.max().item<float>() > 1) {
      a = a + 1;
    } else {
      b = b - 1;
    }
    return a + b;
  }
};
