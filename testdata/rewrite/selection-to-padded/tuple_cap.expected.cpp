// selection-to-padded: detection post-processing that returns several tensors (a tuple of the
// kept boxes, scores and labels; a vector of parts) and caps the number of detections
// (`if (k.size(0) > max_num) k = k.slice(0, 0, max_num)`): the core returns every padded value
// and the counts, the cap clamps the count, and the epilogue rebuilds the tuple or vector.
#include <torch/torch.h>

using torch::indexing::Slice;

static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor,
                  torch::Tensor>
top_detections_padded(torch::Tensor boxes, torch::Tensor scores,
                      torch::Tensor labels, double score_thr, int max_num) {
  auto chosen = scores >= score_thr;
  auto boxes_valid = chosen;
  if (boxes_valid.dim() != 1 || boxes_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 13 assumes a one-dimensional mask "
        "with one element per row");
  auto boxes_order = torch::argsort(
      torch::logical_not(boxes_valid).to(torch::kInt), /*stable=*/true, 0);
  auto boxes_count = boxes_valid.sum();
  boxes = boxes.index_select(0, boxes_order);
  scores = scores.index_select(0, boxes_order);
  labels = labels.index_select(0, boxes_order);
  auto boxes_count2 = boxes_count;
  if (max_num != -1)
    boxes_count2 = max_num >= 0 ? boxes_count.clamp_max(max_num)
                                : (boxes_count + max_num).clamp_min(0);
  return std::make_tuple(boxes, scores * 2, labels, boxes_count2, boxes_count);
}

/// graphify: host epilogue of 'top_detections_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
top_detections(torch::Tensor boxes, torch::Tensor scores, torch::Tensor labels,
               double score_thr, int max_num) {
  auto padded =
      top_detections_padded(boxes, scores, labels, score_thr, max_num);
  const int64_t rows = std::get<3>(padded).item<int64_t>();
  const int64_t rows2 = std::get<4>(padded).item<int64_t>();
  return {std::get<0>(padded).narrow(0, 0, rows),
          std::get<1>(padded).narrow(0, 0, rows),
          std::get<2>(padded).narrow(0, 0, rows2)};
}

static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor,
                  torch::Tensor>
split_parts_padded(torch::Tensor x, int64_t limit) {
  auto keep = x.select(1, 0) > 0;
  auto kept_valid = keep;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != x.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 25 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = x.index_select(0, kept_order);
  auto kept_at_26 = kept;
  auto kept_count2 = limit >= 0 ? kept_count.clamp_max(limit)
                                : (kept_count + limit).clamp_min(0);
  return std::make_tuple(kept.slice(1, 0, 2), kept.slice(1, 2, 4), kept_at_26,
                         kept_count2, kept_count);
}

/// graphify: host epilogue of 'split_parts_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
std::vector<torch::Tensor> split_parts(torch::Tensor x, int64_t limit) {
  auto padded = split_parts_padded(x, limit);
  const int64_t rows = std::get<3>(padded).item<int64_t>();
  const int64_t rows2 = std::get<4>(padded).item<int64_t>();
  if (std::get<2>(padded).narrow(0, 0, rows2).size(0) == 0)
    return {};
  return {std::get<0>(padded).narrow(0, 0, rows),
          std::get<1>(padded).narrow(0, 0, rows)};
}
