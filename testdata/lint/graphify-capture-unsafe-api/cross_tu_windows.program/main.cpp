// The caller: its code between rec.begin() and rec.end() (defined in recorder.cpp) is captured,
// as is the overrider of the virtual call (heads.cpp); computeGraph's window is closed by
// runNodesAndEnd in finish.cpp.
#include "cuda_decls.h"

void step(Recorder &rec, Head *head, cudaStream_t s) {
  cudaDeviceSynchronize();
  rec.begin();
  head->run(s);
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  rec.end();
  cudaDeviceSynchronize();
}

void computeGraph(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  runNodesAndEnd(s, g, 4);
  cudaStreamSynchronize(s);
}

// Through the provider's interface: its CUDA overriders (recorder.cpp) open and close the window.
void session(Provider &provider, Head *head, cudaStream_t s) {
  cudaDeviceSynchronize();
  provider.OnRunStart();
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  provider.OnRunEnd();
  cudaDeviceSynchronize();
}
