// if-assign-to-where: a condition that joins a host flag with a test of a value read from a
// tensor keeps the flag on the host; it picks the tensor test or a constant 0-d mask.
#include "mock_torch.h"

torch::Tensor clip_if_enabled(torch::Tensor x, torch::Tensor y, bool enabled) {
  y = torch::where((enabled
                        ? x.sum() > 1.0f
                        : torch::zeros({}, x.options().dtype(torch::kBool))),
                   y * 0.5, y);
  return y;
}

torch::Tensor clip_unless_forced(torch::Tensor x, torch::Tensor y, bool forced) {
  y = torch::where((forced ? torch::ones({}, x.options().dtype(torch::kBool))
                           : x.sum() > 1.0f),
                   y * 0.5, y);
  return y;
}

torch::Tensor both_host(torch::Tensor x, torch::Tensor y, int a, int b) {
  y = torch::where((a > 0 && b > 0
                        ? x.sum() > 1.0f
                        : torch::zeros({}, x.options().dtype(torch::kBool))),
                   y * 0.5, y);
  return y;
}

// A number a host object gives without an effect (a const method) is compared as a variable is.
struct Limits {
  float high;
  float threshold() const { return high; }
};

torch::Tensor reads_const_method(torch::Tensor x, torch::Tensor y, const Limits &limits) {
  y = torch::where(x.sum() > limits.threshold(), y * 2, y);
  return y;
}

// Host arithmetic of values not read from tensors is an operand like a variable.
torch::Tensor host_arithmetic(torch::Tensor x, torch::Tensor y, int64_t n) {
  y = torch::where(x.sum() > n - 1, y * 2, y);
  return y;
}
