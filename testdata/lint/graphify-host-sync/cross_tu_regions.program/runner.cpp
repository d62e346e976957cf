// The graph region of the program: an annotated function. What it calls in other translation
// units is region code there.
#include "model.h"

GRAPHIFY_GRAPH_REGION torch::Tensor run(torch::Tensor x, Calibration &c) {
  step(x);
  int64_t n = x.sum().item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  // CHECK-NOTES: :[[@LINE-2]]:11: note: assigned to 'n' here
  // CHECK-NOTES: :[[@LINE-3]]:23: note: value read from tensor here
  auto y = grow(x, n);
  // CHECK-NOTES: :[[@LINE-1]]:20: note: passed to 'grow' as 'n' here
  return c.apply(y);
}
