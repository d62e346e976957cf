// selection-to-padded: greedy non-maximum suppression (tag greedy_suppression) becomes its exact
// fixed-size form: the N candidates sorted by score once, the N x N IoU matrix, N masked
// iterations; the kept indices padded to N (kept first, in visiting order) with their count.
// Gathers by them keep the padding: rows of the boxes' own selection line up, other tensors are
// checked to have a row for every box.
#include <torch/torch.h>

namespace vision {
namespace ops {
at::Tensor nms(const at::Tensor &dets, const at::Tensor &scores, double iou_threshold);
} // namespace ops
} // namespace vision

torch::Tensor kept_labels(torch::Tensor boxes, torch::Tensor scores, torch::Tensor labels, double iou) {
  auto keep = vision::ops::nms(boxes, scores, iou);
  return labels.index_select(0, keep);
}

std::tuple<torch::Tensor, torch::Tensor> filtered_nms(torch::Tensor boxes, torch::Tensor scores) {
  auto confident = scores > 0.05;
  auto b = boxes.index({confident});
  auto s = scores.index({confident});
  auto keep = vision::ops::nms(b, s, 0.5);
  return {b.index({keep}), s.index_select(0, keep)};
}

// NMS inside a gather: the call is computed another way than written, and the gather around it
// stays in range.
torch::Tensor nms_inline(torch::Tensor boxes, torch::Tensor scores) {
  return boxes.index_select(0, vision::ops::nms(boxes, scores, 0.5));
}

// Batched NMS by class offsets: the largest coordinate of the selected boxes, after the test for
// none, is the maximum over the padded rows with copies of the first selected row in the others'
// place.
torch::Tensor batched_by_offset(torch::Tensor boxes, torch::Tensor scores, torch::Tensor labels, double iou) {
  auto confident = scores > 0.05;
  auto b = boxes.index({confident});
  auto s = scores.index({confident});
  auto l = labels.index({confident});
  if (!b.size(0))
    return torch::zeros({0, 4});
  auto max_coordinate = b.max();
  auto offsets = l.to(b.dtype()) * (max_coordinate + 1);
  auto keep = vision::ops::nms(b + offsets.unsqueeze(1), s, iou);
  return b.index_select(0, keep);
}
