// selection-to-padded against the real LibTorch headers: a score filter whose survivors leave the
// function (the shape of detection post-processing) becomes a padded core plus a host epilogue.
#include <torch/torch.h>

torch::Tensor confident_boxes(torch::Tensor boxes, torch::Tensor scores, double threshold) {
  auto keep = scores > threshold;
  auto kept = boxes.index({keep});
  if (kept.size(0) == 0)
    return torch::zeros({0, 4});
  auto picked = scores.index({keep});
  auto strong_mask = picked > 2 * threshold;
  auto strong = kept.index({strong_mask});
  auto low = strong.slice(1, 0, 2);
  auto high = strong.slice(1, 2, 4);
  auto centres = (low + high) / 2;
  return torch::cat({centres, strong.select(1, 0).unsqueeze(1)}, 1);
}

// A whole-selection test kept on the device: any() over the selected rows, after the test for
// none, is any() over the padded rows with copies of the first selected row in the others' place.
torch::Tensor flag_large(torch::Tensor boxes, torch::Tensor scores) {
  auto kept = boxes.index({scores > 0});
  if (0 == kept.numel())
    return boxes;
  auto large = (kept > 10).any();
  return kept * large;
}

// An early return that tests the mask, not the selection, on the host: the core keeps the mask
// and the epilogue tests it as the original did.
torch::Tensor any_positive(torch::Tensor x) {
  auto m = x > 0;
  if (!m.any().item<bool>())
    return torch::zeros({0});
  return x.index({m}) * 2;
}
