// selection-to-padded: argsort of padded values. Along the rows (dimension 0 of a one-dimensional
// key) the padded rows get the value that sorts last (-inf descending, NaN ascending) and the sort
// is stable, so the first `count` positions are the original's order of the selected rows and
// every position stays in range; along another dimension the sort is row by row.
#include <torch/torch.h>

// Detections above a score, best first.
torch::Tensor ranked(torch::Tensor boxes, torch::Tensor scores, double t) {
  auto keep = scores > t;
  auto kept_boxes = boxes.index({keep});
  auto kept_scores = scores.index({keep});
  auto order = kept_scores.argsort(0, true);
  return kept_boxes.index_select(0, order);
}

// Ascending, through the function form with the stability flag; two outputs gathered alike.
std::tuple<torch::Tensor, torch::Tensor> ranked_up(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = scores > 0.5;
  auto kept_scores = scores.index({keep});
  auto order = torch::argsort(kept_scores, true, 0, false);
  return {boxes.index({keep}).index_select(0, order), kept_scores.index_select(0, order)};
}

// A key proven floating-point (a sigmoid) is checked for its rank only; the direction is a parameter.
torch::Tensor by_probability(torch::Tensor logits, bool descending) {
  auto kept = logits.index({logits.select(1, 0) > 0});
  auto probs = kept.select(1, 1).sigmoid();
  auto order = probs.argsort(0, descending);
  return kept.index_select(0, order);
}

// Along the columns: each row sorted on its own, the rows stay where they are.
torch::Tensor column_ranks(torch::Tensor x) {
  auto kept = x.index({x.select(1, 0) > 0});
  return kept.argsort(1, false);
}

// The default (last) dimension is the rows only for a key of one dimension.
torch::Tensor default_dimension(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = scores > 0;
  auto kept_scores = scores.index({keep}); // EXPECT-RECIPE: not rewritten automatically: 'kept_scores.argsort\(\)' \(line 42\) sorts along the last dimension, which is the rows of the selection only if 'kept_scores' has one dimension, which cannot be proven
  auto order = kept_scores.argsort();
  return boxes.index({keep}).index_select(0, order);
}
