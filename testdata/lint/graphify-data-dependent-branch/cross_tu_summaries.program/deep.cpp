// The end of the chain: the read happens here, two translation units away from the forward.
#include "helpers.h"

float deep(const torch::Tensor &x) { return x.max().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
// CHECK-NOTES: :[[@LINE-2]]:53: note: value read from tensor here
