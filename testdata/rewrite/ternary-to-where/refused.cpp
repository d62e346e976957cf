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

torch::Tensor different_tensors(torch::Tensor x, torch::Tensor a, torch::Tensor b) {
  return x.sum().item<float>() > 0 ? a : b; // EXPECT-NO-FIX: 'a' and 'b' are different tensors: their shapes and dtypes may differ
}

// The arms quoted as written at the macro's use, not as empty text.
#define PICK_ARM(c, t, f) ((c) ? (t) : (f))
torch::Tensor macro_arms(torch::Tensor x, torch::Tensor w) {
  return PICK_ARM(x.sum().item<float>() > 0, w * 2, x); // EXPECT-NO-FIX: 'w \* 2' is computed from 'w', and 'x' only from itself
}
