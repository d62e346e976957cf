// A capture window with a device-wide synchronisation in it (CUDA prototypes declared here, so
// that no toolkit is needed): the one finding the recipes must report.
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" int cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" int cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" int cudaDeviceSynchronize(void);

void record(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  cudaStreamEndCapture(s, g);
}
