// The driver API's capture calls are macros (cuStreamBeginCapture -> cuStreamBeginCapture_v2,
// cuMemAlloc -> cuMemAlloc_v2); findings name what the user wrote. Relaxed mode permits
// allocation, not synchronisation.
#include <cuda.h>

void captureGlobal(CUstream s) {
  CUgraph g;
  CUdeviceptr p;
  cuMemAlloc(&p, 64);
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemAlloc(&p, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemAlloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cuStreamEndCapture(s, &g);
  cuCtxSynchronize();
}

void captureRelaxed(CUstream s) {
  CUgraph g;
  CUdeviceptr p;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
  cuMemAlloc(&p, 64);
  cuCtxSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuCtxSynchronize' waits for the whole context; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cuStreamEndCapture(s, &g);
}

void captureToGraph(CUstream s, CUgraph g) {
  cuStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cuStreamEndCapture(s, &g);
}
