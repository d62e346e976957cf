// An application's own "in graph" flag: engines keep a bool that is set true where they begin a
// capture and false where they end it (a graph runner's `capturing_`, a thread-local `in_graph`),
// and skip their synchronisations while it holds. A branch on such a flag decides like a capture
// status query. A flag written anywhere else — to a value not a literal, true away from a begin
// call, false away from an end call or a constructor, or through its address — proves nothing.
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
void launchStep(cudaStream_t s);

class GraphRunner {
public:
  explicit GraphRunner(cudaStream_t s) : stream_(s), capturing_(false) {}
  void begin() {
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    capturing_ = true;
  }
  void end() {
    cudaStreamEndCapture(stream_, &graph_);
    capturing_ = false;
  }
  bool isCapturing() const { return capturing_; }
  bool idle() const { return !capturing_; }

  // Synchronises only outside the runner's own capture.
  void flush() {
    if (!capturing_)
      cudaStreamSynchronize(stream_);
  }
  void drain() {
    if (isCapturing())
      return;
    cudaStreamSynchronize(stream_);
  }
  void *scratch(unsigned long n) {
    void *p = nullptr;
    if (idle())
      cudaMalloc(&p, n);
    return p;
  }
  // The flag holds exactly while capturing: this branch is the captured one.
  void check() {
    if (capturing_)
      cudaStreamSynchronize(stream_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }

private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  bool capturing_;
};

void runStep(GraphRunner &runner, cudaStream_t s) {
  runner.begin();
  launchStep(s);
  runner.flush();
  runner.drain();
  launchStep(s);
  (void)runner.scratch(64);
  runner.check();
  runner.end();
}

// A thread-local flag set around a capture in one function.
thread_local bool in_graph = false;
void syncUnlessCapturing() {
  if (!in_graph)
    cudaDeviceSynchronize();
}
void captureWithFlag(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  in_graph = true;
  launchStep(s);
  syncUnlessCapturing();
  in_graph = false;
  cudaStreamEndCapture(s, g);
}

// A flag that other code also clears (a debugging switch) says nothing about the capture.
bool graph_mode = false;
void setEager() { graph_mode = false; }
void syncUnlessGraph() {
  if (!graph_mode)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
void captureWithLooseFlag(cudaStream_t s, cudaGraph_t *g) {
  graph_mode = true;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launchStep(s);
  syncUnlessGraph();
  cudaStreamEndCapture(s, g);
  graph_mode = false;
}

// A flag copied from a parameter: not the capture's own.
struct Options {
  bool use_graph = false;
};
void syncUnlessOption(const Options &o) {
  if (!o.use_graph)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}
void captureWithOption(cudaStream_t s, cudaGraph_t *g, Options &o, bool wanted) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  o.use_graph = wanted;
  syncUnlessOption(o);
  cudaStreamEndCapture(s, g);
}

// The flag handed out by reference from a function's static local (TurboMind's style).
inline bool &isCapturing() {
  static thread_local bool flag = false;
  return flag;
}
void dumpUnlessCapturing(cudaStream_t s) {
  if (!isCapturing())
    cudaStreamSynchronize(s);
}
void captureDecode(cudaStream_t s, cudaGraph_t *g) {
  isCapturing() = true;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  dumpUnlessCapturing(s);
  cudaStreamEndCapture(s, g);
  isCapturing() = false;
}

// A call through a function pointer in the file: the search for flags reads every body.
void (*onStep)(cudaStream_t) = nullptr;
void stepHook(cudaStream_t s) {
  if (onStep)
    onStep(s);
}

// A constructor that leaves the flag to its default member initialiser (`= false`) clears it
// as one that writes `false` does (Blender Cycles' device queue).
class DeviceQueue {
public:
  explicit DeviceQueue(cudaStream_t s) : stream_(s) {}
  void synchronize() {
    if (capturing_)
      return;
    cudaStreamSynchronize(stream_);
  }
  void beginGraph() {
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal);
    capturing_ = true;
  }
  void endGraph() {
    capturing_ = false;
    cudaStreamEndCapture(stream_, &graph_);
  }
  void enqueueIteration() {
    beginGraph();
    launchStep(stream_);
    synchronize();
    endGraph();
  }

private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  bool capturing_ = false;
};

// A flag written only through its setter: each call of the setter is the write, with the literal
// it passes.
static bool sampling = false;
void setSampling(bool on) { sampling = on; }
void syncUnlessSampling(cudaStream_t s) {
  if (!sampling)
    cudaStreamSynchronize(s);
}
void captureSample(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  setSampling(true);
  syncUnlessSampling(s);
  setSampling(false);
  cudaStreamEndCapture(s, g);
}

// A flag raised only after the capture ended, in the function that captured: while the capture
// ran it was false, so it guards nothing (a search index's "graph mode").
class IndexGraph {
public:
  void build(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    searchImpl(s);
    cudaStreamEndCapture(s, &graph_);
    inGraphMode_ = true;
  }
  void searchImpl(cudaStream_t s) {
    if (!inGraphMode_)
      cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }

private:
  cudaGraph_t graph_ = nullptr;
  bool inGraphMode_ = false;
};

// A flag the C way: an int set to 1 before the capture and to 0 after it (Darknet's style).
static int g_recording = 0;
void syncUnlessRecording(cudaStream_t s) {
  if (!g_recording)
    cudaStreamSynchronize(s);
}
void recordForward(cudaStream_t s, cudaGraph_t *g) {
  g_recording = 1;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launchStep(s);
  syncUnlessRecording(s);
  cudaStreamEndCapture(s, g);
  g_recording = 0;
}

// A flag cleared too early: between the clear and the end call the window still runs code, and
// the guarded wait runs captured.
struct EarlyClear {
  bool capturing = false;
  void syncIfEager(cudaStream_t s) {
    if (!capturing)
      cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' waits for a stream on the host{{.*}} [graphify-capture-unsafe-api]
  }
  void update(cudaStream_t s, cudaGraph_t *g) {
    capturing = true;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    syncIfEager(s);
    capturing = false;
    syncIfEager(s);
    cudaStreamEndCapture(s, g);
  }
};
