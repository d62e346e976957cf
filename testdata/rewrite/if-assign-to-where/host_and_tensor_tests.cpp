// if-assign-to-where: a condition that joins a host flag with a test of a value read from a
// tensor keeps the flag on the host; it picks the tensor test or a constant 0-d mask.
#include "mock_torch.h"

torch::Tensor clip_if_enabled(torch::Tensor x, torch::Tensor y, bool enabled) {
  if (enabled && x.sum().item<float>() > 1.0f)
    y = y * 0.5;
  return y;
}

torch::Tensor clip_unless_forced(torch::Tensor x, torch::Tensor y, bool forced) {
  if (forced || x.sum().item<float>() > 1.0f)
    y = y * 0.5;
  return y;
}

torch::Tensor both_host(torch::Tensor x, torch::Tensor y, int a, int b) {
  if (a > 0 && b > 0 && x.sum().item<float>() > 1.0f)
    y = y * 0.5;
  return y;
}

// A number a host object gives without an effect (a const method) is compared as a variable is.
struct Limits {
  float high;
  float threshold() const { return high; }
};

torch::Tensor reads_const_method(torch::Tensor x, torch::Tensor y, const Limits &limits) {
  if (x.sum().item<float>() > limits.threshold())
    y = y * 2;
  return y;
}

// Host arithmetic of values not read from tensors is an operand like a variable.
torch::Tensor host_arithmetic(torch::Tensor x, torch::Tensor y, int64_t n) {
  if (x.sum().item<float>() > n - 1)
    y = y * 2;
  return y;
}
