// A rewrite that keeps every output and changes the gradients. The branch takes exp only while it
// cannot overflow, but `torch::where(c, x.exp() * scale, x * scale)` evaluates both arms: where exp(x) is
// inf (x > 88.7 in f32) the unselected arm's gradient is 0 * exp(x) * scale = 0 * inf = NaN. exp has no
// restricted domain (the rule pack does not tag it domain_restricted: its failure is overflow, not
// an input outside its domain), so the rewriter does not guard its input, and only the gradient
// check sees the difference. With a parameter, the check runs without --grad.
#include <torch/torch.h>

// graphify-entry: x: f32[8] in [-100, 100]
struct ExpWhileSmall : torch::nn::Module {
  ExpWhileSmall() : scale(register_parameter("scale", torch::full({1}, 0.5))) {}

  torch::Tensor forward(torch::Tensor x) {
    if (x.max().item<float>() < 50) {
      return x.exp() * scale;
    }
    return x * scale;
  }

  torch::Tensor scale;
};
