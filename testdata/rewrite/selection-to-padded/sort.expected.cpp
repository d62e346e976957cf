// selection-to-padded: argsort of padded values. Along the rows (dimension 0 of a one-dimensional
// key) the padded rows get the value that sorts last (-inf descending, NaN ascending) and the sort
// is stable, so the first `count` positions are the original's order of the selected rows and
// every position stays in range; along another dimension the sort is row by row.
#include <torch/torch.h>

// Detections above a score, best first.
static std::tuple<torch::Tensor, torch::Tensor>
ranked_padded(torch::Tensor boxes, torch::Tensor scores, double t) {
  auto keep = scores > t;
  auto kept_boxes_valid = keep;
  if (kept_boxes_valid.dim() != 1 || kept_boxes_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 10 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_boxes_order = torch::argsort(
      torch::logical_not(kept_boxes_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_boxes_count = kept_boxes_valid.sum();
  auto kept_boxes = boxes.index_select(0, kept_boxes_order);
  auto kept_scores = scores.index_select(0, kept_boxes_order);
  if (kept_scores.dim() != 1 || !kept_scores.is_floating_point())
    throw std::invalid_argument(
        "graphify: the padded form of line 12 assumes a one-dimensional "
        "floating-point 'kept_scores'");
  auto order_padded_key = kept_scores.masked_fill(
      torch::arange(kept_scores.size(0), kept_boxes_count.options()) >=
          kept_boxes_count,
      -std::numeric_limits<double>::infinity());
  auto order_order = torch::argsort(order_padded_key, /*stable=*/true, 0, true);
  auto order = order_order;
  return std::make_tuple(kept_boxes.index_select(0, order), kept_boxes_count);
}

/// graphify: host epilogue of 'ranked_padded' (reads the counts and slices the
/// padded outputs; not a graph region)
torch::Tensor ranked(torch::Tensor boxes, torch::Tensor scores, double t) {
  auto padded = ranked_padded(boxes, scores, t);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// Ascending, through the function form with the stability flag; two outputs gathered alike.
static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
ranked_up_padded(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = scores > 0.5;
  auto kept_scores_valid = keep;
  if (kept_scores_valid.dim() != 1 ||
      kept_scores_valid.size(0) != scores.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 19 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_scores_order =
      torch::argsort(torch::logical_not(kept_scores_valid).to(torch::kInt),
                     /*stable=*/true, 0);
  auto kept_scores_count = kept_scores_valid.sum();
  auto kept_scores = scores.index_select(0, kept_scores_order);
  if (kept_scores.dim() != 1 || !kept_scores.is_floating_point())
    throw std::invalid_argument(
        "graphify: the padded form of line 20 assumes a one-dimensional "
        "floating-point 'kept_scores'");
  auto order_padded_key = kept_scores.masked_fill(
      torch::arange(kept_scores.size(0), kept_scores_count.options()) >=
          kept_scores_count,
      std::numeric_limits<double>::quiet_NaN());
  auto order_order =
      torch::argsort(order_padded_key, /*stable=*/true, 0, false);
  auto order = order_order;
  return std::make_tuple(
      boxes.index_select(0, kept_scores_order).index_select(0, order),
      kept_scores.index_select(0, order), kept_scores_count);
}

/// graphify: host epilogue of 'ranked_up_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
std::tuple<torch::Tensor, torch::Tensor> ranked_up(torch::Tensor boxes,
                                                   torch::Tensor scores) {
  auto padded = ranked_up_padded(boxes, scores);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  return {std::get<0>(padded).narrow(0, 0, rows),
          std::get<1>(padded).narrow(0, 0, rows)};
}

// A key proven floating-point (a sigmoid) is checked for its rank only; the direction is a parameter.
static std::tuple<torch::Tensor, torch::Tensor>
by_probability_padded(torch::Tensor logits, bool descending) {
  auto kept_valid = logits.select(1, 0) > 0;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != logits.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 26 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = logits.index_select(0, kept_order);
  auto probs = kept.select(1, 1).sigmoid();
  if (probs.dim() != 1)
    throw std::invalid_argument("graphify: the padded form of line 28 assumes "
                                "a one-dimensional 'probs'");
  auto order_padded_key = probs.masked_fill(
      torch::arange(probs.size(0), kept_count.options()) >= kept_count,
      (descending ? -std::numeric_limits<double>::infinity()
                  : std::numeric_limits<double>::quiet_NaN()));
  auto order_order =
      torch::argsort(order_padded_key, /*stable=*/true, 0, descending);
  auto order = order_order;
  return std::make_tuple(kept.index_select(0, order), kept_count);
}

/// graphify: host epilogue of 'by_probability_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor by_probability(torch::Tensor logits, bool descending) {
  auto padded = by_probability_padded(logits, descending);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// Along the columns: each row sorted on its own, the rows stay where they are.
static std::tuple<torch::Tensor, torch::Tensor>
column_ranks_padded(torch::Tensor x) {
  auto kept_valid = x.select(1, 0) > 0;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != x.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 34 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = x.index_select(0, kept_order);
  return std::make_tuple(kept.argsort(1, false), kept_count);
}

/// graphify: host epilogue of 'column_ranks_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor column_ranks(torch::Tensor x) {
  auto padded = column_ranks_padded(x);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// The default (last) dimension is the rows only for a key of one dimension.
torch::Tensor default_dimension(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = scores > 0;
  auto kept_scores = scores.index({keep}); // EXPECT-RECIPE: not rewritten automatically: 'kept_scores.argsort\(\)' \(line 42\) sorts along the last dimension, which is the rows of the selection only if 'kept_scores' has one dimension, which cannot be proven
  auto order = kept_scores.argsort();
  return boxes.index({keep}).index_select(0, order);
}
