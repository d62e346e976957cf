// The flags and their tests. `graphCapturing` is written only by its setter, which the render
// loop calls with true where it begins a capture and false where it ends it: while it holds, a
// capture runs, and the synchronisation it skips is never captured. `recording` is set true by a
// call away from any begin call as well: it proves nothing.
#include "queue.h"

static bool graphCapturing = false;
static bool recording = false;
bool inGraph = false;
bool tracing = false;

void setGraphCapturing(bool on) { graphCapturing = on; }
void setRecording(bool on) { recording = on; }
void setInGraph(bool on) { inGraph = on; }

void queueSynchronize(cudaStream_t s) {
  if (graphCapturing)
    return;
  cudaStreamSynchronize(s);
}

void recorderSynchronize(cudaStream_t s) {
  if (recording)
    return;
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
