// RUN-ARGS: --graph-region=Engine::step* --graph-region=*::decode
// Globs on qualified names make functions graph regions (GraphRegions: in the config);
// annotated lambda variables are regions too.
#include <graphify/annotations.h>
#include <torch/torch.h>

struct Engine {
  torch::Tensor stepOnce(torch::Tensor x) {
    if (x.mean().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:18: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:18: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x;
    return x * 0;
  }
  torch::Tensor other(torch::Tensor x) {
    if (x.mean().item<float>() > 0)
      return x;
    return x * 0;
  }
};

namespace text {
torch::Tensor decode(torch::Tensor logits) {
  int64_t best = logits.argmax().item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return torch::zeros({best});
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: size argument of 'zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-NOTES: :[[@LINE-4]]:34: note: value read from tensor here
}
} // namespace text

torch::Tensor driver(torch::Tensor x) {
  GRAPHIFY_GRAPH_REGION auto body = [&](torch::Tensor y) {
    return y.sum().item<float>() > 1 ? y : -y;
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:20: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:20: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  };
  auto notRegion = [&](torch::Tensor y) { return y.sum().item<float>(); };
  return body(x) * notRegion(x);
}
