// Frame conversion helpers defined in frames.cpp and used by infer.cpp's graph region: the
// whole-program summaries say which of them return a tensor in pageable host memory.
#pragma once
#include <graphify/annotations.h>
#include <torch/torch.h>

struct Frame {
  float *pixels;
  int64_t rows, cols;
};

torch::Tensor to_tensor(const Frame &f);                      // a host copy of the pixels
torch::Tensor to_device(const Frame &f, torch::Device device); // already on the device
torch::Tensor staged(const Frame &f, bool pinned);            // pinned on one path
