// selection-to-padded: YOLO-style decoding indexes columns with `{Slice(), j}` (every row, one
// column); that works row by row, so the selected rows stay padded through it.
#include <torch/torch.h>

using torch::indexing::Slice;

static std::tuple<torch::Tensor, torch::Tensor>
confident_centres_padded(torch::Tensor pred, double conf) {
  auto keep = pred.index({Slice(), 4}) > conf;
  auto kept_valid = keep;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != pred.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 9 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = pred.index_select(0, kept_order);
  auto centres = kept.index({Slice(), Slice(0, 2)});
  auto scores = kept.index({Slice(), 4}).unsqueeze(1);
  if (!(scores.dim() == centres.dim()))
    throw std::invalid_argument(
        "graphify: the padded form of line 12 assumes that 'scores' broadcasts "
        "along the rows of 'centres' without meeting them");
  return std::make_tuple(centres * scores, kept_count);
}

/// graphify: host epilogue of 'confident_centres_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor confident_centres(torch::Tensor pred, double conf) {
  auto padded = confident_centres_padded(pred, conf);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}
