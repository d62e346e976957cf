// Declarations for testdata/lint/graphify-host-sync/host_records.cpp: a segmentation node whose
// class and output struct are declared in a header of their own, as in ROS-style inference nodes.
#pragma once
#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace seg {

/// What the model returns, copied to the host field by field.
struct Outputs {
  torch::Tensor boxes, labels, scores, masks;
};

/// The same fields behind a method that may rebind them: not a plain record.
struct Tracked {
  torch::Tensor boxes;
  void refresh(const torch::Tensor &b) { boxes = b; }
};

struct Message {
  std::vector<float> scores;
  std::vector<std::array<float, 4>> boxes;
  std::vector<int64_t> areas;
};

class Node {
public:
  Message run(const torch::Tensor &frame);
  Outputs predict(const torch::Tensor &input);
  Message postprocess(Outputs &prediction, int64_t height, int64_t width);
  float largestOnDevice(const torch::Tensor &frame);
  float peak(const torch::Tensor &scores);

private:
  int64_t paste(const torch::Tensor &mask, const torch::Tensor &box, int64_t height);
  torch::Tensor weight_ = torch::ones({4, 4});
};

void rescale(Outputs &out);

} // namespace seg
