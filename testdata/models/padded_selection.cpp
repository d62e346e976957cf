// A score filter whose survivors leave the function, the shape of detection post-processing: the
// selections' row count depends on the scores, an early return tests it, and a second filter
// narrows the first one's rows. selection-to-padded splits the function into a capturable core
// (every selection padded to the rows it came from, with its count) and a host epilogue with the
// original signature that slices by the counts.
#include <graphify/annotations.h>
#include <torch/torch.h>

// graphify-entry: boxes: f32[6,4], scores: f32[6]
GRAPHIFY_GRAPH_REGION torch::Tensor confident_boxes(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = scores > 0;
  auto kept = boxes.index({keep});
  if (kept.size(0) == 0)
    return torch::zeros({0, 4});
  auto picked = scores.index({keep});
  auto strong_mask = picked > 0.5;
  auto strong = kept.index({strong_mask});
  auto strong_scores = picked.index({strong_mask}).unsqueeze(1);
  return strong * strong_scores;
}
// graphify-expect-fix: fixed
