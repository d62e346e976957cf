// if-assign-to-where: a branch local hoisted in front of the code that reads a field of the same
// name through the implicit `this` would capture it; the hoisted local is renamed instead.
#include "mock_torch.h"

struct Gate {
  torch::Tensor h;
  torch::Tensor bias;

  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = x;
    if (x.sum().item<float>() > 0) {
      auto h = x * 2;
      y = h + 1;
    }
    return y + h;
  }

  torch::Tensor field_read_in_other_branch(torch::Tensor x) {
    torch::Tensor y = x;
    if (x.sum().item<float>() > 0) {
      auto bias = x * 3;
      y = bias - 1;
    } else {
      y = x * bias.sum();
    }
    return y;
  }
};

torch::Tensor offset;

torch::Tensor global_read_after(torch::Tensor x) {
  torch::Tensor y = x;
  if (x.sum().item<float>() > 0) {
    auto offset = x * 2;
    y = offset + 1;
  }
  return y + offset;
}
