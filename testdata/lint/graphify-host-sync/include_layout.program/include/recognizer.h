// A project laid out as include/ + src/: the class is declared in include/, which is not under the
// directory of the linted sources; its methods are defined in another translation unit.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <vector>

struct ModelBase {
  torch::Device device{torch::kCUDA};
  torch::Tensor to_input(const std::vector<float> &pixels, int64_t h, int64_t w);
  std::vector<uint8_t> to_bytes(const torch::Tensor &t);
};

struct Recognizer : ModelBase {
  size_t run(const std::vector<float> &pixels);
};
