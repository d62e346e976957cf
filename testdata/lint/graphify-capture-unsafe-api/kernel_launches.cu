// A CUDA source, parsed host-side with the toolkit: kernel launches and runtime calls inside a
// capture window; kernel bodies are device code and are not checked.
#include <cuda_runtime.h>

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

static void launchOnDefault(float *x) {
  scale<<<1, 32>>>(x, 2.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch without a stream runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream as the fourth <<<>>> argument [graphify-capture-unsafe-api]
}

void captureStep(float *x, cudaStream_t s, cudaGraph_t *g) {
  scale<<<1, 32>>>(x, 2.f);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<1, 32, 0, s>>>(x, 2.f);
  scale<<<1, 32>>>(x, 2.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch without a stream runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream as the fourth <<<>>> argument [graphify-capture-unsafe-api]
  scale<<<1, 32, 0, nullptr>>>(x, 2.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch without a stream runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream as the fourth <<<>>> argument [graphify-capture-unsafe-api]
  launchOnDefault(x);
  float host = 0;
  cudaMemcpy(&host, x, sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' copies synchronously on the legacy default stream; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaMemcpyAsync(&host, x, sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, g);
  cudaStreamSynchronize(s);
  scale<<<1, 32>>>(x, 2.f);
}

// The runtime API's capture into an existing graph.
void captureToGraph(float *x, cudaStream_t s, cudaGraph_t g) {
  cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
  scale<<<1, 32>>>(x, 2.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch without a stream runs on the legacy default stream, which synchronises with the stream being captured and is illegal during CUDA stream capture; pass the capturing stream as the fourth <<<>>> argument [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, &g);
}
