// selection-to-padded: a project's own function that writes out torchvision's CPU NMS kernel
// (data_ptr loops over the sorted candidates, a suppressed flag per box, the IoU with std::max and
// std::min) is recognized by its structure and arithmetic (SuppressionKernel.h) and means what
// vision::ops::nms means: the call becomes the exact fixed-size greedy form, with the kernel's own
// stable sort when every box is a candidate, the boxes checked to hold its element type, and the
// threshold converted to its parameter's type first, as the call did. The kernel is in a header,
// as projects keep it; its body is host code that no region here runs.
#include "greedy_nms_kernel.h"

#include <torch/torch.h>

// Boxes filtered by score first: the candidates are padded rows, sorted stably.
std::tuple<torch::Tensor, torch::Tensor> detections(torch::Tensor boxes, torch::Tensor scores) {
  auto confident = scores > 0.25;
  auto b = boxes.index({confident});
  auto s = scores.index({confident});
  auto keep = greedy_nms(b, s, 0.45);
  return {b.index_select(0, keep), s.index_select(0, keep)};
}

// Every box a candidate: the kernel's own sort.
torch::Tensor all_kept(torch::Tensor boxes, torch::Tensor scores, float iou) {
  return boxes.index_select(0, greedy_nms(boxes, scores, iou));
}

// The kernel as a method, called on a named object: the call's arguments are the kernel's.
torch::Tensor kept_by_method(const Suppressor &suppressor, torch::Tensor boxes, torch::Tensor scores) {
  auto keep = suppressor.keep(boxes, scores, 0.45);
  return boxes.index_select(0, keep);
}

// torchvision's layout, a kernel template behind a dtype dispatch: the boxes are checked to hold
// one of the dtypes the dispatch takes.
torch::Tensor kept_by_dispatch(torch::Tensor boxes, torch::Tensor scores) {
  return boxes.index_select(0, greedy_nms_dispatch(boxes, scores, 0.5));
}
