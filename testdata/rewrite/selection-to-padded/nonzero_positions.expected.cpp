// selection-to-padded: a selection written as a gather by the positions of a mask's true elements
// (`x.index_select(0, m.nonzero().select(1, 0))`, `.squeeze(1)`) is the selection `x.index({m})`:
// padded, the positions are the stable order that puts them first, every row a position of the
// mask, and gathers by them stay in range.
#include <torch/torch.h>

static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
strong_rows_padded(torch::Tensor x, double t) {
  auto positions_of = x.select(1, 4) > t;
  if (positions_of.dim() != 1)
    throw std::invalid_argument("graphify: the padded form of line 8 assumes a "
                                "one-dimensional 'x.select(1, 4) > t'");
  auto positions_valid = positions_of;
  auto positions_order = torch::argsort(
      torch::logical_not(positions_valid).to(torch::kInt), /*stable=*/true, 0);
  auto positions_count = positions_valid.sum();
  if (x.dim() == 0 || x.size(0) < positions_of.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 8 assumes that 'x' has a row for "
        "every position it is gathered at");
  auto rows = x.index_select(0, positions_order);
  auto rows_at_9 = rows;
  auto boxes = rows.slice(1, 0, 4);
  auto scores = rows.select(1, 4).unsqueeze(1);
  if (!(scores.dim() == boxes.dim()))
    throw std::invalid_argument(
        "graphify: the padded form of line 13 assumes that 'scores' broadcasts "
        "along the rows of 'boxes' without meeting them");
  return std::make_tuple(boxes * scores, rows_at_9, positions_count);
}

/// graphify: host epilogue of 'strong_rows_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor strong_rows(torch::Tensor x, double t) {
  auto padded = strong_rows_padded(x, t);
  const int64_t rows2 = std::get<2>(padded).item<int64_t>();
  if (std::get<1>(padded).narrow(0, 0, rows2).size(0) == 0)
    return torch::zeros({0, 4});
  return std::get<0>(padded).narrow(0, 0, rows2);
}

static std::tuple<torch::Tensor, torch::Tensor>
by_label_padded(torch::Tensor boxes, torch::Tensor labels, int64_t c) {
  auto at_of = (labels == c);
  if (at_of.dim() != 1)
    throw std::invalid_argument("graphify: the padded form of line 17 assumes "
                                "a one-dimensional '(labels == c)'");
  auto at_valid = at_of;
  auto at_order = torch::argsort(torch::logical_not(at_valid).to(torch::kInt),
                                 /*stable=*/true, 0);
  auto at_count = at_valid.sum();
  auto at = at_order;
  if (boxes.dim() == 0 || boxes.size(0) < at_of.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 18 assumes that 'boxes' has a row "
        "for every position it is gathered at");
  return std::make_tuple(boxes.index_select(0, at), at_count);
}

/// graphify: host epilogue of 'by_label_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor by_label(torch::Tensor boxes, torch::Tensor labels, int64_t c) {
  auto padded = by_label_padded(boxes, labels, c);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// unsqueeze(1) keeps the positions two-dimensional ([K, 1, 1] here): not a list of positions, so
// it is left as it is (the finding keeps its recipe).
torch::Tensor nested_positions(torch::Tensor x) {
  return x.index({(x > 0).nonzero().unsqueeze(1)});
}
