// if-return-to-where against the real LibTorch headers.
#include <torch/torch.h>

// Seed 002: an early return on a reduction read back to the host.
torch::Tensor early_return(torch::Tensor x) {
  if (x.sum().item<float>() > 0) {
    return x * 2;
  }
  return x + 2;
}

torch::Tensor if_else_return(torch::Tensor x, torch::Tensor y) {
  if (x.max().item<float>() < 0.5)
    return x * y;
  else
    return x - y;
}

torch::Tensor else_if_chain(torch::Tensor x) {
  auto s = x.sum();
  if (s.item<float>() > 1) {
    return x * 2;
  } else if (s.item<float>() < -1) {
    return -x;
  } else {
    return x + 1;
  }
}

torch::Tensor through_local(torch::Tensor x) {
  float m = x.mean().item<float>();
  if (m > 0)
    return x.relu();
  return x.abs();
}

torch::Tensor connectives(torch::Tensor x, torch::Tensor y) {
  if (x.all().item<bool>() || !(y.sum().item<float>() > 0))
    return x + y;
  return x - y;
}
