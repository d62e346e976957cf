// ternary-to-where: refused shapes.
#include "mock_torch.h"

torch::Tensor helper(torch::Tensor x);

torch::Tensor impure(torch::Tensor x) {
  return x.sum().item<float>() > 0 ? helper(x) : x; // EXPECT-NO-FIX: the first arm calls 'helper'
}

torch::Tensor local_used_twice(torch::Tensor x) {
  float s = x.sum().item<float>(); // EXPECT-NO-FIX: 's' is also used at line 13
  torch::Tensor y = s > 0 ? x : -x; // EXPECT-NO-FIX: 's' is also used at line 13
  float twice = s * 2;
  return y * twice;
}
