// Detection post-processing around greedy non-maximum suppression: the boxes that pass a score
// filter go through NMS, at most `max_det` of the kept ones are returned with their scores. The
// NMS here is a reference written the way torchvision's CPU kernel behaves (the rule pack's
// `vision::ops::nms`, tag greedy_suppression), so that the test compares the rewrite with it.
// selection-to-padded splits the entry into a capturable core — the score filter padded, NMS in
// its exact fixed-size greedy form (N masked iterations over the IoU matrix of the sorted
// boxes), the gathers by the kept indices — and a host epilogue that slices by the counts.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <algorithm>
#include <tuple>
#include <vector>

namespace vision {
namespace ops {
// Greedy suppression on the host: visit the boxes by descending score, keep one unless a kept
// box overlaps it by more than the threshold (IoU from (x2 - x1) * (y2 - y1) areas).
inline at::Tensor nms(const at::Tensor &dets, const at::Tensor &scores, double iou_threshold) {
  auto order = std::get<1>(scores.sort(0, /*descending=*/true)).contiguous();
  auto boxes = dets.contiguous();
  const int64_t n = dets.size(0);
  std::vector<char> dead(n, 0);
  std::vector<int64_t> kept;
  auto coord = [&](int64_t row, int64_t c) { return boxes[row][c].item<float>(); };
  for (int64_t a = 0; a < n; ++a) {
    int64_t i = order[a].item<int64_t>();
    if (dead[i])
      continue;
    kept.push_back(i);
    float area_i = (coord(i, 2) - coord(i, 0)) * (coord(i, 3) - coord(i, 1));
    for (int64_t b = a + 1; b < n; ++b) {
      int64_t j = order[b].item<int64_t>();
      float left = std::max(coord(i, 0), coord(j, 0)), top = std::max(coord(i, 1), coord(j, 1));
      float right = std::min(coord(i, 2), coord(j, 2)), bottom = std::min(coord(i, 3), coord(j, 3));
      float inter = std::max(0.0f, right - left) * std::max(0.0f, bottom - top);
      float area_j = (coord(j, 2) - coord(j, 0)) * (coord(j, 3) - coord(j, 1));
      float iou = inter / (area_i + area_j - inter);
      if (iou > iou_threshold)
        dead[j] = 1;
    }
  }
  return torch::tensor(kept, torch::kLong);
}
} // namespace ops
} // namespace vision

// graphify-entry: corners: f32[12,2] in [0, 2], sizes: f32[12,2] in [1, 3], scores: f32[12]
GRAPHIFY_GRAPH_REGION std::tuple<torch::Tensor, torch::Tensor>
detect(torch::Tensor corners, torch::Tensor sizes, torch::Tensor scores) {
  const int64_t max_det = 4;
  auto boxes = torch::cat({corners, corners + sizes}, 1);
  auto confident = scores > 0;
  boxes = boxes.index({confident});
  scores = scores.index({confident});
  auto keep = vision::ops::nms(boxes, scores, 0.4);
  if (keep.size(0) > max_det)
    keep = keep.slice(0, 0, max_det);
  return std::make_tuple(boxes.index_select(0, keep), scores.index({keep}));
}

// Batched NMS as torchvision writes it: each class's boxes are moved past the largest coordinate,
// so that boxes of different classes never overlap and one suppression serves every class. The
// largest coordinate is taken over the selected boxes, after the test for none: padded, the rows
// past the count stand in for copies of the first selected box, which leave the maximum as it is.
// graphify-entry: corners: f32[12,2] in [0, 2], sizes: f32[12,2] in [1, 3], scores: f32[12], labels: i64[12] in [0, 3]
GRAPHIFY_GRAPH_REGION torch::Tensor
batched_detect(torch::Tensor corners, torch::Tensor sizes, torch::Tensor scores, torch::Tensor labels) {
  auto boxes = torch::cat({corners, corners + sizes}, 1);
  auto confident = scores > 0;
  boxes = boxes.index({confident});
  scores = scores.index({confident});
  labels = labels.index({confident});
  if (boxes.size(0) == 0)
    return torch::zeros({0, 4});
  auto max_coordinate = boxes.max();
  auto offsets = labels.to(boxes) * (max_coordinate + 1);
  auto keep = vision::ops::nms(boxes + offsets.unsqueeze(1), scores, 0.4);
  return boxes.index_select(0, keep);
}
// graphify-expect-fix: fixed

// A segmentation head decoded per image: the prediction transposed through the caller's reference,
// one empty result per image, then a score filter, the columns split into boxes, class scores and
// mask weights, the best class kept as a column, a second filter on its score, NMS capped to
// `max_det`, and the survivors stored in the image's slot. The empty results are built after the
// core, on the device of the prediction it leaves transposed.
// graphify-entry: pred: f32[2,9,10] in [0, 1]
GRAPHIFY_GRAPH_REGION torch::Tensor decode_heads(torch::Tensor &pred) {
  const float conf = 0.25f;
  const float iou = 0.3f;
  const int max_det = 3;
  const auto classes = pred.size(1) - 4 - 2;
  const auto weights = pred.size(1) - classes - 4;
  auto candidates = pred.index({torch::indexing::Slice(), torch::indexing::Slice(4, 4 + classes)}).amax(1) > conf;
  pred = pred.transpose(-1, -2);
  std::vector<torch::Tensor> out;
  for (int64_t b = 0; b < pred.size(0); ++b)
    out.push_back(torch::zeros({0, 6 + weights}, pred.device()));
  for (int64_t b = 0; b < pred.size(0); ++b) {
    auto x = pred[b];
    x = x.index({candidates[b]});
    auto parts = x.split({4, classes, weights}, 1);
    auto box = parts[0], cls = parts[1], mask = parts[2];
    auto [best, label] = cls.max(1, true);
    x = torch::cat({box, best, label.to(torch::kFloat), mask}, 1);
    x = x.index({best.view(-1) > 2 * conf});
    if (x.size(0) == 0)
      continue;
    auto keep = vision::ops::nms(x.index({torch::indexing::Slice(), torch::indexing::Slice(torch::indexing::None, 4)}),
                                 x.index({torch::indexing::Slice(), 4}), iou);
    keep = keep.index({torch::indexing::Slice(torch::indexing::None, max_det)});
    out[b] = x.index({keep});
  }
  return torch::cat(out);
}
// graphify-expect-fix: fixed
