// Kernel launches and runtime calls with the toolkit's own declarations: a launch on
// cudaStreamLegacy, cudaLaunchKernel's C++ template with its defaulted stream, and a stream-less
// cudaMemcpyAsync, in a global-mode capture window. cudaStreamPerThread and the capturing stream
// are fine.
#include <cuda_runtime.h>

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

void captureLegacy(float *x, float *host, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<1, 32, 0, cudaStreamLegacy>>>(x, 2.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch on stream 'cudaStreamLegacy' runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream as the fourth <<<>>> argument [graphify-capture-unsafe-api]
  scale<<<1, 32, 0>>>(x, 2.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch without a stream runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream as the fourth <<<>>> argument [graphify-capture-unsafe-api]
  scale<<<1, 32, 0, cudaStreamPerThread>>>(x, 2.f);
  scale<<<1, 32, 0, s>>>(x, 2.f);
  float a = 2.f;
  void *args[] = {&x, &a};
  cudaLaunchKernel(scale, dim3(1), dim3(32), args);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunchKernel' without a stream launches the kernel on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaLaunchKernel(scale, dim3(1), dim3(32), args, 0, s);
  cudaMemcpyAsync(host, x, sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' without a stream enqueues the copy on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream [graphify-capture-unsafe-api]
  cudaMemcpyAsync(host, x, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, g);
  cudaMemcpyAsync(host, x, sizeof(float), cudaMemcpyDeviceToHost);
}
