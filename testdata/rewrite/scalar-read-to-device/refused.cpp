// scalar-read-to-device: refused shapes.
#include "mock_torch.h"

torch::Tensor truncates(torch::Tensor x, torch::Tensor y) {
  return x * y.sum().item<int>(); // EXPECT-NO-FIX: converts to an integer on the host
}
