// Found by the rewrite-soundness fuzzer (2026-11-26, seed 1795716735, Case3; reduced by hand): a
// float read of a float64 tensor used in arithmetic. `x * t.max().item<float>()` multiplies by the
// maximum rounded to float32; `x * t.max()` multiplied by the float64 maximum, so every value
// differed in the last eight digits (the harness compares float64 results to 1e-9).
// Fixed: scalar-read-to-device keeps the read's conversion, `t.max().to(torch::kFloat)` (nothing
// for a float32 tensor; the float32 rounding for a float64 one).
#include <torch/torch.h>

// graphify-entry: x: f64[2,4]
struct Case0 : torch::nn::Module {
  torch::Tensor w = torch::linspace(-1.0, 1.0, 8).reshape({2, 4});
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor t = x.relu();
    x = (x / 2) * t.max().item<float>();
    return x.clamp(-2, 2) * x.min().item<float>() + w * x.abs().max().item<double>();
  }
};
