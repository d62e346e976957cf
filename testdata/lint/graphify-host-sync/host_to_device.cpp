// Host-to-device copies inside a graph region: a tensor built in pageable host memory (from a
// std::vector, from_blob over host data, a factory given no device) and then moved to the device
// makes the copy synchronise with the host, which CUDA-graph capture forbids. Written the way
// detection decoders and box coders build their anchors and scales.
#include <torch/torch.h>

#include <vector>

struct BoxDecoder : torch::nn::Module {
  torch::Device device_ = torch::kCUDA;
  std::vector<float> strides_{8.f, 16.f, 32.f};
  torch::Tensor anchors_;  // built once on the device, outside forward: fine

  torch::Tensor forward(torch::Tensor boxes, torch::Tensor scores) {
    auto stride = torch::tensor(strides_).to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'to' copies a tensor built in host memory ('tensor', line 15) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    std::vector<float> scale = {0.1f, 0.1f, 0.2f, 0.2f};
    auto s = torch::from_blob(scale.data(), {4}, torch::kFloat);
    auto variances = s.to(boxes.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'to' copies a tensor built in host memory ('from_blob', line 18) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto grid = torch::arange(boxes.size(0)).to(torch::kFloat).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: 'cuda' copies a tensor built in host memory ('arange', line 21) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto offsets = torch::zeros({4}).to(boxes);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'to' copies a tensor built in host memory ('zeros', line 23) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]

    // Built on the device: no copy.
    auto on_device = torch::arange(boxes.size(0), boxes.options());
    auto ones = torch::ones({4}, torch::TensorOptions().device(device_)).to(torch::kFloat);
    // A dtype conversion stays in host memory; a tensor that is already on the device moves nowhere.
    auto host_only = torch::tensor(strides_).to(torch::kDouble);
    auto moved = scores.to(device_);
    // A static local is initialised on the first call only, which warm-up runs before capture.
    static const auto mean = torch::tensor({0.485f, 0.456f, 0.406f}).view({1, -1, 1, 1}).cuda();
    // Pinned memory copied with non_blocking=true is stream-ordered and can be captured.
    auto pinned = torch::tensor(strides_).pin_memory().to(device_, /*non_blocking=*/true);
    return boxes * stride.sum() + variances.sum() + grid.sum() + offsets.sum() + on_device.sum() + ones.sum() +
           host_only.sum().to(torch::kFloat) + moved.sum() + pinned.sum() + anchors_.sum() + mean.sum();
  }
};
