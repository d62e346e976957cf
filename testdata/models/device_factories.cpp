// Tensors a decoder builds in host memory and copies to its input's device inside the region: a
// causal mask (triu of ones, unsqueezed and expanded through a local given a new value) and the
// positions added to the scores (arange copied with to(scores)). On a GPU each copy reads
// pageable memory and synchronises with the host, which capture forbids; the fix creates both on
// the device with the same values (host-factory-to-device), which the CPU run proves equal.
#include <graphify/annotations.h>
#include <torch/torch.h>

// graphify-entry: scores: f32[2,5,5]
GRAPHIFY_GRAPH_REGION torch::Tensor causal_scores(torch::Tensor scores) {
  int64_t len = scores.size(1);
  torch::Tensor mask = torch::triu(torch::ones({len, len}, torch::kInt32), 1);
  mask = mask.unsqueeze(0).expand({scores.size(0), -1, -1});
  auto positions = torch::arange(len).to(scores);
  return scores.masked_fill(mask.to(torch::kBool).to(scores.device()), -1e9) + positions;
}

// One-number tensors of host values (a threshold, an offset) copied to the scores' device: each
// is filled on the device instead (torch::tensor given the device's options), the same number.
// graphify-entry: scores: f32[2,5,5]
GRAPHIFY_GRAPH_REGION torch::Tensor offset_scores(torch::Tensor scores) {
  float conf = 0.25f;
  int64_t pad = scores.size(2) / 2;
  auto threshold = torch::tensor(conf).to(scores.device());
  auto offset = torch::tensor(pad, torch::kFloat32).to(scores.device());
  return torch::where(scores > threshold, scores - offset, torch::zeros_like(scores));
}
// graphify-expect-fix: fixed
