// A function the rule packs describe (here the user's own definition of torchvision's
// vision::ops::nms, tag greedy_suppression) is checked by its description, at the call: one
// finding where the region calls it, none inside its body, which is not a graph region even
// though the region reaches it. A helper the packs do not describe is still checked inside.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <vector>

namespace vision {
namespace ops {
inline at::Tensor nms(const at::Tensor &dets, const at::Tensor &scores, double iou_threshold) {
  auto order = std::get<1>(scores.sort(0, /*descending=*/true));
  std::vector<int64_t> kept;
  for (int64_t a = 0; a < order.size(0); ++a)
    if (scores[order[a].item<int64_t>()].item<double>() > iou_threshold)
      kept.push_back(a);
  return torch::tensor(kept);
}
} // namespace ops
} // namespace vision

inline int64_t best_row(const torch::Tensor &scores) { return scores.argmax().item<int64_t>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:79: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

GRAPHIFY_GRAPH_REGION torch::Tensor detect(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = vision::ops::nms(boxes, scores, 0.5);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'nms' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through; a static graph cannot hold it [graphify-dynamic-shape]
  return boxes.index_select(0, keep) * best_row(scores);
}
