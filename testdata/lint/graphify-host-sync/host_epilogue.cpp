// A host epilogue (what --fix writes above the host half of a split function, or the
// GRAPHIFY_HOST_EPILOGUE annotation) is host code: its reads of counts are not findings, while the
// core it calls stays in the graph region of its caller.
#include <torch/torch.h>

torch::Tensor scaled_core(torch::Tensor x) {
  return x * x.sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

[[clang::annotate("graphify.host_epilogue")]] torch::Tensor scaled(torch::Tensor x) {
  auto y = scaled_core(x);
  return y.narrow(0, 0, y.sum().item<int64_t>());
}

/// graphify: host epilogue of 'scaled_core' (reads the counts and slices the padded outputs; not a graph region)
torch::Tensor scaled_again(torch::Tensor x) {
  auto y = scaled_core(x);
  return y.narrow(0, 0, y.sum().item<int64_t>());
}

[[clang::annotate("graphify.graph_region")]] torch::Tensor entry(torch::Tensor x) {
  return scaled(x) + scaled_again(x);
}
