// The helpers' bodies: two compare a status they queried, the third does not.
#include "status.h"

bool streamIsCapturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &st);
  return st != cudaStreamCaptureStatusNone;
}

bool streamIsIdle(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &st);
  return st == cudaStreamCaptureStatusNone;
}

static bool ready = true;
bool streamIsReady(cudaStream_t) { return ready; }
