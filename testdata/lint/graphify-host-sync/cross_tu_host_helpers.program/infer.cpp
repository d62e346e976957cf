// The graph region: copies to the device of what frames.cpp's helpers return. Only the helper
// whose every return is a tensor in pageable host memory makes its copy a blocker.
#include "frames.h"

GRAPHIFY_GRAPH_REGION torch::Tensor infer(const Frame &f, torch::Tensor weights) {
  auto direct = to_tensor(f).to(weights.device());
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'to' copies a tensor that 'to_tensor' (line 6) returns in host memory to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  auto held = to_tensor(f);
  auto later = held.to(weights.device());
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'to' copies a tensor that 'to_tensor' (line 8) returns in host memory to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  auto on_device = to_device(f, weights.device());
  auto maybe_pinned = staged(f, true).to(weights.device(), /*non_blocking=*/true);
  return (direct + later + on_device + maybe_pinned) * weights;
}
