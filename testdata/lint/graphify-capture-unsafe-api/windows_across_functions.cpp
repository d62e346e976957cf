// Capture windows that span functions, with the CUDA prototypes declared by hand: a wrapper that
// opens the capture in one method and closes it in another (the caller's code between the two
// calls is captured), a helper that runs the work and ends a capture its caller began (captured
// up to its end call, not after), wrappers of wrappers, captures per bucket, and a helper that
// begins only when it returns true (its caller's branch for false captures nothing).
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);

// A wrapper in the style of an execution provider's CUDA graph: begin and end in two methods.
class GraphRecorder {
public:
  explicit GraphRecorder(cudaStream_t s) : stream_(s) {}
  void CaptureBegin() { cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal); }
  void CaptureEnd() {
    cudaStreamEndCapture(stream_, &graph_);
    cudaGraphInstantiate(&exec_, graph_, 0);
    cudaStreamSynchronize(stream_); // after the end: not captured
  }

private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

static void releaseScratch(void *p) {
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
static void runKernels(void *scratch) { releaseScratch(scratch); }

void captureThroughWrapper(GraphRecorder &g, cudaStream_t s, void *scratch) {
  cudaStreamSynchronize(s); // before the window
  g.CaptureBegin();
  runKernels(scratch);
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  g.CaptureEnd();
  cudaStreamSynchronize(s); // after the window
}

// A backend that begins the capture and calls a helper that runs the nodes and ends it.
static void evaluateAndEnd(cudaStream_t s, cudaGraph_t *g, int nodes) {
  for (int i = 0; i < nodes; ++i) {
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cudaStreamEndCapture(s, g);
  cudaStreamSynchronize(s); // the helper's code after its end call is not captured
}

void computeGraph(cudaStream_t s, cudaGraph_t *g, int nodes) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  evaluateAndEnd(s, g, nodes);
  cudaDeviceSynchronize(); // the helper closed the window
}

// A helper that ends a capture, called by nobody with one open: nothing of it is captured.
static void endIfCapturing(cudaStream_t s, cudaGraph_t *g) {
  cudaDeviceSynchronize();
  cudaStreamEndCapture(s, g);
}
void cleanup(cudaStream_t s, cudaGraph_t *g) { endIfCapturing(s, g); }

// Wrappers of wrappers, with the stream passed as an argument.
static void beginOn(cudaStream_t s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal); }
static void endOn(cudaStream_t s, cudaGraph_t *g) { cudaStreamEndCapture(s, g); }
static void startRecording(cudaStream_t s) { beginOn(s); }

void recordTwice(cudaStream_t a, cudaStream_t b, cudaGraph_t *ga, cudaGraph_t *gb) {
  startRecording(a);
  beginOn(b);
  endOn(b, gb);
  cudaStreamSynchronize(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  endOn(a, ga);
  cudaStreamSynchronize(a);
}

// A cleanup routine that synchronises, run while the caller's capture is open.
struct Arena {
  void *block = nullptr;
  void reset() {
    cudaFree(block);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};

void captureStep(GraphRecorder &g, Arena &arena) {
  g.CaptureBegin();
  arena.reset();
  g.CaptureEnd();
}

// Captures per bucket in a loop: each iteration's window, closed by its own end call.
void captureBuckets(GraphRecorder *graphs, const int *sizes, int n, void *scratch) {
  for (int bs = 0; bs < n; ++bs) {
    cudaDeviceSynchronize(); // warm-up before the bucket's capture
    graphs[bs].CaptureBegin();
    runKernels(scratch);
    graphs[bs].CaptureEnd();
  }
}

// An end call inside a branch closes the window there: what follows it in the branch is not
// captured (the other branch's end closes nothing new).
bool replayReady(cudaStream_t s);
void captureOrFallBack(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (replayReady(s)) {
    cudaStreamEndCapture(s, g);
    cudaStreamSynchronize(s);
  } else {
    cudaStreamEndCapture(s, g);
  }
  cudaDeviceSynchronize();
}

// An execution provider called through its interface: the overriders' begin and end make the
// virtual calls open and close the window, and the kernels run between them are captured.
struct ExecutionProvider {
  virtual ~ExecutionProvider() = default;
  virtual void OnRunStart() {}
  virtual void OnRunEnd() {}
};
struct CudaProvider : ExecutionProvider {
  void OnRunStart() override { graph_.CaptureBegin(); }
  void OnRunEnd() override { graph_.CaptureEnd(); }
  GraphRecorder graph_{nullptr};
};
struct Kernel {
  virtual ~Kernel() = default;
  virtual void Compute(cudaStream_t s) = 0;
};
struct ReduceKernel : Kernel {
  void Compute(cudaStream_t s) override {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};
void runSession(ExecutionProvider &ep, Kernel **kernels, int n, cudaStream_t s) {
  cudaDeviceSynchronize();
  ep.OnRunStart();
  for (int i = 0; i < n; ++i)
    kernels[i]->Compute(s);
  ep.OnRunEnd();
  cudaDeviceSynchronize();
}

// Begins only when it returns true: the caller's branch for false runs uncaptured.
static bool beginIfSupported(cudaStream_t s, bool supported) {
  if (!supported)
    return false;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  return true;
}

void stepWithFallback(cudaStream_t s, cudaGraph_t *g, bool supported) {
  if (!beginIfSupported(s, supported)) {
    cudaStreamSynchronize(s); // eager fallback: nothing was begun
    return;
  }
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
}

void stepWhenSupported(cudaStream_t s, cudaGraph_t *g, bool supported) {
  if (beginIfSupported(s, supported)) {
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s, g);
  } else {
    cudaDeviceSynchronize(); // not begun on this branch
  }
}
