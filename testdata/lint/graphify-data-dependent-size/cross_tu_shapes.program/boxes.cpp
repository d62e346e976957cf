// The selection is made here, a translation unit away from the forward that reads its size.
#include "boxes.h"

torch::Tensor confident(const torch::Tensor &pred, double thresh) {
  return pred.index({pred.select(1, 4) > thresh});
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
}

torch::Tensor scaled(const torch::Tensor &boxes, double factor) { return boxes * factor; }

void Tracks::update(const torch::Tensor &pred) { alive = confident(pred, 0.5); }

// How many ids there are follows the scores; what `last` holds does, its length does not.
void Tracks::admit(const torch::Tensor &scores) {
  for (int64_t i = 0; i < 8; ++i)
    if (scores[i].item<float>() > 0.5f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:19: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      ids.push_back(i);
      // CHECK-NOTES: :[[@LINE-1]]:11: note: the length of 'ids' follows tensor data from here
}

void Tracks::remember(const torch::Tensor &scores) { last[0] = scores[0].item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:74: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
