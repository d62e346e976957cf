// A flag carried into a callee: the engine passes whether it captures (`step(use_graph)` after
// `if (use_graph) begin();`, or `true` from inside the capture) and the callee skips its
// synchronisations when told so. A bool parameter that every call which may run in a capture
// passes as true while capturing decides the callee's tests like the flag itself; calls outside
// every capture may pass anything. A parameter some captured call passes otherwise (a literal
// `false`, an unrelated option), or of a function other files can call, decides nothing.
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);
void launchStep(cudaStream_t s);

static void decodeStep(cudaStream_t s, bool capturing) {
  launchStep(s);
  if (!capturing)
    cudaStreamSynchronize(s); // only eagerly
}

static void refine(cudaStream_t s, bool in_graph) {
  decodeStep(s, in_graph); // carried one level further
  if (in_graph)
    return;
  cudaDeviceSynchronize();
}

void generate(cudaStream_t s, cudaGraph_t *g, bool use_graph) {
  if (use_graph)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  decodeStep(s, use_graph);
  refine(s, use_graph);
  if (use_graph)
    cudaStreamEndCapture(s, g);
}

void captureOnce(cudaStream_t s, cudaGraph_t *g) {
  decodeStep(s, false); // warm-up, before the capture
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  decodeStep(s, true);
  cudaStreamEndCapture(s, g);
}

// Told `false` inside the capture: the sync runs there.
static void flushStep(cudaStream_t s, bool capturing) {
  if (!capturing)
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
void captureFlushing(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  flushStep(s, true);
  flushStep(s, false);
  cudaStreamEndCapture(s, g);
}

// An option that has nothing to do with the capture.
struct Options {
  bool quiet = false;
};
static void logStep(cudaStream_t s, bool quiet) {
  if (!quiet)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
void captureLogging(cudaStream_t s, cudaGraph_t *g, const Options &o) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  logStep(s, o.quiet);
  cudaStreamEndCapture(s, g);
}

// A runtime's copy with a `sync` switch, told `false` in every captured call and `true` only
// after the capture ends: its synchronous branch never runs in a capture.
enum cudaMemcpyKind { cudaMemcpyDeviceToDevice = 3 };
extern "C" cudaError_t cudaMemcpy(void *, const void *, unsigned long, cudaMemcpyKind);
extern "C" cudaError_t cudaMemcpyAsync(void *, const void *, unsigned long, cudaMemcpyKind, cudaStream_t);
class Runtime {
public:
  void copy(void *dst, const void *src, unsigned long n, bool sync) {
    if (sync)
      cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
    else
      cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream_);
  }
  void capture(cudaGraph_t *g, void *dst, const void *src) {
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    copy(dst, src, 64, false);
    cudaStreamEndCapture(stream_, g);
    copy(dst, src, 64, true);
  }

private:
  cudaStream_t stream_ = nullptr;
};
