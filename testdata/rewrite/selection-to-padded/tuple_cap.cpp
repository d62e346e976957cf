// selection-to-padded: detection post-processing that returns several tensors (a tuple of the
// kept boxes, scores and labels; a vector of parts) and caps the number of detections
// (`if (k.size(0) > max_num) k = k.slice(0, 0, max_num)`): the core returns every padded value
// and the counts, the cap clamps the count, and the epilogue rebuilds the tuple or vector.
#include <torch/torch.h>

using torch::indexing::Slice;

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> top_detections(torch::Tensor boxes, torch::Tensor scores,
                                                                       torch::Tensor labels, double score_thr,
                                                                       int max_num) {
  auto chosen = scores >= score_thr;
  boxes = boxes.index({chosen});
  scores = scores.index({chosen});
  labels = labels.index({chosen});
  if (max_num != -1 && boxes.size(0) > max_num) {
    boxes = boxes.slice(0, 0, max_num);
    scores = scores.slice(0, 0, max_num);
  }
  return std::make_tuple(boxes, scores * 2, labels);
}

std::vector<torch::Tensor> split_parts(torch::Tensor x, int64_t limit) {
  auto keep = x.select(1, 0) > 0;
  auto kept = x.index({keep});
  if (kept.size(0) == 0)
    return {};
  if (kept.size(0) > limit)
    kept = kept.index({Slice(torch::indexing::None, limit)});
  return {kept.slice(1, 0, 2), kept.slice(1, 2, 4)};
}
