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
static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
detections_padded(torch::Tensor boxes, torch::Tensor scores) {
  auto confident = scores > 0.25;
  auto b_valid = confident;
  if (b_valid.dim() != 1 || b_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 15 assumes a one-dimensional mask "
        "with one element per row");
  auto b_order = torch::argsort(torch::logical_not(b_valid).to(torch::kInt),
                                /*stable=*/true, 0);
  auto b_count = b_valid.sum();
  auto b = boxes.index_select(0, b_order);
  auto s = scores.index_select(0, b_order);
  if (b.dim() != 2 || b.size(1) < 4 || s.dim() != 1 || s.size(0) != b.size(0) ||
      b.scalar_type() != torch::kFloat)
    throw std::invalid_argument(
        "graphify: the fixed-size form of greedy_nms (line 17) expects boxes "
        "[N, 4 or more] of float and scores [N]");
  auto keep_by_score =
      std::get<1>(s.sort(/*stable=*/true, 0, /*descending=*/true));
  auto keep_sorted = b.index_select(0, keep_by_score);
  auto keep_x1 = keep_sorted.select(1, 0);
  auto keep_y1 = keep_sorted.select(1, 1);
  auto keep_x2 = keep_sorted.select(1, 2);
  auto keep_y2 = keep_sorted.select(1, 3);
  auto keep_area = (keep_x2 - keep_x1) * (keep_y2 - keep_y1);
  auto keep_w = (torch::where(keep_x2.unsqueeze(0) < keep_x2.unsqueeze(1),
                              keep_x2.unsqueeze(0), keep_x2.unsqueeze(1)) -
                 torch::where(keep_x1.unsqueeze(1) < keep_x1.unsqueeze(0),
                              keep_x1.unsqueeze(0), keep_x1.unsqueeze(1)));
  keep_w = torch::where(keep_w > 0, keep_w, 0);
  auto keep_h = (torch::where(keep_y2.unsqueeze(0) < keep_y2.unsqueeze(1),
                              keep_y2.unsqueeze(0), keep_y2.unsqueeze(1)) -
                 torch::where(keep_y1.unsqueeze(1) < keep_y1.unsqueeze(0),
                              keep_y1.unsqueeze(0), keep_y1.unsqueeze(1)));
  keep_h = torch::where(keep_h > 0, keep_h, 0);
  auto keep_inter = keep_w * keep_h;
  auto keep_iou = keep_inter / (keep_area.unsqueeze(1) +
                                keep_area.unsqueeze(0) - keep_inter);
  auto keep_rank = torch::arange(b.size(0), keep_by_score.options());
  auto keep_suppresses =
      torch::logical_and(keep_iou.to(torch::kDouble) > static_cast<float>(0.45),
                         keep_rank.unsqueeze(0) > keep_rank.unsqueeze(1));
  auto keep_alive =
      (torch::arange(b.size(0), keep_by_score.options()) < b_count)
          .index_select(0, keep_by_score);
  for (int64_t keep_i = 0; keep_i < b.size(0); ++keep_i)
    keep_alive = torch::logical_and(
        keep_alive,
        torch::logical_not(torch::logical_and(keep_suppresses.select(0, keep_i),
                                              keep_alive.select(0, keep_i))));
  auto keep_order = torch::argsort(
      torch::logical_not(keep_alive).to(torch::kInt), /*stable=*/true, 0);
  auto keep_count = keep_alive.sum();
  auto keep = keep_by_score.index_select(0, keep_order);
  return std::make_tuple(b.index_select(0, keep), s.index_select(0, keep),
                         keep_count);
}

/// graphify: host epilogue of 'detections_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
std::tuple<torch::Tensor, torch::Tensor> detections(torch::Tensor boxes,
                                                    torch::Tensor scores) {
  auto padded = detections_padded(boxes, scores);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  return {std::get<0>(padded).narrow(0, 0, rows),
          std::get<1>(padded).narrow(0, 0, rows)};
}

