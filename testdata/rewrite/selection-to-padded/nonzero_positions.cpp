// selection-to-padded: a selection written as a gather by the positions of a mask's true elements
// (`x.index_select(0, m.nonzero().select(1, 0))`, `.squeeze(1)`) is the selection `x.index({m})`:
// padded, the positions are the stable order that puts them first, every row a position of the
// mask, and gathers by them stay in range.
#include <torch/torch.h>

torch::Tensor strong_rows(torch::Tensor x, double t) {
  auto rows = x.index_select(0, torch::nonzero(x.select(1, 4) > t).select(1, 0));
  if (rows.size(0) == 0)
    return torch::zeros({0, 4});
  auto boxes = rows.slice(1, 0, 4);
  auto scores = rows.select(1, 4).unsqueeze(1);
  return boxes * scores;
}

torch::Tensor by_label(torch::Tensor boxes, torch::Tensor labels, int64_t c) {
  auto at = (labels == c).nonzero().squeeze(1);
  return boxes.index_select(0, at);
}

// unsqueeze(1) keeps the positions two-dimensional ([K, 1, 1] here): not a list of positions, so
// it is left as it is (the finding keeps its recipe).
torch::Tensor nested_positions(torch::Tensor x) {
  return x.index({(x > 0).nonzero().unsqueeze(1)});
}
