// The wrapper: begin() returns with the capture open, end() closes it; what end() does after its
// end call is not captured.
#include "cuda_decls.h"

void Recorder::begin() { cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal); }

void Recorder::end() {
  cudaStreamEndCapture(stream_, &graph_);
  cudaStreamSynchronize(stream_);
}
