// scalar-read-to-device against the real LibTorch headers.
#include <torch/torch.h>

torch::Tensor scale(torch::Tensor x, torch::Tensor y) { return x * y.max().item<float>(); }

torch::Tensor shift(torch::Tensor x) {
  auto centered = x - x.mean().item<double>(); // EXPECT-NO-FIX: 'x.mean\(\).item<double>\(\)' is a double and 'x' is not known to be floating-point: as a float64 0-d tensor the read would make an integer 'x' compute in float64
  return centered / x.abs().max().item<float>();
}

// Beside tensors proven floating-point (a softmax, a conversion to float), a double read keeps its
// precision as a float64 0-d tensor: both compute in the tensor's dtype, as the host number did.
torch::Tensor shift_probabilities(torch::Tensor x) {
  auto p = torch::softmax(x, 1) - x.mean().item<double>();
  return p + x.to(torch::kFloat) * x.abs().max().item<double>();
}

// A dtype argument decides: converted to an integer type, the value is not floating-point any more.
torch::Tensor rounded_scale(torch::Tensor x) {
  return x.exp().toType(torch::kLong) * x.max().item<double>(); // EXPECT-NO-FIX: 'x.exp\(\).toType\(torch::kLong\)' is not known to be floating-point
}

torch::Tensor widened_scale(torch::Tensor x) { return x.toType(torch::kDouble) * x.max().item<double>(); }
