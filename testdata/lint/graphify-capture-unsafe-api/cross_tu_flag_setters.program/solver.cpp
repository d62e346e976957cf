// The solver tests flags that other files write: `inGraph`, set through its setter (defined in
// queue.cpp) only around the capture in render.cpp, holds while that capture runs; `tracing` is
// also switched on by a debug dump there, so it proves nothing.
#include "queue.h"

void solverStep(cudaStream_t s) {
  launchSample(s);
  if (!inGraph)
    cudaStreamSynchronize(s);
  if (!tracing)
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
