// RUN-ARGS: --graph-region=read_line
#include "recognizer.h"

torch::Tensor ModelBase::to_input(const std::vector<float> &pixels, int64_t h, int64_t w) {
  auto t = torch::from_blob(const_cast<float *>(pixels.data()), {h, w}, torch::kFloat);
  return t.unsqueeze(0).to(device); // CHECK-MESSAGES: :[[@LINE]]:25: warning: 'to' copies a tensor built in host memory ('from_blob', line 5) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
}

std::vector<uint8_t> ModelBase::to_bytes(const torch::Tensor &t) {
  auto h = t.to(torch::kU8).to(torch::kCPU); // CHECK-MESSAGES: :[[@LINE]]:29: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return std::vector<uint8_t>(h.data_ptr<uint8_t>(), h.data_ptr<uint8_t>() + h.numel());
}
