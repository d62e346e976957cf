// Found by the rewrite-soundness fuzzer (seed 106 --without f64,guarded-raise,ids-leaf,ifdef,
// macro-condition,nonzero-put,shadow-field, Case0): a host position read from a floating sum.
// host-position-to-device-index turns `x.abs().sum().item<int64_t>()` into
// `x.abs().sum().reshape({1}).to(torch::kLong)`. For NaN or an infinity, item<int64_t>() throws
// std::runtime_error ("value cannot be converted to type int64_t without overflow"); .to(kLong)
// gives INT64_MIN, and the index then throws c10::IndexError: another exception type.
// Fixed: refused unless the read tensor provably holds integers or booleans (isProvablyIntegral).
#include <torch/torch.h>

// graphify-entry: x: f32[5]
struct HostPositionNan : torch::nn::Module {
  torch::Tensor w = torch::linspace(-1.0, 1.0, 5);
  torch::Tensor forward(torch::Tensor x) {
    auto k = x.abs().sum().item<int64_t>();
    return x + w[k];
  }
};
