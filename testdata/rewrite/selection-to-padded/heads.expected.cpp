// selection-to-padded on a detection head decoded the way segmentation YOLOs write it: the
// prediction transposed through the caller's reference, one empty result per image, then per
// image a score filter, the columns split into boxes, class scores and mask weights, the best
// class, a second filter on its score, greedy NMS capped to a maximum, the survivors stored in
// the image's slot and the images stacked.
#include <torch/torch.h>

#include <vector>

namespace vision {
namespace ops {
at::Tensor nms(const at::Tensor &dets, const at::Tensor &scores, double iou_threshold);
} // namespace ops
} // namespace vision

using torch::indexing::None;
using torch::indexing::Slice;

// The prefill reads the device of the transposed prediction: the caller's
// variable, which the core leaves transposed, so the epilogue runs it after the
// core. The split parts, the bindings of the best class, the flattened score
// and the capped NMS stay padded. the rest are mask weights
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>, std::vector<torch::Tensor>>
decode_heads_padded(torch::Tensor pred, float conf, float iou, int max_det) {
  const auto classes = pred.size(1) - 4 - 8;
  const auto weights = pred.size(1) - classes - 4;
  auto candidates = pred.index({Slice(), Slice(4, 4 + classes)}).amax(1) > conf;
  pred = pred.transpose(-1, -2);
  std::vector<torch::Tensor> x_count2_each;
  std::vector<torch::Tensor> keep_count2_each;
  std::vector<torch::Tensor> x_at_38;
  std::vector<torch::Tensor> out_each;
  for (int64_t b = 0; b < pred.size(0); ++b) {
    auto x = pred[b];
    auto x_valid = candidates[b];
    if (x_valid.dim() != 1 || x_valid.size(0) != x.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 32 assumes a one-dimensional mask "
          "with one element per row");
    auto x_order = torch::argsort(torch::logical_not(x_valid).to(torch::kInt),
                                  /*stable=*/true, 0);
    auto x_count = x_valid.sum();
    x = x.index_select(0, x_order);
    auto parts = x.split({4, classes, weights}, 1);
    auto box = parts[0];
    auto cls = parts[1];
    auto mask = parts[2];
    auto [best, label] = cls.max(1, true);
    x = torch::cat({box, best, label.to(torch::kFloat), mask}, 1);
    if (best.dim() == 0 || best.numel() != best.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 37 assumes that 'best' holds one "
          "element per row");
    auto x_valid2 = torch::logical_and(
        best.view(-1) > conf,
        torch::arange(x.size(0), x_count.options()) < x_count);
    if (x_valid2.dim() != 1 || x_valid2.size(0) != x.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 37 assumes a one-dimensional mask "
          "with one element per row");
    auto x_order2 = torch::argsort(torch::logical_not(x_valid2).to(torch::kInt),
                                   /*stable=*/true, 0);
    auto x_count2 = x_valid2.sum();
    x = x.index_select(0, x_order2);
    x_at_38.push_back(x);
    auto keep_boxes_in = x.index({Slice(), Slice(None, 4)});
    auto keep_scores_in = x.index({Slice(), 4});
    if (keep_boxes_in.dim() != 2 || keep_boxes_in.size(1) != 4 ||
        keep_scores_in.dim() != 1 ||
        keep_scores_in.size(0) != keep_boxes_in.size(0) ||
        !keep_boxes_in.is_floating_point() ||
        keep_scores_in.scalar_type() != keep_boxes_in.scalar_type())
      throw std::invalid_argument(
          "graphify: the fixed-size form of nms (line 40) expects "
          "floating-point boxes [N, 4] and scores [N] of one dtype");
    auto keep_by_score = std::get<1>(
        keep_scores_in.sort(/*stable=*/true, 0, /*descending=*/true));
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
    auto keep_alive = (torch::arange(keep_boxes_in.size(0),
                                     keep_by_score.options()) < x_count2)
                          .index_select(0, keep_by_score);
    for (int64_t keep_i = 0; keep_i < keep_boxes_in.size(0); ++keep_i)
      keep_alive =
          torch::logical_and(keep_alive, torch::logical_not(torch::logical_and(
                                             keep_suppresses.select(0, keep_i),
                                             keep_alive.select(0, keep_i))));
    auto keep_order = torch::argsort(
        torch::logical_not(keep_alive).to(torch::kInt), /*stable=*/true, 0);
    auto keep_count = keep_alive.sum();
    auto keep = keep_by_score.index_select(0, keep_order);
    auto keep_count2 = max_det >= 0 ? keep_count.clamp_max(max_det)
                                    : (keep_count + max_det).clamp_min(0);
    out_each.push_back(x.index({keep}));
    x_count2_each.push_back(x_count2);
    keep_count2_each.push_back(keep_count2);
  }
  return std::make_tuple(x_at_38, out_each, x_count2_each, keep_count2_each);
}

