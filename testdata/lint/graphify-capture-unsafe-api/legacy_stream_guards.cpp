// LibTorch runs tensor ops on the current stream. A CUDAStreamGuard on the default stream inside a
// capture makes that the legacy NULL stream, which synchronises with the stream being captured and
// invalidates the capture; a guard on a pool stream (the capturing one, or a side stream joined by
// events) is fine. The stream and guard classes are declared as c10/cuda/CUDAStream.h and
// CUDAGuard.h declare them (Debian's LibTorch is a CPU build).
#include <torch/torch.h>

namespace c10::cuda {
struct CUDAStream {};
CUDAStream getDefaultCUDAStream(signed char device_index = -1);
CUDAStream getStreamFromPool(bool high_priority = false, signed char device_index = -1);
struct CUDAStreamGuard {
  explicit CUDAStreamGuard(CUDAStream stream);
};
} // namespace c10::cuda

namespace at::cuda {
struct CUDAGraph {
  void capture_begin();
  void capture_end();
};
} // namespace at::cuda

torch::Tensor captureWithLegacyBlock(at::cuda::CUDAGraph &graph, torch::Tensor c) {
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(side);
  graph.capture_begin();
  c.add_(1.0); // on the capturing stream
  {
    c10::cuda::CUDAStreamGuard legacy(c10::cuda::getDefaultCUDAStream());
    c.mul_(2.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'mul_' runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture (the stream guard at line 30 makes it current); keep the capturing stream current [graphify-capture-unsafe-api]
    if (c.dim() > 1)
      c = torch::relu(c);
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'relu' runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture (the stream guard at line 30 makes it current); keep the capturing stream current [graphify-capture-unsafe-api]
  }
  c.sub_(1.0); // the legacy guard's scope has ended
  graph.capture_end();
  return c;
}

// The default stream kept in a local first, then a guard back on the side stream.
torch::Tensor captureThroughLocal(at::cuda::CUDAGraph &graph, torch::Tensor c) {
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  graph.capture_begin();
  c10::cuda::CUDAStream fallback = c10::cuda::getDefaultCUDAStream();
  c10::cuda::CUDAStreamGuard legacy(fallback);
  c.div_(2.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'div_' runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture (the stream guard at line 47 makes it current); keep the capturing stream current [graphify-capture-unsafe-api]
  c10::cuda::CUDAStreamGuard back(side);
  c.mul_(3.0); // the side stream is current again
  graph.capture_end();
  return c;
}

// A stream variable that may be assigned another stream names no known stream.
torch::Tensor captureReassigned(at::cuda::CUDAGraph &graph, torch::Tensor c, bool useSide) {
  c10::cuda::CUDAStream s = c10::cuda::getDefaultCUDAStream();
  if (useSide)
    s = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(s);
  graph.capture_begin();
  c.add_(1.0);
  graph.capture_end();
  return c;
}
