// A thread may switch its own capture mode: caching allocators wrap cudaMalloc in
// cudaThreadExchangeStreamCaptureMode(&mode) calls with `mode` initialised to relaxed, so the
// allocation is legal while another stream of the thread is captured in global mode. Relaxed mode
// allows allocation only: a device-wide synchronisation in the same span is still reported. The
// second exchange swaps the old mode back; an exchange in a branch, or a mode variable assigned
// elsewhere, proves nothing.
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
extern "C" cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaDeviceSynchronize(void);
#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != 0)                                                                                   \
      throw e_;                                                                                    \
  } while (0)
void launchStep(cudaStream_t s, void *buf);

void *allocateRelaxed(unsigned long n) {
  void *p = nullptr;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
  cudaMalloc(&p, n); // relaxed for this thread
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return p;
}

void *allocateIfAsked(unsigned long n, bool relax) {
  void *p = nullptr;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  if (relax)
    cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return p;
}

void *allocateWithAssignedMode(unsigned long n, bool strict) {
  void *p = nullptr;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  if (strict)
    mode = cudaStreamCaptureModeGlobal;
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaThreadExchangeStreamCaptureMode(&mode);
  return p;
}

void chooseMode(cudaStreamCaptureMode *mode);
void *allocateWithChosenMode(unsigned long n) {
  void *p = nullptr;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  chooseMode(&mode); // may write another mode
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaThreadExchangeStreamCaptureMode(&mode);
  return p;
}

void captureStep(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  void *a = allocateRelaxed(1 << 20);
  void *b = allocateIfAsked(1 << 20, true);
  void *c = allocateWithAssignedMode(1 << 20, false);
  launchStep(s, allocateWithChosenMode(1 << 20));
  launchStep(s, a);
  launchStep(s, b);
  launchStep(s, c);
  cudaStreamEndCapture(s, g);
}

// The allocation's status kept in a variable: the declaration statement is what the block holds.
cudaError_t allocateKeepingStatus(void **p, unsigned long n) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaError_t err = cudaMalloc(p, n);
  cudaThreadExchangeStreamCaptureMode(&mode);
  return err;
}
void captureKeepingStatus(cudaStream_t s, cudaGraph_t *g, void **p) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  allocateKeepingStatus(p, 64);
  cudaStreamEndCapture(s, g);
}

// LibTorch's RAII form: c10::cuda::CUDAStreamCaptureModeGuard exchanges the mode in its
// constructor and back in its destructor, so the mode it names holds to the end of its scope.
namespace c10::cuda {
struct CUDAStreamCaptureModeGuard {
  explicit CUDAStreamCaptureModeGuard(cudaStreamCaptureMode desired) : strictness_(desired) {
    cudaThreadExchangeStreamCaptureMode(&strictness_);
  }
  ~CUDAStreamCaptureModeGuard() { cudaThreadExchangeStreamCaptureMode(&strictness_); }

private:
  cudaStreamCaptureMode strictness_;
};
} // namespace c10::cuda

void *allocateUnderGuard(unsigned long n) {
  void *p = nullptr;
  {
    c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed};
    cudaMalloc(&p, n); // relaxed until the guard's end of scope
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return p;
}

void *allocateUnderGlobalGuard(unsigned long n) {
  void *p = nullptr;
  auto guard = c10::cuda::CUDAStreamCaptureModeGuard(cudaStreamCaptureModeGlobal);
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return p;
}

void *allocateAfterGuardThenExchange(unsigned long n) {
  void *p = nullptr;
  c10::cuda::CUDAStreamCaptureModeGuard guard(cudaStreamCaptureModeRelaxed);
  cudaMalloc(&p, n);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  cudaThreadExchangeStreamCaptureMode(&mode); // the nearest switch decides: global again
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaThreadExchangeStreamCaptureMode(&mode);
  return p;
}

void captureUnderGuards(cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launchStep(s, allocateUnderGuard(64));
  launchStep(s, allocateUnderGlobalGuard(64));
  launchStep(s, allocateAfterGuardThenExchange(64));
  cudaStreamEndCapture(s, g);
}

// A project's own guard class (mscclpp's style): its constructor always swaps in the mode held by
// a field, initialised in the class or from the constructor's argument, and its destructor swaps
// it back. Declared before an allocation, it makes the rest of its scope relaxed as LibTorch's does;
// one whose constructor switches only sometimes, or to global mode, proves nothing.
#define CUDA_THROW(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != 0)                                                                                 \
      throw err_;                                                                                  \
  } while (0)
struct AvoidGraphCaptureGuard {
  AvoidGraphCaptureGuard() : mode_(cudaStreamCaptureModeRelaxed) {
    CUDA_THROW(cudaThreadExchangeStreamCaptureMode(&mode_));
  }
  ~AvoidGraphCaptureGuard() { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
  cudaStreamCaptureMode mode_;
};
class ModeSwitch {
public:
  explicit ModeSwitch(cudaStreamCaptureMode wanted) : mode_(wanted) { cudaThreadExchangeStreamCaptureMode(&mode_); }
  ~ModeSwitch() { cudaThreadExchangeStreamCaptureMode(&mode_); }

private:
  cudaStreamCaptureMode mode_;
};
struct MaybeRelaxed {
  explicit MaybeRelaxed(bool on) {
    if (on)
      cudaThreadExchangeStreamCaptureMode(&mode_);
  }
  cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
};

void *allocateUnderProjectGuard(unsigned long n) {
  void *p = nullptr;
  AvoidGraphCaptureGuard relaxed;
  CUDA_THROW(cudaMalloc(&p, n)); // relaxed until the guard's end of scope
  return p;
}

void *allocateUnderModeSwitch(unsigned long n, bool strict) {
  void *p = nullptr;
  if (strict) {
    ModeSwitch global(cudaStreamCaptureModeGlobal);
    cudaMalloc(&p, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return p;
  }
  ModeSwitch relaxed(cudaStreamCaptureModeRelaxed);
  cudaMalloc(&p, n);
  return p;
}

void *allocateUnderMaybeRelaxed(unsigned long n, bool on) {
  void *p = nullptr;
  MaybeRelaxed guard(on);
  cudaMalloc(&p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return p;
}

void captureUnderProjectGuards(cudaStream_t s, cudaGraph_t *g, bool strict) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launchStep(s, allocateUnderProjectGuard(64));
  launchStep(s, allocateUnderModeSwitch(64, strict));
  launchStep(s, allocateUnderMaybeRelaxed(64, true));
  cudaStreamEndCapture(s, g);
}
