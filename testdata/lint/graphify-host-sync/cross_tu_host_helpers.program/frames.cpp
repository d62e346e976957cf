// Conversions called from infer.cpp's region, so region code too: building a host tensor is no
// blocker, copying one to the device is.
#include "frames.h"

torch::Tensor to_tensor(const Frame &f) {
  return torch::from_blob(f.pixels, {f.rows, f.cols}, torch::kFloat).clone();
}

torch::Tensor to_device(const Frame &f, torch::Device device) {
  return torch::from_blob(f.pixels, {f.rows, f.cols}, torch::kFloat).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:70: warning: 'to' copies a tensor built in host memory ('from_blob', line 10) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
}

torch::Tensor staged(const Frame &f, bool pinned) {
  auto t = torch::from_blob(f.pixels, {f.rows, f.cols}, torch::kFloat);
  if (pinned)
    return t.pin_memory();
  return t.clone();
}
