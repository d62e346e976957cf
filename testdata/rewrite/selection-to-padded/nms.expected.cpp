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

static std::tuple<torch::Tensor, torch::Tensor>
kept_labels_padded(torch::Tensor boxes, torch::Tensor scores,
                   torch::Tensor labels, double iou) {
  if (boxes.dim() != 2 || boxes.size(1) != 4 || scores.dim() != 1 ||
      scores.size(0) != boxes.size(0) || !boxes.is_floating_point() ||
      scores.scalar_type() != boxes.scalar_type())
    throw std::invalid_argument(
        "graphify: the fixed-size form of nms (line 15) expects floating-point "
        "boxes [N, 4] and scores [N] of one dtype");
  auto keep_by_score = std::get<1>(scores.sort(0, /*descending=*/true));
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
      torch::logical_and(keep_iou.to(torch::kDouble) > iou,
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
  if (labels.dim() == 0 || labels.size(0) < boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 16 assumes that 'labels' has a row "
        "for every position it is gathered at");
  return std::make_tuple(labels.index_select(0, keep), keep_count);
}

/// graphify: host epilogue of 'kept_labels_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor kept_labels(torch::Tensor boxes, torch::Tensor scores,
                          torch::Tensor labels, double iou) {
  auto padded = kept_labels_padded(boxes, scores, labels, iou);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
filtered_nms_padded(torch::Tensor boxes, torch::Tensor scores) {
  auto confident = scores > 0.05;
  auto b_valid = confident;
  if (b_valid.dim() != 1 || b_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 21 assumes a one-dimensional mask "
        "with one element per row");
  auto b_order = torch::argsort(torch::logical_not(b_valid).to(torch::kInt),
                                /*stable=*/true, 0);
  auto b_count = b_valid.sum();
  auto b = boxes.index_select(0, b_order);
  auto s = scores.index_select(0, b_order);
  if (b.dim() != 2 || b.size(1) != 4 || s.dim() != 1 ||
      s.size(0) != b.size(0) || !b.is_floating_point() ||
      s.scalar_type() != b.scalar_type())
    throw std::invalid_argument(
        "graphify: the fixed-size form of nms (line 23) expects floating-point "
        "boxes [N, 4] and scores [N] of one dtype");
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
      torch::logical_and(keep_iou.to(torch::kDouble) > 0.5,
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
  return std::make_tuple(b.index({keep}), s.index_select(0, keep), keep_count);
}

/// graphify: host epilogue of 'filtered_nms_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
std::tuple<torch::Tensor, torch::Tensor> filtered_nms(torch::Tensor boxes,
                                                      torch::Tensor scores) {
  auto padded = filtered_nms_padded(boxes, scores);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  return {std::get<0>(padded).narrow(0, 0, rows),
          std::get<1>(padded).narrow(0, 0, rows)};
}

// NMS inside a gather: the call is computed another way than written, and the gather around it
// stays in range.
static std::tuple<torch::Tensor, torch::Tensor>
nms_inline_padded(torch::Tensor boxes, torch::Tensor scores) {
  if (boxes.dim() != 2 || boxes.size(1) != 4 || scores.dim() != 1 ||
      scores.size(0) != boxes.size(0) || !boxes.is_floating_point() ||
      scores.scalar_type() != boxes.scalar_type())
    throw std::invalid_argument(
        "graphify: the fixed-size form of nms (line 30) expects floating-point "
        "boxes [N, 4] and scores [N] of one dtype");
  auto kept_by_score = std::get<1>(scores.sort(0, /*descending=*/true));
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

/// graphify: host epilogue of 'nms_inline_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor nms_inline(torch::Tensor boxes, torch::Tensor scores) {
  auto padded = nms_inline_padded(boxes, scores);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// Batched NMS by class offsets: the largest coordinate of the selected boxes, after the test for
// none, is the maximum over the padded rows with copies of the first selected row in the others'
// place.
static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor>
batched_by_offset_padded(torch::Tensor boxes, torch::Tensor scores,
                         torch::Tensor labels, double iou) {
  auto confident = scores > 0.05;
  auto b_valid = confident;
  if (b_valid.dim() != 1 || b_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 38 assumes a one-dimensional mask "
        "with one element per row");
  auto b_order = torch::argsort(torch::logical_not(b_valid).to(torch::kInt),
                                /*stable=*/true, 0);
  auto b_count = b_valid.sum();
  auto b = boxes.index_select(0, b_order);
  auto s = scores.index_select(0, b_order);
  auto l = labels.index_select(0, b_order);
  auto b_at_41 = b;
  auto max_coordinate_rows = torch::arange(b.size(0), b_count.options());
  auto max_coordinate =
      (b.size(0) == 0
           ? torch::zeros({1}, b.options()).max()
           : b.index_select(0, torch::where(max_coordinate_rows < b_count,
                                            max_coordinate_rows, 0))
                 .max());
  auto offsets = l.to(b.dtype()) * (max_coordinate + 1);
  auto operand = offsets.unsqueeze(1);
  if (!(operand.dim() == b.dim()))
    throw std::invalid_argument("graphify: the padded form of line 45 assumes "
                                "that 'offsets.unsqueeze(1)' broadcasts along "
                                "the rows of 'b' without meeting them");
  auto keep_boxes_in = b + operand;
  if (keep_boxes_in.dim() != 2 || keep_boxes_in.size(1) != 4 || s.dim() != 1 ||
      s.size(0) != keep_boxes_in.size(0) ||
      !keep_boxes_in.is_floating_point() ||
      s.scalar_type() != keep_boxes_in.scalar_type())
    throw std::invalid_argument(
        "graphify: the fixed-size form of nms (line 45) expects floating-point "
        "boxes [N, 4] and scores [N] of one dtype");
  auto keep_by_score =
      std::get<1>(s.sort(/*stable=*/true, 0, /*descending=*/true));
  auto keep_sorted = keep_boxes_in.index_select(0, keep_by_score);
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
  auto keep_rank =
      torch::arange(keep_boxes_in.size(0), keep_by_score.options());
  auto keep_suppresses =
      torch::logical_and(keep_iou.to(torch::kDouble) > iou,
                         keep_rank.unsqueeze(0) > keep_rank.unsqueeze(1));
  auto keep_alive =
      (torch::arange(keep_boxes_in.size(0), keep_by_score.options()) < b_count)
          .index_select(0, keep_by_score);
  for (int64_t keep_i = 0; keep_i < keep_boxes_in.size(0); ++keep_i)
    keep_alive = torch::logical_and(
        keep_alive,
        torch::logical_not(torch::logical_and(keep_suppresses.select(0, keep_i),
                                              keep_alive.select(0, keep_i))));
  auto keep_order = torch::argsort(
      torch::logical_not(keep_alive).to(torch::kInt), /*stable=*/true, 0);
  auto keep_count = keep_alive.sum();
  auto keep = keep_by_score.index_select(0, keep_order);
  return std::make_tuple(b.index_select(0, keep), b_at_41, keep_count, b_count);
}

/// graphify: host epilogue of 'batched_by_offset_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor batched_by_offset(torch::Tensor boxes, torch::Tensor scores,
                                torch::Tensor labels, double iou) {
  auto padded = batched_by_offset_padded(boxes, scores, labels, iou);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  const int64_t rows2 = std::get<3>(padded).item<int64_t>();
  if (!std::get<1>(padded).narrow(0, 0, rows2).size(0))
    return torch::zeros({0, 4});
  return std::get<0>(padded).narrow(0, 0, rows);
}
