// host-position-to-device-index: positions that are not read from tensors stay as written.
#include <torch/torch.h>

torch::Tensor static_positions(torch::Tensor x, torch::Tensor idx) {
  auto a = x[0];
  auto b = x.select(1, x.size(1) - 1);
  auto c = x.index({idx.argmax()});
  return a + b + c;
}

float host_value(torch::Tensor x) {
  float s = x.sum().item<float>();
  return s * 2;
}
