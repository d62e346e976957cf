// Found by the rewrite-soundness fuzzer (seed 107 --without f64,guarded-raise,ids-leaf,ifdef,
// macro-condition,nonzero-put,shadow-field, Case1): two branches in one block that each declare a
// local `t`. Each fix hoists its `t` and renames it away from the names in the source, but not
// from the name the other fix picks: both become the same fresh name, the second declaration does
// not compile, and the compile gate refuses every fix of the file.
// (Both become `auto t2`.)
// Fixed: fresh names are unique across the fixes of a function (rewriter/lib/FreshNames.h).
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct TwoHoistedLocalsSameName : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor v = x;
    if (x.sum().item<float>() > 0) {
      auto t = x * 2;
      v = t + 1;
    }
    if (x.max().item<float>() > 1) {
      auto t = x / 2;
      v = v - t;
    }
    return v;
  }
};
