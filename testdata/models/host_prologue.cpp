// Image features normalised with per-channel constants that the function builds from host values
// (ImageNet's mean and standard deviation, written as braced lists) and copies to the images'
// device, then pooled and projected. On a GPU each copy reads pageable memory and synchronises
// with the host, which capture forbids (the CPU capture refuses them through the runtime's
// host-memory marks); no factory on the device builds a list of host values, so the fix splits
// the function after the copies: a core that does the rest and returns the result, and the
// function, now a host prologue, that makes the copies and calls it (split-at-host-boundary).
#include <graphify/annotations.h>
#include <torch/torch.h>

// graphify-entry: images: f32[2,3,4,4], weight: f32[3,5]
GRAPHIFY_GRAPH_REGION torch::Tensor normalized_features(torch::Tensor images, torch::Tensor weight) {
  auto mean = torch::tensor({0.485f, 0.456f, 0.406f}).view({1, 3, 1, 1}).to(images.device());
  auto stddev = torch::tensor({0.229f, 0.224f, 0.225f}).view({1, 3, 1, 1}).to(images.device());
  auto x = (images - mean) / stddev;
  auto pooled = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
  return torch::matmul(pooled, weight).relu();
}
// graphify-expect-fix: fixed
