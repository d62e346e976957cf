// A step captured here whose checks call the helpers of status.cpp: what runs only when the
// helper says no capture is running is not captured; a helper that queries no status guards
// nothing.
#include "status.h"

static void readOverflow(cudaStream_t s, int *host, const int *device) {
  if (streamIsCapturing(s))
    return;
  cudaMemcpy(host, device, sizeof(int), cudaMemcpyDeviceToHost);
}

static void drain(cudaStream_t s) {
  if (streamIsIdle(s))
    cudaStreamSynchronize(s);
  if (streamIsReady(s))
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

void captureStep(cudaStream_t s, cudaGraph_t *g, int *host, const int *device) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  readOverflow(s, host, device);
  drain(s);
  cudaStreamEndCapture(s, g);
}
