// selection-to-padded on code that writes into the columns of the rows it selected (boxes turned
// from centre and size into corners in place), and on an iteration's host part that fills
// tensors of its own by position (a greedy suppression written with host loops). The core writes
// every padded row, the valid ones as the original did; the host part's tensors are its own, so
// no device part can see the writes.
#include <torch/torch.h>

#include <tuple>
#include <vector>

// Corners in place after a score filter, at the top level.
torch::Tensor corners(torch::Tensor preds, double conf) {
  auto boxes = preds.index({preds.select(1, 4) > conf});
  boxes.select(1, 0) = boxes.select(1, 0) - boxes.select(1, 2) / 2;
  boxes.select(1, 1) = boxes.select(1, 1) - boxes.select(1, 3) / 2;
  boxes.select(1, 2) += boxes.select(1, 0);
  boxes.select(1, 3) += boxes.select(1, 1);
  boxes.slice(1, 0, 4) *= 2;
  return boxes;
}

// Per image: the filter by positions, the empty image skipped by a test on sizes()[0], the
// corners written in place, and the image's host part: a greedy suppression on host values that
// writes the positions it keeps into a tensor it makes.
std::vector<torch::Tensor> suppress_per_image(torch::Tensor preds, double conf, double iou) {
  std::vector<torch::Tensor> output;
  for (size_t i = 0; i < preds.sizes()[0]; ++i) {
    torch::Tensor pred = preds.select(0, i);
    torch::Tensor score = pred.select(1, 4) * std::get<0>(torch::max(pred.slice(1, 5, pred.sizes()[1]), 1));
    pred = torch::index_select(pred, 0, torch::nonzero(score > conf).select(1, 0));
    if (pred.sizes()[0] == 0)
      continue;
    pred.select(1, 0) = pred.select(1, 0) - pred.select(1, 2) / 2;
    pred.select(1, 1) = pred.select(1, 1) - pred.select(1, 3) / 2;
    pred.select(1, 2) = pred.select(1, 0) + pred.select(1, 2);
    pred.select(1, 3) = pred.select(1, 1) + pred.select(1, 3);
    std::tuple<torch::Tensor, torch::Tensor> best = torch::max(pred.slice(1, 5, pred.sizes()[1]), 1);
    pred.select(1, 4) = pred.select(1, 4) * std::get<0>(best);
    pred.select(1, 5) = std::get<1>(best);
    torch::Tensor dets = pred.slice(1, 0, 6);
    torch::Tensor keep = torch::empty({dets.sizes()[0]});
    torch::Tensor order = std::get<1>(torch::sort(dets.select(1, 4), 0, true));
    int kept = 0;
    while (order.sizes()[0] > 0) {
      const int64_t best_row = order[0].item<int64_t>();
      keep[kept] = best_row;
      kept += 1;
      torch::Tensor overlap = torch::zeros({order.sizes()[0] - 1});
      for (int64_t j = 1; j < order.sizes()[0]; ++j) {
        const int64_t other = order[j].item<int64_t>();
        const float w = std::max(0.0f, std::min(dets[best_row][2].item<float>(), dets[other][2].item<float>()) -
                                           std::max(dets[best_row][0].item<float>(), dets[other][0].item<float>()));
        const float h = std::max(0.0f, std::min(dets[best_row][3].item<float>(), dets[other][3].item<float>()) -
                                           std::max(dets[best_row][1].item<float>(), dets[other][1].item<float>()));
        overlap[j - 1] = w * h;
      }
      order = torch::index_select(order, 0, torch::nonzero(overlap <= iou).select(1, 0) + 1);
    }
    keep = keep.toType(torch::kInt64);
    output.push_back(torch::index_select(dets, 0, keep.slice(0, 0, kept)));
  }
  return output;
}

// The guard reads the values the iteration writes afterwards: the epilogue tests a copy taken at
// the guard.
std::vector<torch::Tensor> confident_per_image(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > conf});
    if (!kept.select(1, 4).gt(0.9).any().item<bool>())
      continue;
    kept.select(1, 4) *= 0.5;
    output.push_back(kept);
  }
  return output;
}

// Writes into a selection made before the loop: the core would write it in iterations the
// original skips.
std::vector<torch::Tensor> scaled_each_class(torch::Tensor preds, torch::Tensor scales, double conf) {
  std::vector<torch::Tensor> output;
  auto kept = preds.index({preds.select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: 'kept.select\(1, 4\) \*= 2' \(line 88\) writes into 'kept', declared before the loop at line 84, which the core would write in iterations the original skips
  for (int64_t c = 0; c < scales.size(0); ++c) {
    auto mine = kept.index({kept.select(1, 5) == c}); // EXPECT-RECIPE: not rewritten automatically: 'kept.select\(1, 4\) \*= 2' \(line 88\) writes into 'kept'
    if (mine.size(0) == 0) // EXPECT-NO-FIX: the condition depends on 'mine.size\(0\)', the size of a value-dependent selection
      continue;
    kept.select(1, 4) *= 2;
    output.push_back(mine);
  }
  return output;
}

// A write after a cap: the original writes through a view of the first rows only.
torch::Tensor capped_then_written(torch::Tensor preds, double conf, int64_t max_det) {
  auto kept = preds.index({preds.select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: 'kept.select\(1, 0\) = 0' \(line 100\) writes into 'kept' after a cap on its rows: the original writes through a view of the first rows, the padded form would write every row
  auto all = kept;
  if (kept.size(0) > max_det) // EXPECT-NO-FIX: the branch caps 'kept' at 'max_det' rows
    kept = kept.slice(0, 0, max_det);
  kept.select(1, 0) = 0;
  return all;
}

// A value of unknown shape written into the rows.
torch::Tensor written_from_elsewhere(torch::Tensor preds, torch::Tensor offsets, double conf) {
  auto kept = preds.index({preds.select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: cannot prove that 'offsets' \(line 107\) lines up with the rows of 'kept.select\(1, 0\)'
  kept.select(1, 0) = offsets;
  return kept;
}

// The host part writes through a view of a tensor the device part computed: a later iteration's
// device part reads nothing of it, but the rule cannot tell a view of its own tensor from one of
// a parameter.
std::vector<float> first_scores(torch::Tensor preds, double conf) {
  std::vector<float> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > conf}); // EXPECT-RECIPE: not rewritten automatically: the host part of the loop from line 118 writes tensor data in place \('column\[0\] = 0', line 119\)
    auto column = kept.select(1, 4).cpu();
    column[0] = 0;
    out.push_back(column.sum().item<float>());
  }
  return out;
}
