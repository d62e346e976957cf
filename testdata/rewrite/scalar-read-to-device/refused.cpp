// scalar-read-to-device: refused shapes.
#include "mock_torch.h"

torch::Tensor not_single(torch::Tensor x, torch::Tensor y) {
  return x * y.item<float>(); // EXPECT-NO-FIX: cannot prove that 'y' has a single element
}

torch::Tensor truncates(torch::Tensor x, torch::Tensor y) {
  return x * y.sum().item<int>(); // EXPECT-NO-FIX: converts to an integer on the host
}
