// Filters written in OpenCV's CUDA style: launch on the stream the caller passes, then wait for
// the device only when that stream is the legacy NULL stream (`if (stream == 0)
// cudaDeviceSynchronize();`). A capture never runs on the NULL stream, so inside a window, where
// the caller passes the capturing stream, the wait never runs. A wait selected by a non-null
// stream does run there, and a null test of a pointer the function never launches on says
// nothing about the capture.
#include <cuda_runtime.h>

__global__ void boxKernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

void boxFilter(const float *in, float *out, int n, cudaStream_t stream) {
  boxKernel<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
  if (stream == 0)
    cudaDeviceSynchronize();
}

void copyRows(float *dst, const float *src, size_t bytes, cudaStream_t stream) {
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
  if (!stream)
    cudaDeviceSynchronize();
  if (stream != nullptr)
    return;
  cudaStreamSynchronize(stream);
}

void waitWhenGiven(float *dst, const float *src, size_t bytes, cudaStream_t stream) {
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
  if (stream)
    cudaStreamSynchronize(stream);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}}'cudaStreamSynchronize'{{.*}} [graphify-capture-unsafe-api]
}

void notAStream(float *out, float *scratch, cudaStream_t stream) {
  boxKernel<<<1, 32, 0, stream>>>(out, out, 32);
  if (scratch == nullptr)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: {{.*}}'cudaDeviceSynchronize'{{.*}} [graphify-capture-unsafe-api]
}

void captureFilters(float *a, float *b, float *scratch, size_t n, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  boxFilter(a, b, static_cast<int>(n), s);
  copyRows(a, b, n * sizeof(float), s);
  waitWhenGiven(a, b, n * sizeof(float), s);
  notAStream(a, scratch, s);
  cudaStreamEndCapture(s, g);
}
