// Box helpers defined in boxes.cpp and used by the detector in detector.cpp.
#pragma once
#include <torch/torch.h>

torch::Tensor confident(const torch::Tensor &pred, double thresh);
torch::Tensor scaled(const torch::Tensor &boxes, double factor);

struct Tracks {
  torch::Tensor alive;
  void update(const torch::Tensor &pred);
};
