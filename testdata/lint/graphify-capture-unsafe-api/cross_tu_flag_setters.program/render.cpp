// The render loop records one sample per graph and sets the flags around the capture.
#include "queue.h"

void recordSample(cudaStream_t s, cudaGraph_t *g) {
  setGraphCapturing(true);
  setRecording(true);
  setInGraph(true);
  tracing = true;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launchSample(s);
  queueSynchronize(s);
  recorderSynchronize(s);
  solverStep(s);
  cudaStreamEndCapture(s, g);
  setGraphCapturing(false);
  setRecording(false);
  setInGraph(false);
}

// Recording also switched on for a debug dump, with no capture: the flag no longer means one.
void dumpFrame() {
  setRecording(true);
  tracing = true;
}
