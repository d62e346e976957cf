// A head that picks the top boxes of each image with a batch index built on the host
// (`torch::arange(b)` given no device): indexing a device tensor with it copies the indices to the
// device first, a copy from pageable memory. Indices built with the tensor's options, and host
// tensors indexed with host indices, copy nothing.
// RUN-ARGS: --checks=-*,graphify-host-sync --graph-region=gatherTop
#include <torch/torch.h>

torch::Tensor gatherTop(const torch::Tensor &boxes, const torch::Tensor &scores, int64_t k) {
  auto b = boxes.size(0);
  auto top = std::get<1>(scores.topk(k, -1));
  auto batch = torch::arange(b).view({-1, 1}).to(torch::kLong);
  auto picked = boxes.index({batch, top});
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'index' takes indices built in host memory ('arange', line 11), which it copies to the device first; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  auto rows = torch::arange(b, boxes.options().dtype(torch::kLong)).view({-1, 1});
  auto onDevice = boxes.index({rows, top});
  auto host = boxes.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto onHost = host.index({torch::arange(b)});
  auto cols = torch::tensor({0, 2});
  auto sliced = boxes.index({torch::indexing::Slice(), torch::indexing::Slice(), cols});
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'index' takes indices built in host memory ('tensor', line 19), which it copies to the device first; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  return picked + onDevice + onHost.sum() + sliced.sum();
}
