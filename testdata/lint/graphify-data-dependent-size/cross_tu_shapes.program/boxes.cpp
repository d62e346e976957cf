// The selection is made here, a translation unit away from the forward that reads its size.
#include "boxes.h"

torch::Tensor confident(const torch::Tensor &pred, double thresh) {
  return pred.index({pred.select(1, 4) > thresh});
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
}

torch::Tensor scaled(const torch::Tensor &boxes, double factor) { return boxes * factor; }

void Tracks::update(const torch::Tensor &pred) { alive = confident(pred, 0.5); }
