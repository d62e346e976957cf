// selection-to-padded on code that writes into the columns of the rows it selected (boxes turned
// from centre and size into corners in place), and on an iteration's host part that fills
// tensors of its own by position (a greedy suppression written with host loops). The core writes
// every padded row, the valid ones as the original did; the host part's tensors are its own, so
// no device part can see the writes.
#include <torch/torch.h>

#include <tuple>
#include <vector>

// Corners in place after a score filter, at the top level.
static std::tuple<torch::Tensor, torch::Tensor>
corners_padded(torch::Tensor preds, double conf) {
  auto boxes_valid = preds.select(1, 4) > conf;
  if (boxes_valid.dim() != 1 || boxes_valid.size(0) != preds.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 13 assumes a one-dimensional mask "
        "with one element per row");
  auto boxes_order = torch::argsort(
      torch::logical_not(boxes_valid).to(torch::kInt), /*stable=*/true, 0);
  auto boxes_count = boxes_valid.sum();
  auto boxes = preds.index_select(0, boxes_order);
  auto rows_of = boxes.select(1, 0);
  auto operand = boxes.select(1, 2) / 2;
  if (!(operand.dim() == rows_of.dim()))
    throw std::invalid_argument(
        "graphify: the padded form of line 14 assumes that 'boxes.select(1, 2) "
        "/ 2' broadcasts along the rows of 'boxes.select(1, 0)' without "
        "meeting them");
  boxes.select(1, 0) = rows_of - operand;
  auto rows_of2 = boxes.select(1, 1);
  auto operand2 = boxes.select(1, 3) / 2;
  if (!(operand2.dim() == rows_of2.dim()))
    throw std::invalid_argument(
        "graphify: the padded form of line 15 assumes that 'boxes.select(1, 3) "
        "/ 2' broadcasts along the rows of 'boxes.select(1, 1)' without "
        "meeting them");
  boxes.select(1, 1) = rows_of2 - operand2;
  boxes.select(1, 2) += boxes.select(1, 0);
  boxes.select(1, 3) += boxes.select(1, 1);
  boxes.slice(1, 0, 4) *= 2;
  return std::make_tuple(boxes, boxes_count);
}

