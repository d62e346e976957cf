// scalar-read-to-device: reads of tensors not proven to hold one element (parameters of unknown
// shape). The read becomes the tensor reshaped to 0-d: it throws where item() would (on any
// other element count), and the arithmetic does not broadcast with it as it would with a
// one-element tensor of rank 1 (a 0-d 'x' times a '[1]' 'y' is '[1]', times 'y.reshape({})' 0-d).
#include "mock_torch.h"

torch::Tensor scale_by(torch::Tensor x, torch::Tensor y) {
  return x * y.reshape({}).to(torch::kFloat);
}

torch::Tensor scale_local(torch::Tensor x, torch::Tensor y) {
  auto s = y.reshape({}).to(torch::kFloat);
  return x * s;
}

// A computed receiver is parenthesised before it is reshaped.
torch::Tensor scale_by_difference(torch::Tensor x, torch::Tensor a, torch::Tensor b) {
  return x / (a - b).reshape({}).to(torch::kFloat);
}
