// Found by review (2026-11-29): a double read used beside an integer tensor. `ids * r` with a host
// double `r` computes in float32, the default dtype (an integer tensor times a floating number);
// scalar-read-to-device made `r` a float64 0-d tensor, which promotes the integer tensor to
// float64: the product kept the digits float32 rounds away (and the result changed dtype).
// Fixed: a double read stays a float64 0-d tensor only beside tensors proven floating-point
// (rewriter/lib/FloatingDtype.h); here `ids` is not, so the read is refused with the reason, and
// `x`'s read beside a softmax (floating whatever `x` is) is still rewritten.
#include <torch/torch.h>

// graphify-entry: x: f32[2,4], ids: i64[4] in [-1, 4]
struct F64ReadBesideInteger : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor ids) {
    auto spread = ids * x.abs().max().item<double>();
    auto p = torch::softmax(x, 1) * x.abs().mean().item<double>();
    return spread + p.sum();
  }
};
