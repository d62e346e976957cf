// LibTorch's CUDAGraph: the code between capture_begin() and capture_end() on the same graph
// object is captured, so host reads there are reported; warm-up before and reads after replay
// are not. The class is declared as ATen/cuda/CUDAGraph.h declares it: Debian's LibTorch is a
// CPU build whose c10/cuda headers do not compile.
#include <torch/torch.h>

namespace at::cuda {
struct CUDAGraph {
  void capture_begin(std::pair<unsigned long long, unsigned long long> pool = {0, 0});
  void capture_end();
  void replay();
};
} // namespace at::cuda

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor step(torch::Tensor x) { return fc->forward(x).relu(); }
};

static float peek(const torch::Tensor &t) {
  return t.max().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

torch::Tensor captureAndReplay(Net &net, torch::Tensor static_in) {
  torch::Tensor warm = net.step(static_in);
  float before = warm.sum().item<float>();
  at::cuda::CUDAGraph graph;
  torch::Tensor static_out;
  graph.capture_begin();
  static_out = net.step(static_in);
  float inside = static_out.sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  float seen = peek(static_out);
  graph.capture_end();
  graph.replay();
  float after = static_out.sum().item<float>();
  return static_out * (before + inside + seen + after);
}
