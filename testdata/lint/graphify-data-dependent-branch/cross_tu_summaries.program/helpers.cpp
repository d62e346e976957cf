// Helpers called from the forward in model.cpp: region code, though no forward is written here.
#include "helpers.h"

float peak(const torch::Tensor &x) { return x.abs().max().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:59: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
// CHECK-NOTES: :[[@LINE-2]]:59: note: value read from tensor here

void readStats(const torch::Tensor &x, float &out) { out = x.mean().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:69: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
// CHECK-NOTES: :[[@LINE-2]]:54: note: assigned to 'out' here
// CHECK-NOTES: :[[@LINE-3]]:69: note: value read from tensor here

int64_t scaled(int64_t n) { return n * 2; }

// Called only from the training loop: not a graph region, not reported.
void trainingOnly(const torch::Tensor &x) {
  if (x.sum().item<float>() > 0)
    std::cout << "positive\n";
}
