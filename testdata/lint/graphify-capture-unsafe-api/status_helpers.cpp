// Capture status as engines test it, with the CUDA prototypes declared by hand: an early return
// when the status is another than idle (`== cudaStreamCaptureStatusActive`), the project's bool
// helpers that wrap a status query, and a bool begin helper that returns whether the begin call
// succeeded (true is success for a bool, not zero).
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaMemcpyKind { cudaMemcpyDeviceToHost = 2 };
static const cudaError_t cudaSuccess = 0;
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *);
extern "C" cudaError_t cudaStreamGetCaptureInfo(cudaStream_t, cudaStreamCaptureStatus *, unsigned long long *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaMemcpy(void *, const void *, unsigned long, cudaMemcpyKind);
extern "C" int cublasGetVector(int, int, const void *, int, void *, int);
void launchStep(cudaStream_t s);

// Returns early while a capture is active: the copy after it runs only on an idle stream.
int readFlag(const int *device_flag, int *host_flag, cudaStream_t s) {
  cudaStreamCaptureStatus st;
  unsigned long long id = 0;
  cudaStreamGetCaptureInfo(s, &st, &id);
  if (st == cudaStreamCaptureStatusActive)
    return -1;
  cudaMemcpy(host_flag, device_flag, sizeof(int), cudaMemcpyDeviceToHost);
  return *host_flag;
}

// Synchronises exactly when the stream is capturing: reported.
void flushWhileCapturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &st);
  if (st == cudaStreamCaptureStatusActive)
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

// The project's helpers that say whether a stream is capturing.
static bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &st);
  return st != cudaStreamCaptureStatusNone;
}
static bool recording(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &st);
  return st == cudaStreamCaptureStatusActive;
}

void *allocate(unsigned long bytes, cudaStream_t s) {
  void *p = nullptr;
  if (!capturing(s))
    cudaMalloc(&p, bytes);
  return p;
}

void release(void *p, cudaStream_t s) {
  if (recording(s))
    return;
  cudaFree(p);
}

// A status-free helper decides nothing: its sync is captured.
static bool verbose(cudaStream_t) { return true; }
void report(cudaStream_t s) {
  if (verbose(s))
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

// A begin helper returning whether the begin call succeeded: the caller's fallback for false
// began nothing; the code after it is captured.
static bool beginCapture(cudaStream_t s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess;
}

void captureSteps(cudaStream_t s, cudaGraph_t *g, unsigned long bytes, const float *dx, float *hx) {
  if (!beginCapture(s)) {
    cudaStreamSynchronize(s); // nothing was begun
    return;
  }
  void *scratch = allocate(bytes, s);
  launchStep(s);
  release(scratch, s);
  report(s);
  int flag = readFlag(nullptr, nullptr, s);
  (void)flag;
  flushWhileCapturing(s);
  cublasGetVector(4, sizeof(float), dx, 1, hx, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasGetVector' copies a vector synchronously to the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
}