/// graphify: host epilogue of 'decode_heads_padded' (reads the counts and
/// slices the padded outputs of each iteration of the loop at line 30, then
/// runs the original's host code (from line 44 after it) on them; not a graph
/// region)
torch::Tensor decode_heads(torch::Tensor &pred, float conf, float iou,
                           int max_det) {
  const auto classes = pred.size(1) - 4 - 8;
  const auto weights = pred.size(1) - classes - 4;
  std::vector<torch::Tensor> out;
  auto padded = decode_heads_padded(pred, conf, iou, max_det);
  pred = pred.transpose(-1, -2);
  for (int64_t b = 0; b < pred.size(0); ++b)
    out.push_back(torch::zeros({0, 6 + weights}, pred.device()));
  size_t iteration = 0;
  for (int64_t b = 0; b < pred.size(0); ++b, ++iteration) {
    const int64_t rows = std::get<2>(padded)[iteration].item<int64_t>();
    const int64_t rows2 = std::get<3>(padded)[iteration].item<int64_t>();
    if (std::get<0>(padded)[iteration].narrow(0, 0, rows).size(0) == 0)
      continue;
    out[b] = std::get<1>(padded)[iteration].narrow(0, 0, rows2);
  }
  return torch::stack(out);
}

// The prefill reads the prediction before a later statement transposes it: after the core, the
// epilogue would see the transposed one.
torch::Tensor transposed_later(torch::Tensor &pred, float conf) {
  std::vector<torch::Tensor> out;
  for (int64_t b = 0; b < pred.size(0); ++b) {
    out.push_back(torch::zeros({0, pred.size(2)}, pred.device()));
  }
  pred = pred.transpose(-1, -2);
  for (int64_t b = 0; b < pred.size(0); ++b) {
    auto x = pred[b].index({pred[b].select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: the loop at line 51 fills a vector before the selection with values the epilogue cannot compute: it reads the parameter 'pred', which the function assigns
    out[b] = x;
  }
  return torch::stack(out);
}

// A prefix of the selection declared on its own: the count clamps, the rows stay.
static std::tuple<torch::Tensor, torch::Tensor>
top_rows_padded(torch::Tensor boxes, torch::Tensor scores, int64_t k) {
  auto kept_valid = scores > 0.5;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 64 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = boxes.index_select(0, kept_order);
  auto top_count =
      k >= 0 ? kept_count.clamp_max(k) : (kept_count + k).clamp_min(0);
  auto top = kept;
  return std::make_tuple(top * 2, top_count);
}

/// graphify: host epilogue of 'top_rows_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor top_rows(torch::Tensor boxes, torch::Tensor scores, int64_t k) {
  auto padded = top_rows_padded(boxes, scores, k);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// A declaration of several names, one a reference: refused, it has no value of its own.
torch::Tensor aliased_parts(torch::Tensor boxes, torch::Tensor scores) {
  auto kept = boxes.index({scores > 0.5}); // EXPECT-RECIPE: not rewritten automatically: the declaration at line 73 declares several names, one of them without a value of its own \(declare it on its own line\)
  auto parts = kept.split({2, 2}, 1);
  auto lo = parts[0], &hi = parts[1];
  return lo + hi;
}

// The caller's variable is given a value computed from its data: a replay of the captured core
// would leave it as it was, and the epilogue repeats only views.
torch::Tensor scaled_for_caller(torch::Tensor &pred, float conf) {
  pred = pred * 2;
  auto kept = pred.index({pred.select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: the core would assign the reference parameter 'pred' \(line 80\), which a replay of the captured core does not do
  return kept;
}

// The function writes into the elements of its prediction before filling the results with copies
// of its rows: run before the core, the copies would miss the write.
torch::Tensor rows_after_scaling(torch::Tensor pred, float conf) {
  std::vector<torch::Tensor> out;
  pred.mul_(2);
  for (int64_t b = 0; b < pred.size(0); ++b)
    out.push_back(pred[b].slice(0, 0, 0).clone());
  for (int64_t b = 0; b < pred.size(0); ++b) {
    auto x = pred[b].index({pred[b].select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: the loop at line 90 fills a vector before the selection with values the epilogue cannot compute: it reads 'pred', which the function writes in place before it \(line 89\)
    out[b] = x;
  }
  return torch::cat(out);
}

// The same write, and results built on the prediction's device only: the write leaves the device
// as it is, so the epilogue fills them before the core.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>>
empty_after_scaling_padded(torch::Tensor pred, float conf) {
  pred.mul_(2);
  std::vector<torch::Tensor> out_count_each;
  std::vector<torch::Tensor> out_each;
  for (int64_t b = 0; b < pred.size(0); ++b) {
    auto x = pred[b];
    auto out_valid = x.select(1, 4) > conf;
    if (out_valid.dim() != 1 || out_valid.size(0) != x.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 108 assumes a one-dimensional "
          "mask with one element per row");
    auto out_order = torch::argsort(
        torch::logical_not(out_valid).to(torch::kInt), /*stable=*/true, 0);
    auto out_count = out_valid.sum();
    out_each.push_back(x.index_select(0, out_order));
    out_count_each.push_back(out_count);
  }
  return std::make_tuple(out_each, out_count_each);
}

/// graphify: host epilogue of 'empty_after_scaling_padded' (reads the counts
/// and slices the padded outputs of each iteration of the loop at line 106,
/// then runs the original's host code (from line 110 after it) on them; not a
/// graph region)
torch::Tensor empty_after_scaling(torch::Tensor pred, float conf) {
  std::vector<torch::Tensor> out;
  for (int64_t b = 0; b < pred.size(0); ++b)
    out.push_back(torch::zeros({0, pred.size(2)}, pred.device()));
  auto padded = empty_after_scaling_padded(pred, conf);
  size_t iteration = 0;
  for (int64_t b = 0; b < pred.size(0); ++b, ++iteration) {
    const int64_t rows = std::get<1>(padded)[iteration].item<int64_t>();
    out[b] = std::get<0>(padded)[iteration].narrow(0, 0, rows);
  }
  return torch::cat(out);
}
