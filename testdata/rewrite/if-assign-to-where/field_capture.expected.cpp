// if-assign-to-where: a branch local hoisted in front of the code that reads a field of the same
// name through the implicit `this` would capture it; the hoisted local is renamed instead.
#include "mock_torch.h"

struct Gate {
  torch::Tensor h;
  torch::Tensor bias;

  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = x;
    auto h2 = x * 2;
    y = torch::where(x.sum() > 0, h2 + 1, y);
    return y + h;
  }

  torch::Tensor field_read_in_other_branch(torch::Tensor x) {
    torch::Tensor y = x;
    auto bias2 = x * 3;
    y = torch::where(x.sum() > 0, bias2 - 1, x * bias.sum());
    return y;
  }
};

torch::Tensor offset;

torch::Tensor global_read_after(torch::Tensor x) {
  torch::Tensor y = x;
  auto offset2 = x * 2;
  y = torch::where(x.sum() > 0, offset2 + 1, y);
  return y + offset;
}
