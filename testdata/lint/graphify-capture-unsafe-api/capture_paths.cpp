// Capture windows along the control flow, with the CUDA prototypes declared by hand: what a
// capture runs is what the function reaches from the begin call without passing an end call. An
// end call on an error path that returns leaves the capture running on the other paths; one in
// each branch ends it on both; a conditional end correlated with a conditional begin (the same
// flag) ends it on the only path that began it. Code that runs only when a capture status query
// says the stream is idle is not captured; a status read before the capture began says nothing
// of it. A call that throws in the window runs its handler with the capture still open.
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaFree(void *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1 };
extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *);
extern "C" cudaError_t cudaDeviceSynchronize(void);
bool launchNodes(cudaStream_t s);
static const cudaError_t cudaSuccess = 0;

// The error path aborts the capture and returns; the normal path goes on capturing.
int captureOrAbort(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (!launchNodes(s)) {
    cudaStreamEndCapture(s, g);
    cudaStreamSynchronize(s); // the capture was aborted on this path
    return 1;
  }
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
  cudaStreamSynchronize(s);
  return 0;
}

// An end call in each branch: the else branch captures up to its own end.
void captureEitherWay(cudaStream_t s, cudaGraph_t *g, void *scratch, bool skip) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (skip) {
    cudaStreamEndCapture(s, g);
  } else {
    cudaFree(scratch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s, g);
  }
  cudaStreamSynchronize(s);
}

// Per iteration, with `continue` after an aborted capture.
void capturePerBucket(cudaStream_t s, cudaGraph_t *graphs, int n, void *scratch) {
  for (int i = 0; i < n; ++i) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (!launchNodes(s)) {
      cudaStreamEndCapture(s, &graphs[i]);
      continue;
    }
    cudaFree(scratch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s, &graphs[i]);
  }
}

// The flag that chose to begin chooses to end: after the conditional end nothing is captured.
void stepMaybeCaptured(cudaStream_t s, cudaGraph_t *g, bool useGraph, void *scratch) {
  if (useGraph)
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  if (useGraph) {
    cudaStreamEndCapture(s, g);
  }
  cudaStreamSynchronize(s);
}

// A function entered with the capture open that ends it only if one is running (it tests a flag
// its caller set): the path around the end is one where nothing was captured.
struct Provider {
  cudaStream_t stream;
  cudaGraph_t graph;
  bool capturing = false;
  void start() {
    capturing = true;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  }
  int finish(bool sync) {
    if (capturing) {
      cudaStreamEndCapture(stream, &graph);
      capturing = false;
      return 0;
    }
    if (sync)
      cudaStreamSynchronize(stream);
    return 0;
  }
};
void run(Provider &p, void *scratch) {
  p.start();
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  p.finish(true);
}

// RAII guards: a capture begun by a constructor runs until the guard's destructor ends it at the
// end of its scope.
struct CaptureGuard {
  CaptureGuard(cudaStream_t s, cudaGraph_t *g) : stream(s), graph(g) {
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  }
  ~CaptureGuard() { cudaStreamEndCapture(stream, graph); }
  cudaStream_t stream;
  cudaGraph_t *graph;
};
void captureScoped(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  cudaStreamSynchronize(s);
  {
    CaptureGuard guard(s, g);
    cudaFree(scratch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cudaStreamSynchronize(s); // the guard ended the capture
}

// Helpers that synchronise only when their stream is not being captured, called in a window: the
// guarded syncs are not captured; the unguarded one is.
static void syncIfIdle(cudaStream_t s) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &status);
  if (status == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s);
}

static void syncUnlessCapturing(cudaStream_t s, void *scratch) {
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(s, &status);
  if (status != cudaStreamCaptureStatusNone)
    return;
  cudaStreamSynchronize(s);
  cudaFree(scratch);
}

