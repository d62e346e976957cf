// Post-processing that finishes on the host: the class scores are computed on the device, copied
// to the CPU, and a host loop keeps the rows above a threshold (a value-dependent number of them)
// as a flat list of (row, class, score). The copy is a device-to-host sync in the middle of the
// region; split-at-host-boundary moves it, and the host loop after it, out of the capturable
// part: a core computing the scores on the device, and the entry as a host epilogue.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <vector>

// graphify-entry: logits: f32[6,3], bias: f32[3]
GRAPHIFY_GRAPH_REGION torch::Tensor confident_classes(torch::Tensor logits, torch::Tensor bias) {
  auto probs = torch::softmax(logits + bias, 1);
  auto best = probs.max(1);
  auto scores = std::get<0>(best).contiguous();
  auto classes = std::get<1>(best).to(torch::kFloat).contiguous();
  auto host_scores = scores.to(torch::kCPU);
  auto host_classes = classes.to(torch::kCPU);
  auto s = host_scores.accessor<float, 1>();
  auto c = host_classes.accessor<float, 1>();
  std::vector<float> kept;
  for (int64_t i = 0; i < host_scores.size(0); ++i)
    if (s[i] > 0.5f) {
      kept.push_back(static_cast<float>(i));
      kept.push_back(c[i]);
      kept.push_back(s[i]);
    }
  return torch::tensor(kept).view({-1, 3});
}

// The host part starts with a scalar read whose value leaves the function as a host number:
// no device form of the read keeps the entry capturable, the split keeps its device work.
// graphify-entry: logits: f32[5,4], prior: f32[4]
GRAPHIFY_GRAPH_REGION int64_t top_class(torch::Tensor logits, torch::Tensor prior) {
  auto probs = torch::softmax(logits, 1) * prior;
  auto votes = probs.sum(0);
  int64_t best = votes.argmax().item().toLong();
  return best;
}
// graphify-expect-fix: fixed
