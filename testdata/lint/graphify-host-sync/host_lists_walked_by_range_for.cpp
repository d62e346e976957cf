// Per-image detections copied to the CPU into a local list, then walked with a range-based for,
// as batch post-processing does before filling the caller's results. Each element is a host
// tensor: reading it waits for no device (the copy did). A loop variable that rebinds an element
// (`d = d.cuda()`) may move it back, after which its reads are device reads again.
// RUN-ARGS: --graph-region=*
#include <torch/torch.h>

#include <vector>

float total_best_score(const torch::Tensor &dets, int64_t batch) {
  std::vector<torch::Tensor> per_image;
  for (int64_t b = 0; b < batch; ++b)
    per_image.push_back(dets[b].to(torch::kCPU));
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  float total = 0;
  for (const auto &d : per_image)
    total += d.select(1, 4).max().item<float>();
  for (torch::Tensor d : per_image)
    total += d[0][4].item<float>();
  return total + per_image[0][0][4].item<float>();
}

float moved_back(const torch::Tensor &dets, int64_t batch) {
  std::vector<torch::Tensor> per_image;
  for (int64_t b = 0; b < batch; ++b)
    per_image.push_back(dets[b].cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  for (auto &d : per_image)
    d = d.cuda();
  return per_image[0].max().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}
