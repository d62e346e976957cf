// selection-to-padded: YOLO-style decoding indexes columns with `{Slice(), j}` (every row, one
// column); that works row by row, so the selected rows stay padded through it.
#include <torch/torch.h>

using torch::indexing::Slice;

torch::Tensor confident_centres(torch::Tensor pred, double conf) {
  auto keep = pred.index({Slice(), 4}) > conf;
  auto kept = pred.index({keep});
  auto centres = kept.index({Slice(), Slice(0, 2)});
  auto scores = kept.index({Slice(), 4}).unsqueeze(1);
  return centres * scores;
}