// Every box a candidate: the kernel's own sort.
static std::tuple<torch::Tensor, torch::Tensor>
all_kept_padded(torch::Tensor boxes, torch::Tensor scores, float iou) {
  if (boxes.dim() != 2 || boxes.size(1) < 4 || scores.dim() != 1 ||
      scores.size(0) != boxes.size(0) || boxes.scalar_type() != torch::kFloat)
    throw std::invalid_argument(
        "graphify: the fixed-size form of greedy_nms (line 23) expects boxes "
        "[N, 4 or more] of float and scores [N]");
  auto kept_by_score =
      std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true));
  auto kept_sorted = boxes.index_select(0, kept_by_score);
  auto kept_x1 = kept_sorted.select(1, 0);
  auto kept_y1 = kept_sorted.select(1, 1);
  auto kept_x2 = kept_sorted.select(1, 2);
  auto kept_y2 = kept_sorted.select(1, 3);
  auto kept_area = (kept_x2 - kept_x1) * (kept_y2 - kept_y1);
  auto kept_w = (torch::where(kept_x2.unsqueeze(0) < kept_x2.unsqueeze(1),
                              kept_x2.unsqueeze(0), kept_x2.unsqueeze(1)) -
                 torch::where(kept_x1.unsqueeze(1) < kept_x1.unsqueeze(0),
                              kept_x1.unsqueeze(0), kept_x1.unsqueeze(1)));
  kept_w = torch::where(kept_w > 0, kept_w, 0);
  auto kept_h = (torch::where(kept_y2.unsqueeze(0) < kept_y2.unsqueeze(1),
                              kept_y2.unsqueeze(0), kept_y2.unsqueeze(1)) -
                 torch::where(kept_y1.unsqueeze(1) < kept_y1.unsqueeze(0),
                              kept_y1.unsqueeze(0), kept_y1.unsqueeze(1)));
  kept_h = torch::where(kept_h > 0, kept_h, 0);
  auto kept_inter = kept_w * kept_h;
  auto kept_iou = kept_inter / (kept_area.unsqueeze(1) +
                                kept_area.unsqueeze(0) - kept_inter);
  auto kept_rank = torch::arange(boxes.size(0), kept_by_score.options());
  auto kept_suppresses =
      torch::logical_and(kept_iou.to(torch::kDouble) > iou,
                         kept_rank.unsqueeze(0) > kept_rank.unsqueeze(1));
  auto kept_alive = kept_rank >= 0;
  for (int64_t kept_i = 0; kept_i < boxes.size(0); ++kept_i)
    kept_alive = torch::logical_and(
        kept_alive,
        torch::logical_not(torch::logical_and(kept_suppresses.select(0, kept_i),
                                              kept_alive.select(0, kept_i))));
  auto kept_order = torch::argsort(
      torch::logical_not(kept_alive).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_alive.sum();
  return std::make_tuple(
      boxes.index_select(0, kept_by_score.index_select(0, kept_order)),
      kept_count);
}

/// graphify: host epilogue of 'all_kept_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor all_kept(torch::Tensor boxes, torch::Tensor scores, float iou) {
  auto padded = all_kept_padded(boxes, scores, iou);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// The kernel as a method, called on a named object: the call's arguments are the kernel's.
static std::tuple<torch::Tensor, torch::Tensor>
kept_by_method_padded(const Suppressor &suppressor, torch::Tensor boxes,
                      torch::Tensor scores) {
  if (boxes.dim() != 2 || boxes.size(1) < 4 || scores.dim() != 1 ||
      scores.size(0) != boxes.size(0) || boxes.scalar_type() != torch::kFloat)
    throw std::invalid_argument(
        "graphify: the fixed-size form of keep (line 28) expects boxes [N, 4 "
        "or more] of float and scores [N]");
  auto keep_by_score =
      std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true));
  auto keep_sorted = boxes.index_select(0, keep_by_score);
  auto keep_x1 = keep_sorted.select(1, 0);
  auto keep_y1 = keep_sorted.select(1, 1);
  auto keep_x2 = keep_sorted.select(1, 2);
  auto keep_y2 = keep_sorted.select(1, 3);
  auto keep_area = (keep_x2 - keep_x1) * (keep_y2 - keep_y1);
  auto keep_w = (torch::where(keep_x2.unsqueeze(0) < keep_x2.unsqueeze(1),
                              keep_x2.unsqueeze(0), keep_x2.unsqueeze(1)) -
                 torch::where(keep_x1.unsqueeze(1) < keep_x1.unsqueeze(0),
                              keep_x1.unsqueeze(0), keep_x1.unsqueeze(1)));
  keep_w = torch::where(keep_w > 0, keep_w, 0);
  auto keep_h = (torch::where(keep_y2.unsqueeze(0) < keep_y2.unsqueeze(1),
                              keep_y2.unsqueeze(0), keep_y2.unsqueeze(1)) -
                 torch::where(keep_y1.unsqueeze(1) < keep_y1.unsqueeze(0),
                              keep_y1.unsqueeze(0), keep_y1.unsqueeze(1)));
  keep_h = torch::where(keep_h > 0, keep_h, 0);
  auto keep_inter = keep_w * keep_h;
  auto keep_iou = keep_inter / (keep_area.unsqueeze(1) +
                                keep_area.unsqueeze(0) - keep_inter);
  auto keep_rank = torch::arange(boxes.size(0), keep_by_score.options());
  auto keep_suppresses =
      torch::logical_and(keep_iou.to(torch::kDouble) > static_cast<float>(0.45),
                         keep_rank.unsqueeze(0) > keep_rank.unsqueeze(1));
  auto keep_alive = keep_rank >= 0;
  for (int64_t keep_i = 0; keep_i < boxes.size(0); ++keep_i)
    keep_alive = torch::logical_and(
        keep_alive,
        torch::logical_not(torch::logical_and(keep_suppresses.select(0, keep_i),
                                              keep_alive.select(0, keep_i))));
  auto keep_order = torch::argsort(
      torch::logical_not(keep_alive).to(torch::kInt), /*stable=*/true, 0);
  auto keep_count = keep_alive.sum();
  auto keep = keep_by_score.index_select(0, keep_order);
  return std::make_tuple(boxes.index_select(0, keep), keep_count);
}

