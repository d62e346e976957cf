// host-factory-to-device beside a size that follows the data: a tracker numbers the detections
// that pass the score threshold with a host arange copied to the device. The copy is fixed (the
// range is built on the device); the length is still the selection's, so the size finding keeps
// its own advice (pad to a static bound) instead of borrowing the copy's fix.
#include <torch/torch.h>

torch::Tensor number_detections(const torch::Tensor &scores, double threshold) {
  auto kept = (scores > threshold).nonzero().squeeze(1);
  auto ids = torch::arange(kept.size(0), torch::kLong).to(scores.device()); // EXPECT-RECIPE: ^the size of a selection depends on the values
  return ids;
}
