// host-position-to-device-index: a beam search that sorts a host list of (score, tokens) pairs by
// scores read from the tensors has no position to move to the device; the order itself is the
// choice, and its recipe says how to make it on the device.
#include "mock_torch.h"

#include <algorithm>
#include <utility>
#include <vector>

torch::Tensor best_beam(torch::Tensor logprobs, torch::Tensor tokens) {
  std::vector<std::pair<float, torch::Tensor>> beams;
  for (int64_t k = 0; k < 4; ++k)
    beams.push_back(std::make_pair(logprobs[k].item<float>(), tokens[k]));
  std::sort(beams.begin(), beams.end(), [](const std::pair<float, torch::Tensor> &a, const std::pair<float, torch::Tensor> &b) { return a.first > b.first; }); // EXPECT-RECIPE: keep the keys on the device and order there: stack the list's tensors .*topk or argsort.*index_select\(0, order\)
  return beams[0].second;
}
