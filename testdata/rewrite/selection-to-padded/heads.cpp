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

// The prefill reads the device of the transposed prediction: the caller's variable, which the
// core leaves transposed, so the epilogue runs it after the core. The split parts, the bindings
// of the best class, the flattened score and the capped NMS stay padded.
torch::Tensor decode_heads(torch::Tensor &pred, float conf, float iou, int max_det) {
  const auto classes = pred.size(1) - 4 - 8; // the rest are mask weights
  const auto weights = pred.size(1) - classes - 4;
  auto candidates = pred.index({Slice(), Slice(4, 4 + classes)}).amax(1) > conf;
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
    x = x.index({best.view(-1) > conf});
    if (x.size(0) == 0)
      continue;
    auto keep = vision::ops::nms(x.index({Slice(), Slice(None, 4)}), x.index({Slice(), 4}), iou);
    keep = keep.index({Slice(None, max_det)});
    out[b] = x.index({keep});
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
torch::Tensor top_rows(torch::Tensor boxes, torch::Tensor scores, int64_t k) {
  auto kept = boxes.index({scores > 0.5});
  auto top = kept.slice(0, 0, k);
  return top * 2;
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
torch::Tensor empty_after_scaling(torch::Tensor pred, float conf) {
  std::vector<torch::Tensor> out;
  pred.mul_(2);
  for (int64_t b = 0; b < pred.size(0); ++b)
    out.push_back(torch::zeros({0, pred.size(2)}, pred.device()));
  for (int64_t b = 0; b < pred.size(0); ++b) {
    auto x = pred[b];
    out[b] = x.index({x.select(1, 4) > conf});
  }
  return torch::cat(out);
}
