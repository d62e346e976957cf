// Capture windows with the CUDA prototypes declared by hand (no toolkit needed): the code between
// a begin-capture call and the end-capture call on the same stream, and everything it calls, is
// a graph region; the code before and after it is not.
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);

static void flushInWindow() {
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

static void flushAfterReplay() { cudaDeviceSynchronize(); }

void captureOnce(cudaStream_t s, cudaGraph_t *g) {
  void *buf = nullptr;
  cudaMalloc(&buf, 256);
  cudaStreamSynchronize(s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMalloc(&buf, 256);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  flushInWindow();
  cudaStreamEndCapture(s, g);
  cudaStreamSynchronize(s);
  flushAfterReplay();
  cudaFree(buf);
}

// Relaxed mode permits allocation (capture_relaxed_ok), not synchronisation.
void captureRelaxed(cudaStream_t s, cudaGraph_t *g) {
  void *buf = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaMalloc(&buf, 256);
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
}

// The mode chosen through a constant still counts.
constexpr cudaStreamCaptureMode kMode = cudaStreamCaptureModeRelaxed;
void captureRelaxedConstant(cudaStream_t s, cudaGraph_t *g) {
  void *buf = nullptr;
  cudaStreamBeginCapture(s, kMode);
  cudaMalloc(&buf, 256);
  cudaStreamEndCapture(s, g);
}

// Error-checking macros around the calls: the window is what lies between the two macros.
#define CUDA_TRY(call)                                                                             \
  do {                                                                                             \
    if ((call) != 0)                                                                               \
      return;                                                                                      \
  } while (0)

void captureChecked(cudaStream_t s, cudaGraph_t *g) {
  CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  CUDA_TRY(cudaDeviceSynchronize());
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  CUDA_TRY(cudaStreamEndCapture(s, g));
  CUDA_TRY(cudaDeviceSynchronize());
}

// Two streams: each window closes at the end call on its own stream.
void captureTwoStreams(cudaStream_t a, cudaStream_t b, cudaGraph_t *ga, cudaGraph_t *gb) {
  cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal);
  cudaStreamBeginCapture(b, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(b, gb);
  cudaStreamSynchronize(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(a, ga);
  cudaStreamSynchronize(a);
}

// Lambdas and templates invoked in the window are captured; a lambda called only after the
// window is not.
template <typename T> void zeroTemplate(T *p) {
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

void captureCallables(cudaStream_t s, cudaGraph_t *g, float *p) {
  auto sync = [&] {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  };
  auto notCalled = [&] { cudaDeviceSynchronize(); };
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  sync();
  zeroTemplate(p);
  cudaStreamEndCapture(s, g);
  notCalled();
}

// A begin with no end in the function: the rest of the function is captured.
void beginOnly(cudaStream_t s) {
  cudaDeviceSynchronize();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

// An end with no begin opens nothing.
void endOnly(cudaStream_t s, cudaGraph_t *g) {
  cudaDeviceSynchronize();
  cudaStreamEndCapture(s, g);
  cudaDeviceSynchronize();
}

// Capture in a loop: each iteration's window.
void captureEach(cudaStream_t s, cudaGraph_t *gs, int n) {
  for (int i = 0; i < n; ++i) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s, &gs[i]);
    cudaDeviceSynchronize();
  }
}