/// graphify: host epilogue of 'corners_padded' (reads the counts and slices the
/// padded outputs; not a graph region)
torch::Tensor corners(torch::Tensor preds, double conf) {
  auto padded = corners_padded(preds, conf);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// Per image: the filter by positions, the empty image skipped by a test on sizes()[0], the
// corners written in place, and the image's host part: a greedy suppression on host values that
// writes the positions it keeps into a tensor it makes.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>>
suppress_per_image_padded(torch::Tensor preds, double conf, double iou) {
  std::vector<torch::Tensor> positions_count_each;
  std::vector<torch::Tensor> pred_at_31;
  std::vector<torch::Tensor> dets_each;
  for (size_t i = 0; i < preds.sizes()[0]; ++i) {
    torch::Tensor pred = preds.select(0, i);
    torch::Tensor score =
        pred.select(1, 4) *
        std::get<0>(torch::max(pred.slice(1, 5, pred.sizes()[1]), 1));
    auto positions_of = score > conf;
    if (positions_of.dim() != 1)
      throw std::invalid_argument("graphify: the padded form of line 30 "
                                  "assumes a one-dimensional 'score > conf'");
    auto positions_valid = positions_of;
    auto positions_order =
        torch::argsort(torch::logical_not(positions_valid).to(torch::kInt),
                       /*stable=*/true, 0);
    auto positions_count = positions_valid.sum();
    if (pred.dim() == 0 || pred.size(0) < positions_of.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 30 assumes that 'pred' has a row "
          "for every position it is gathered at");
    pred = torch::index_select(pred, 0, positions_order);
    pred_at_31.push_back(pred);
    auto rows_of = pred.select(1, 0);
    auto operand = pred.select(1, 2) / 2;
    if (!(operand.dim() == rows_of.dim()))
      throw std::invalid_argument(
          "graphify: the padded form of line 33 assumes that 'pred.select(1, "
          "2) / 2' broadcasts along the rows of 'pred.select(1, 0)' without "
          "meeting them");
    pred.select(1, 0) = rows_of - operand;
    auto rows_of2 = pred.select(1, 1);
    auto operand2 = pred.select(1, 3) / 2;
    if (!(operand2.dim() == rows_of2.dim()))
      throw std::invalid_argument(
          "graphify: the padded form of line 34 assumes that 'pred.select(1, "
          "3) / 2' broadcasts along the rows of 'pred.select(1, 1)' without "
          "meeting them");
    pred.select(1, 1) = rows_of2 - operand2;
    auto rows_of3 = pred.select(1, 0);
    auto operand3 = pred.select(1, 2);
    if (!(operand3.dim() == rows_of3.dim()))
      throw std::invalid_argument(
          "graphify: the padded form of line 35 assumes that 'pred.select(1, "
          "2)' broadcasts along the rows of 'pred.select(1, 0)' without "
          "meeting them");
    pred.select(1, 2) = rows_of3 + operand3;
    auto rows_of4 = pred.select(1, 1);
    auto operand4 = pred.select(1, 3);
    if (!(operand4.dim() == rows_of4.dim()))
      throw std::invalid_argument(
          "graphify: the padded form of line 36 assumes that 'pred.select(1, "
          "3)' broadcasts along the rows of 'pred.select(1, 1)' without "
          "meeting them");
    pred.select(1, 3) = rows_of4 + operand4;
    std::tuple<torch::Tensor, torch::Tensor> best =
        torch::max(pred.slice(1, 5, pred.sizes()[1]), 1);
    auto rows_of5 = pred.select(1, 4);
    auto operand5 = std::get<0>(best);
    if (!(operand5.dim() == rows_of5.dim()))
      throw std::invalid_argument(
          "graphify: the padded form of line 38 assumes that "
          "'std::get<0>(best)' broadcasts along the rows of 'pred.select(1, "
          "4)' without meeting them");
    pred.select(1, 4) = rows_of5 * operand5;
    pred.select(1, 5) = std::get<1>(best);
    torch::Tensor dets = pred.slice(1, 0, 6);
    dets_each.push_back(dets);
    positions_count_each.push_back(positions_count);
  }
  return std::make_tuple(pred_at_31, dets_each, positions_count_each);
}

/// graphify: host epilogue of 'suppress_per_image_padded' (reads the counts and
/// slices the padded outputs of each iteration of the loop at line 27, then
/// runs the original's host code (from line 41 in the loop, from line 62 after
/// it) on them; not a graph region)
std::vector<torch::Tensor> suppress_per_image(torch::Tensor preds, double conf,
                                              double iou) {
  std::vector<torch::Tensor> output;
  auto padded = suppress_per_image_padded(preds, conf, iou);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows = std::get<2>(padded)[iteration].item<int64_t>();
    if (std::get<0>(padded)[iteration].narrow(0, 0, rows).sizes()[0] == 0)
      continue;
    auto dets = std::get<1>(padded)[iteration].narrow(0, 0, rows);
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
        const float w =
            std::max(0.0f, std::min(dets[best_row][2].item<float>(),
                                    dets[other][2].item<float>()) -
                               std::max(dets[best_row][0].item<float>(),
                                        dets[other][0].item<float>()));
        const float h =
            std::max(0.0f, std::min(dets[best_row][3].item<float>(),
                                    dets[other][3].item<float>()) -
                               std::max(dets[best_row][1].item<float>(),
                                        dets[other][1].item<float>()));
        overlap[j - 1] = w * h;
      }
      order = torch::index_select(
          order, 0, torch::nonzero(overlap <= iou).select(1, 0) + 1);
    }
    keep = keep.toType(torch::kInt64);
    output.push_back(torch::index_select(dets, 0, keep.slice(0, 0, kept)));
  }
  return output;
}

// The guard reads the values the iteration writes afterwards: the epilogue tests a copy taken at
// the guard.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>>
confident_per_image_padded(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> kept_count_each;
  std::vector<torch::Tensor> kept_at_71;
  std::vector<torch::Tensor> output_each;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept_source = preds[i];
    auto kept_valid = preds[i].select(1, 4) > conf;
    if (kept_valid.dim() != 1 || kept_valid.size(0) != kept_source.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 70 assumes a one-dimensional mask "
          "with one element per row");
    auto kept_order = torch::argsort(
        torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
    auto kept_count = kept_valid.sum();
    auto kept = kept_source.index_select(0, kept_order);
    kept_at_71.push_back(kept.clone());
    kept.select(1, 4) *= 0.5;
    output_each.push_back(kept);
    kept_count_each.push_back(kept_count);
  }
  return std::make_tuple(kept_at_71, output_each, kept_count_each);
}

/// graphify: host epilogue of 'confident_per_image_padded' (reads the counts
/// and slices the padded outputs of each iteration of the loop at line 69, then
/// runs the original's host code (from line 76 after it) on them; not a graph
/// region)
std::vector<torch::Tensor> confident_per_image(torch::Tensor preds,
                                               double conf) {
  std::vector<torch::Tensor> output;
  auto padded = confident_per_image_padded(preds, conf);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows = std::get<2>(padded)[iteration].item<int64_t>();
    if (!std::get<0>(padded)[iteration]
             .narrow(0, 0, rows)
             .select(1, 4)
             .gt(0.9)
             .any()
             .item<bool>())
      continue;
    output.push_back(std::get<1>(padded)[iteration].narrow(0, 0, rows));
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
