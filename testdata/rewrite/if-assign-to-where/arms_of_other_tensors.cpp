// if-assign-to-where: where() broadcasts its arms to one shape and promotes them to one dtype,
// where the original kept whichever arm ran. Arms computed element-wise from the same tensors
// have one shape; arms from different tensors (parameters, fields) may not, and are refused.
// The value a one-armed if keeps is the one that reaches it (`r = x;` before the if).
#include "mock_torch.h"

struct Scaled {
  torch::Tensor w;

  torch::Tensor field_or_input(torch::Tensor x) {
    torch::Tensor r = x;
    if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: 'w \* 2' is computed from 'w' and 'r' from 'x'
      r = w * 2;
    }
    return r;
  }
};

torch::Tensor other_input(torch::Tensor x, torch::Tensor y) {
  torch::Tensor r = x;
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: 'y \* 2' is computed from 'y' and 'r' from 'x'
    r = y * 2;
  }
  return r;
}

torch::Tensor both_arms(torch::Tensor x, torch::Tensor y) {
  torch::Tensor r;
  if (x.mean().item<float>() > 0) { // EXPECT-NO-FIX: 'x \+ y' is computed from 'x' and 'y', and 'x' only from itself
    r = x + y;
  } else {
    r = x;
  }
  return r;
}

// The same tensors on both sides, through locals and the value that reaches the if.
torch::Tensor same_tensors(torch::Tensor x, torch::Tensor y) {
  auto base = x * y;
  torch::Tensor r = base.relu();
  r = r + 1;
  if (x.sum().item<float>() > 0) {
    r = (x - y).abs();
  }
  return r;
}
