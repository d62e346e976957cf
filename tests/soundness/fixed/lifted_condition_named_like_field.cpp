// Found by the rewrite-soundness fuzzer (seed 6, Case0): a field named `cond`. if-assign-to-where
// stores the lifted condition in `auto cond` when both arms assign; the function's later read of
// the field this->cond now reads that 0-d bool tensor, and the result changes. In seed 6 the
// condition itself read the field (`auto cond = (x * cond.min()...)...`), which does not compile
// ("use of 'cond' before deduction of 'auto'"), so the compile gate refused every fix.
#include <torch/torch.h>

// graphify-entry: x: f32[4]
struct LiftedConditionNamedLikeField : torch::nn::Module {
  torch::Tensor cond = torch::linspace(-0.5, 1.0, 4);
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor a = x;
    torch::Tensor b = x;
    if (x.sum().item<float>() > 0) {
      a = x * 2;
    } else {
      b = x * 3;
    }
    return a + b + cond;
  }
};
