// Box helpers defined in boxes.cpp and used by the detector in detector.cpp.
#pragma once
#include <torch/torch.h>

#include <vector>

torch::Tensor confident(const torch::Tensor &pred, double thresh);
torch::Tensor scaled(const torch::Tensor &boxes, double factor);

struct Tracks {
  torch::Tensor alive;
  std::vector<int64_t> ids;
  std::vector<float> last = std::vector<float>(4);
  void update(const torch::Tensor &pred);
  void admit(const torch::Tensor &scores);
  void remember(const torch::Tensor &scores);
};