static void syncWhenCapturing(cudaStream_t s) {
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(s, &status);
  if (status == cudaStreamCaptureStatusActive)
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

static void syncInElse(cudaStream_t s, bool verbose) {
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(s, &status);
  if (status != cudaStreamCaptureStatusNone) {
  } else {
    cudaStreamSynchronize(s);
  }
  if (!(status != cudaStreamCaptureStatusNone) && verbose)
    cudaStreamSynchronize(s);
  if (verbose || status == cudaStreamCaptureStatusNone) // either may hold while capturing
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

static cudaError_t syncIfIdleKeepingStatus(cudaStream_t s) {
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(s, &status);
  if (status == cudaStreamCaptureStatusNone) {
    cudaError_t err = cudaStreamSynchronize(s); // the status of the sync kept in a variable
    return err;
  }
  return 0;
}

// The status of one stream says nothing of another; a status kept in a field or a global was
// read at some other time.
static void syncOtherStreamIfIdle(cudaStream_t s, cudaStream_t copy) {
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(copy, &status);
  if (status == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  if (status == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(copy);
}
static cudaStreamCaptureStatus lastStatus = cudaStreamCaptureStatusNone;
static void syncIfLastIdle(cudaStream_t s) {
  if (lastStatus == cudaStreamCaptureStatusNone)
    cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

struct StatusCache {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  void syncIfCachedIdle(cudaStream_t s) {
    if (status == cudaStreamCaptureStatusNone)
      cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};

void captureGuarded(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  syncOtherStreamIfIdle(s, s);
  syncIfLastIdle(s);
  StatusCache cache;
  cache.syncIfCachedIdle(s);
  syncIfIdleKeepingStatus(s);
  syncInElse(s, true);
  syncIfIdle(s);
  syncUnlessCapturing(s, scratch);
  syncWhenCapturing(s);
  cudaStreamEndCapture(s, g);
}

// The status was read before the capture began: stale by the time it is tested.
void captureWithStaleStatus(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamCaptureStatus before = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &before);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (before == cudaStreamCaptureStatusNone)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamIsCapturing(s, &before);
  if (before == cudaStreamCaptureStatusNone) // read again after the begin call: a guard
    cudaDeviceSynchronize();
  cudaStreamEndCapture(s, g);
}

// A throw in the window: the handler that ends the capture first is safe, the one that
// synchronises first is not.
void runLayers(cudaStream_t s);

void captureOrRecover(cudaStream_t s, cudaGraph_t *g) {
  try {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    runLayers(s);
    cudaStreamEndCapture(s, g);
  } catch (...) {
    cudaStreamEndCapture(s, g);
    cudaDeviceSynchronize();
  }
}

void captureOrLeak(cudaStream_t s, cudaGraph_t *g) {
  try {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    runLayers(s);
    cudaStreamEndCapture(s, g);
  } catch (...) {
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s, g);
  }
}

// A flag that chose to begin the capture chooses the other branches too: code under
// `if (!use_graph_)` runs only where nothing was begun, code under `if (use_graph_)` only where
// the capture is open. A flag the function writes between its tests proves nothing.
struct FlaggedRunner {
  cudaStream_t s_;
  bool use_graph_;
  void step(cudaGraph_t *g) {
    if (use_graph_)
      cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    launchNodes(s_);
    if (!use_graph_)
      cudaStreamSynchronize(s_); // eager only
    if (use_graph_)
      cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    if (use_graph_)
      cudaStreamEndCapture(s_, g);
    cudaStreamSynchronize(s_);
  }
  void stepRewritingTheFlag(cudaGraph_t *g) {
    bool capture = use_graph_;
    if (capture)
      cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    capture = launchNodes(s_);
    if (!capture)
      cudaStreamSynchronize(s_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s_, g);
  }
};

// A begin call that failed began nothing: the branch that tests its status for a failure (in the
// condition itself, or on a variable the next statement tests) runs with no capture open. A
// status tested later, after something else was stored in it, says nothing about the begin.
int captureOrFallBack(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess) {
    cudaDeviceSynchronize(); // nothing was begun
    return 1;
  }
  cudaFree(scratch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
  return 0;
}
int captureIfBegun(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) {
    cudaStreamSynchronize(s); // nothing was begun
    return 1;
  }
  launchNodes(s);
  return cudaStreamEndCapture(s, g);
}
int captureOnSuccess(cudaStream_t s, cudaGraph_t *g, void *scratch) {
  cudaError_t e;
  e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (e == cudaSuccess) {
    cudaFree(scratch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return cudaStreamEndCapture(s, g);
  }
  cudaDeviceSynchronize(); // nothing was begun
  return 1;
}
int captureTestingLaterStatus(cudaStream_t s, cudaGraph_t *g) {
  cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  e = launchNodes(s) ? cudaSuccess : 1;
  if (e != cudaSuccess) {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return 1;
  }
  return cudaStreamEndCapture(s, g);
}

// The flag may be a field of a field, a count tested for truth, and one operand of `&&`/`||`:
// `!opts_.graphs && opts_.blocking` is false wherever the capture is open; `!opts_.graphs ||
// poll` still holds when `poll` does. Assigning the object that holds the flag writes it.
struct BenchOptions {
  int graphs = 0; // graph launches; 0: graphs off
  bool blocking = false;
  bool poll = false;
};
struct FieldFlaggedRunner {
  cudaStream_t s_;
  BenchOptions opts_;
  void step(cudaGraph_t *g) {
    if (opts_.graphs)
      cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    launchNodes(s_);
    if (!opts_.graphs && opts_.blocking)
      cudaStreamSynchronize(s_); // eager only
    if (opts_.blocking && !opts_.graphs)
      cudaStreamSynchronize(s_); // eager only
    if (!opts_.graphs || opts_.poll)
      cudaStreamSynchronize(s_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    if (opts_.graphs)
      cudaStreamEndCapture(s_, g);
  }
  void stepReplacingTheOptions(cudaGraph_t *g, const BenchOptions &next) {
    if (opts_.graphs)
      cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    opts_ = next;
    if (!opts_.graphs && opts_.blocking)
      cudaStreamSynchronize(s_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s_, g);
  }
};

// A local flag set only where the capture was ended (`aborted = true` after the end call) keeps
// its initial value on every path where the capture is still open, so a later test of it splits
// the aborted path from the capturing one. Set while capturing, or set before a loop begins the
// capture again, it says nothing.
bool captureLayersOrAbort(cudaStream_t s, cudaGraph_t *g, int layers) {
  bool aborted = false;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int l = 0; l < layers; ++l) {
    if (!launchNodes(s)) {
      cudaStreamEndCapture(s, g);
      aborted = true;
      break;
    }
  }
  if (aborted) {
    cudaDeviceSynchronize(); // the capture was ended on this path
    return false;
  }
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
  return true;
}
bool captureFlagSetWhileOpen(cudaStream_t s, cudaGraph_t *g) {
  bool failed = false;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (!launchNodes(s))
    failed = true;
  if (failed)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
  return !failed;
}
void captureRetrying(cudaStream_t s, cudaGraph_t *g) {
  bool retried = false;
  for (int attempt = 0; attempt < 2; ++attempt) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (retried)
      cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    const bool ok = launchNodes(s);
    cudaStreamEndCapture(s, g);
    if (ok)
      return;
    retried = true;
  }
}

// A guard whose destructor ends the capture is destroyed while an exception unwinds, before the
// handler runs: a handler reached from a throw after the guard was built captures nothing; one
// reached from a throw before it still runs inside the capture.
struct EndCaptureOnExit {
  cudaStream_t s;
  cudaGraph_t *g;
  ~EndCaptureOnExit() { cudaStreamEndCapture(s, g); }
};
void launchOrThrow(cudaStream_t s);
bool captureUnwinding(cudaStream_t s, cudaGraph_t *g) {
  try {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    EndCaptureOnExit end{s, g};
    launchOrThrow(s);
  } catch (...) {
    cudaStreamSynchronize(s); // the guard ended the capture while unwinding
    return false;
  }
  return true;
}
bool captureUnwindingLate(cudaStream_t s, cudaGraph_t *g) {
  try {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    launchOrThrow(s);
    EndCaptureOnExit end{s, g};
    launchOrThrow(s);
  } catch (...) {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return false;
  }
  return true;
}
