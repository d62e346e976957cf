// Which code is a graph region under the default --scope=graph: module forwards (also through
// TORCH_MODULE and templates), helpers they call, annotated functions and lambdas, callables
// handed to capture entries. Everything else (training loops, logging) is not reported.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <functional>
#include <iostream>

namespace gfy {
struct Graph {
  void replay();
};
Graph capture(const std::function<void()> &fn); // mirrors the bundled runtime's signature
} // namespace gfy

static torch::Tensor normalize(torch::Tensor x) {
  if (x.std().item<float>() < 1e-6f)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: value read from tensor here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return x;
  return (x - x.mean()) / x.std();
}

static float unusedHelper(torch::Tensor x) { return x.sum().item<float>(); }

struct BlockImpl : torch::nn::Module {
  BlockImpl() : fc(register_module("fc", torch::nn::Linear(8, 8))) {}
  torch::Tensor forward(torch::Tensor x) { return normalize(fc->forward(x)); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Block);

template <typename Scale> struct Scaled : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.max().item<Scale>() > Scale(1))
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:17: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x / 2;
    return x;
  }
};
template struct Scaled<float>;
template struct Scaled<double>;

#define SKIP_IF_SMALL(t)                                                                       \
  if ((t).abs().sum().item<float>() < 1.0f)                                                    \
    return t;

struct WithMacro : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    SKIP_IF_SMALL(x)
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return x * 3;
  }
};

GRAPHIFY_GRAPH_REGION torch::Tensor annotatedStep(torch::Tensor x) {
  auto n = x.numel() > 0 ? x.sum().item<float>() : 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return x * n;
}

void runCaptured(torch::Tensor in, torch::Tensor &out) {
  std::cout << "before " << in.sum().item<float>() << std::endl;
  gfy::Graph g = gfy::capture([&] {
    if (in.max().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:18: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:18: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      out = in * 2;
    else
      out = in;
  });
  g.replay();
  std::cout << "after " << out.sum().item<float>() << std::endl;
}

void trainingLoop(Block &model, torch::Tensor data) {
  for (int epoch = 0; epoch < 2; ++epoch) {
    auto loss = model->forward(data).sum();
    std::cout << "loss " << loss.item<float>() << std::endl;
    if (loss.item<float>() < 1e-3f)
      break;
  }
}
