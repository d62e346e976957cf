// Keypoint post-processing that sums and walks host lists with the standard algorithms. A call
// that walks a range is a loop over it (the packs' iterates_range: std::accumulate,
// std::for_each): data-dependent when the list's length follows tensor data, static when only
// its values do.
// RUN-ARGS: --graph-region=summarize
#include <torch/torch.h>

#include <algorithm>
#include <numeric>
#include <vector>

float summarize(const torch::Tensor &scores) {
  auto host = scores.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  std::vector<float> all(8);
  for (int i = 0; i < 8; ++i)
    all[i] = host[i].item<float>();
  std::vector<float> kept;
  for (float s : all)
    if (s > 0.5f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      kept.push_back(s);
  float total = std::accumulate(kept.begin(), kept.end(), 0.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: loop range of 'accumulate' depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
  std::for_each(kept.begin(), kept.end(), [&](float s) { total += s * s; });
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: loop range of 'for_each' depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
  float fixed = std::accumulate(all.begin(), all.end(), 0.f);
  auto best = std::max_element(all.begin(), all.end());
  return total + fixed + *best;
}
