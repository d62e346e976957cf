// Historical capture failures in LibTorch code: a batch norm that gathers per-device statistics
// with a boolean mask (`count[mask]`, as a synchronised batch norm did) inside a CUDA-graph
// capture, which synchronises to size the selection; and a first matmul inside the capture with
// no warm-up run before it, which creates the cuBLAS handle and workspace while capturing.
// CUDAGraph is declared as ATen/cuda/CUDAGraph.h declares it (Debian's LibTorch is a CPU build).
#include <torch/torch.h>

namespace at::cuda {
struct CUDAGraph {
  void capture_begin(std::pair<unsigned long long, unsigned long long> pool = {0, 0});
  void capture_end();
  void replay();
};
} // namespace at::cuda

static torch::Tensor gatheredNorm(const torch::Tensor &x, const torch::Tensor &mean, const torch::Tensor &counts) {
  auto present = counts > 0;
  auto means = mean.index({present});
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
  return (x - means.mean(0)) / (means.std(0) + 1e-5);
}

torch::Tensor captureNorm(at::cuda::CUDAGraph &graph, torch::Tensor x, torch::Tensor mean, torch::Tensor counts) {
  torch::Tensor out = gatheredNorm(x, mean, counts); // warm-up, eager: not captured
  graph.capture_begin();
  out = gatheredNorm(x, mean, counts);
  graph.capture_end();
  return out;
}

static torch::Tensor project(const torch::Tensor &x, const torch::Tensor &w) { return torch::matmul(x, w); }

torch::Tensor captureCold(at::cuda::CUDAGraph &graph, torch::Tensor x, torch::Tensor w) {
  graph.capture_begin();
  torch::Tensor y = torch::matmul(x, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'matmul' may create the cuBLAS handle and its workspace on its first call, and nothing calls it before the capture that begins at line 34; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
  graph.capture_end();
  return y;
}

torch::Tensor captureWarm(at::cuda::CUDAGraph &graph, torch::Tensor x, torch::Tensor w) {
  torch::Tensor y = project(x, w); // one eager run of the captured step
  graph.capture_begin();
  y = project(x, w);
  graph.capture_end();
  return y;
}

// Repeat counts given as a tensor size the result by their sum, read on the host; a static count
// does not.
torch::Tensor captureRepeats(at::cuda::CUDAGraph &graph, torch::Tensor x, torch::Tensor counts) {
  graph.capture_begin();
  torch::Tensor heads = x.repeat_interleave(4, 1);
  torch::Tensor rows = x.repeat_interleave(counts, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'repeat_interleave' has a data-dependent output shape: returns as many elements as the repeat counts add up to; a static graph cannot hold it [graphify-dynamic-shape]
  graph.capture_end();
  return heads.sum() + rows.sum();
}