/// graphify: host epilogue of 'kept_by_method_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor kept_by_method(const Suppressor &suppressor, torch::Tensor boxes,
                             torch::Tensor scores) {
  auto padded = kept_by_method_padded(suppressor, boxes, scores);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// torchvision's layout, a kernel template behind a dtype dispatch: the boxes are checked to hold
// one of the dtypes the dispatch takes.
static std::tuple<torch::Tensor, torch::Tensor>
kept_by_dispatch_padded(torch::Tensor boxes, torch::Tensor scores) {
  if (boxes.dim() != 2 || boxes.size(1) < 4 || scores.dim() != 1 ||
      scores.size(0) != boxes.size(0) ||
      (boxes.scalar_type() != torch::kDouble &&
       boxes.scalar_type() != torch::kFloat))
    throw std::invalid_argument(
        "graphify: the fixed-size form of greedy_nms_dispatch (line 35) "
        "expects boxes [N, 4 or more] of double or float and scores [N]");
  auto kept_by_score =
      std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true));
  auto kept_sorted = boxes.index_select(0, kept_by_score);
  auto kept_x1 = kept_sorted.select(1, 0);
  auto kept_y1 = kept_sorted.select(1, 1);
  auto kept_x2 = kept_sorted.select(1, 2);
  auto kept_y2 = kept_sorted.select(1, 3);
  auto kept_area = (kept_x2 - kept_x1) * (kept_y2 - kept_y1);
  auto kept_w = (torch::where(kept_x2.unsqueeze(0) < kept_x2.unsqueeze(1),
                              kept_x2.unsqueeze(0), kept_x2.unsqueeze(1)) -
                 torch::where(kept_x1.unsqueeze(1) < kept_x1.unsqueeze(0),
                              kept_x1.unsqueeze(0), kept_x1.unsqueeze(1)));
  kept_w = torch::where(kept_w > 0, kept_w, 0);
  auto kept_h = (torch::where(kept_y2.unsqueeze(0) < kept_y2.unsqueeze(1),
                              kept_y2.unsqueeze(0), kept_y2.unsqueeze(1)) -
                 torch::where(kept_y1.unsqueeze(1) < kept_y1.unsqueeze(0),
                              kept_y1.unsqueeze(0), kept_y1.unsqueeze(1)));
  kept_h = torch::where(kept_h > 0, kept_h, 0);
  auto kept_inter = kept_w * kept_h;
  auto kept_iou = kept_inter / (kept_area.unsqueeze(1) +
                                kept_area.unsqueeze(0) - kept_inter);
  auto kept_rank = torch::arange(boxes.size(0), kept_by_score.options());
  auto kept_suppresses =
      torch::logical_and(kept_iou.to(torch::kDouble) > 0.5,
                         kept_rank.unsqueeze(0) > kept_rank.unsqueeze(1));
  auto kept_alive = kept_rank >= 0;
  for (int64_t kept_i = 0; kept_i < boxes.size(0); ++kept_i)
    kept_alive = torch::logical_and(
        kept_alive,
        torch::logical_not(torch::logical_and(kept_suppresses.select(0, kept_i),
                                              kept_alive.select(0, kept_i))));
  auto kept_order = torch::argsort(
      torch::logical_not(kept_alive).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_alive.sum();
  return std::make_tuple(
      boxes.index_select(0, kept_by_score.index_select(0, kept_order)),
      kept_count);
}

/// graphify: host epilogue of 'kept_by_dispatch_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor kept_by_dispatch(torch::Tensor boxes, torch::Tensor scores) {
  auto padded = kept_by_dispatch_padded(boxes, scores);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}
