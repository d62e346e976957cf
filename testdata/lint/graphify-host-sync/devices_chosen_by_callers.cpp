// A helper written for any device copies to host memory when every call the file can make passes
// the CPU (`postprocess(pred, torch::kCPU)`, a default argument): the copy is the finding, and
// the reads of the copy after it are not. A helper also called with a device, one given the
// device by non-const reference, and one whose address is taken keep their reads.
// RUN-ARGS: --checks=-*,graphify-host-sync --graph-region=detect --graph-region=detectEither --graph-region=detectByPointer
#include <torch/torch.h>

#include <vector>

namespace {

std::vector<float> scoresAbove(const torch::Tensor &pred, torch::Device device, float conf) {
  auto p = pred.to(device).contiguous();
// CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  std::vector<float> out;
  const float *d = p.data_ptr<float>();
  for (int64_t i = 0; i < p.size(0); i++)
    out.push_back(d[i] > conf ? d[i] : 0.f);
  return out;
}

float best(const torch::Tensor &pred, const torch::Device &device) { return pred.to(device).max().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:99: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

int64_t firstClass(const torch::Tensor &pred, torch::Device device = torch::kCPU) {
  auto h = pred.to(device);
// CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return h.argmax().item<int64_t>();
}

float mean(const torch::Tensor &pred, torch::Device &device) { return pred.to(device).mean().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:94: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

float sum(const torch::Tensor &pred, torch::Device device) { return pred.to(device).sum().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:91: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

} // namespace

std::vector<float> detect(const torch::Tensor &pred) {
  auto scores = scoresAbove(pred, torch::kCPU, 0.25f);
  scores.push_back(best(pred, torch::Device(torch::kCPU)));
  scores.push_back(static_cast<float>(firstClass(pred)));
  return scores;
}

float detectEither(const torch::Tensor &pred) {
  torch::Device cpu = torch::kCPU;
  return best(pred, torch::Device(torch::kCUDA)) + mean(pred, cpu);
}

float detectByPointer(const torch::Tensor &pred) {
  float (*f)(const torch::Tensor &, torch::Device) = sum;
  return f(pred, torch::kCPU) + sum(pred, torch::kCPU);
}
