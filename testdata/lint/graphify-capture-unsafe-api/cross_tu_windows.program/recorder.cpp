// The wrapper: begin() returns with the capture open, end() closes it; what end() does after its
// end call is not captured. CudaProvider's OnRunStart/OnRunEnd wrap them.
#include "cuda_decls.h"

void Recorder::begin() { cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal); }

void Recorder::end() {
  cudaStreamEndCapture(stream_, &graph_);
  cudaStreamSynchronize(stream_);
}

struct CudaProvider : Provider {
  explicit CudaProvider(cudaStream_t s) : recorder(s) {}
  void OnRunStart() override { recorder.begin(); }
  void OnRunEnd() override { recorder.end(); }
  Recorder recorder;
};

Provider *makeCudaProvider(cudaStream_t s) { return new CudaProvider(s); }
