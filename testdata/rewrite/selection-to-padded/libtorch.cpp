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
