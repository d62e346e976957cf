// ternary-to-where: host ternaries are not tensors selections.
#include "mock_torch.h"

torch::Tensor host(torch::Tensor x, bool flip) {
  float k = flip ? -1.0f : 1.0f;
  return flip ? x * k : x;
}
