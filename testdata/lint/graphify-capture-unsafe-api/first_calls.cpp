// Lazy initialisation in capture windows, with the library prototypes declared by hand: a cuDNN
// convolution or a TensorRT enqueue may allocate or set itself up on its first call, which
// capture forbids, unless the same call ran before the capture began (a warm-up run). A cuBLAS
// GEMM on a handle created before the capture is capturable; creating the handle in the window
// is not.
#include <functional>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct cublasContext *cublasHandle_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
typedef struct cudnnContext *cudnnHandle_t;
extern "C" int cublasCreate_v2(cublasHandle_t *);
extern "C" int cublasSgemm_v2(cublasHandle_t, int, int, int, int, int, const float *, const float *, int,
                              const float *, int, const float *, float *, int);
#define cublasCreate cublasCreate_v2
#define cublasSgemm cublasSgemm_v2
extern "C" int cudnnConvolutionForward(cudnnHandle_t, const void *, const void *, const void *, void *, int);

namespace nvinfer1 {
class IExecutionContext {
public:
  bool enqueueV3(cudaStream_t stream) noexcept;
};
} // namespace nvinfer1

static void conv(cudnnHandle_t h, const float *x, const float *w, float *y) {
  cudnnConvolutionForward(h, x, w, nullptr, y, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudnnConvolutionForward' may load its kernels on its first call, and nothing calls it before the capture that begins at line 37; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
}

// No warm-up: the first convolution would run inside the capture.
void captureCold(cudnnHandle_t h, cudaStream_t s, cudaGraph_t *g, const float *x, const float *w, float *y) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  conv(h, x, w, y);
  cudaStreamEndCapture(s, g);
}

// The same step run once before capturing: warmed up.
void captureWarm(cudnnHandle_t h, cudaStream_t s, cudaGraph_t *g, const float *x, const float *w, float *y) {
  conv(h, x, w, y);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  conv(h, x, w, y);
  cudaStreamEndCapture(s, g);
}

// cuBLAS: a GEMM on a handle made before the capture needs no warm-up; a handle made on first
// use, inside the capture, allocates there.
class Gemm {
public:
  cublasHandle_t handle() {
    if (!h_)
      cublasCreate(&h_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cublasCreate' creates a cuBLAS handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return h_;
  }
  void run(const float *a, const float *b, float *c, int n) {
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle(), 0, 0, n, n, n, &one, a, n, b, n, &zero, c, n);
  }

private:
  cublasHandle_t h_ = nullptr;
};

void captureGemm(Gemm &op, cudaStream_t s, cudaGraph_t *g, const float *a, const float *b, float *c, int n) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  op.run(a, b, c, n);
  cudaStreamEndCapture(s, g);
}

// TensorRT: enqueue once before capturing, as its documentation asks.
void captureEngine(nvinfer1::IExecutionContext *context, cudaStream_t s, cudaGraph_t *g, bool warm) {
  if (warm)
    context->enqueueV3(s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  context->enqueueV3(s);
  cudaStreamEndCapture(s, g);
}

void captureEngineCold(nvinfer1::IExecutionContext *context, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  context->enqueueV3(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'enqueueV3' does deferred initialisation (allocations, shape-dependent setup) on its first call, and nothing calls it before the capture that begins at line {{[0-9]+}}; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
  context->enqueueV3(s); // after the capture: too late to warm it up
}

// Warm-ups elsewhere: a runner's warmup() that its caller runs before capture_main() on the same
// object warms the main context up, not the auxiliary one, which has its own deferred setup.
class Runner {
public:
  void warmup() { main_->enqueueV3(s_); }
  void captureMain() {
    cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    enqueueMain();
    cudaStreamEndCapture(s_, &graph_);
  }
  void captureAux() {
    cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    aux_->enqueueV3(s_);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'enqueueV3' does deferred initialisation (allocations, shape-dependent setup) on its first call, and nothing calls it before the capture that begins at line {{[0-9]+}}; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
    cudaStreamEndCapture(s_, &graph_);
  }

private:
  void enqueueMain() { main_->enqueueV3(s_); }
  nvinfer1::IExecutionContext *main_ = nullptr;
  nvinfer1::IExecutionContext *aux_ = nullptr;
  cudaStream_t s_ = nullptr;
  cudaGraph_t graph_ = nullptr;
};

void startRunner(Runner &r) {
  r.warmup();
  r.captureMain();
  r.captureAux();
}

// An enqueue held by a std::function and run in the window: its first run is in the capture, and
// a warm-up of another object in the caller does not count.
class Deferred {
public:
  explicit Deferred(nvinfer1::IExecutionContext *context) {
    run_ = [context](cudaStream_t s) { return context->enqueueV3(s); };
    // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'enqueueV3' does deferred initialisation (allocations, shape-dependent setup) on its first call, and nothing calls it before the capture that begins at line {{[0-9]+}}; run it once before capturing (a warm-up run of the captured code) [graphify-capture-unsafe-api]
  }
  void capture(cudaStream_t s) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    run_(s);
    cudaStreamEndCapture(s, &graph_);
  }

private:
  std::function<bool(cudaStream_t)> run_;
  cudaGraph_t graph_ = nullptr;
};

void startDeferred(Runner &warm, Deferred &cold, cudaStream_t s) {
  warm.warmup();
  cold.capture(s);
}

// User-written lazy initialisation: a helper that makes its state the first time it runs on an
// object (`if (!comm_) init(&comm_)`, `if (!ws_) cudaMalloc(&ws_, n)`, a buffer grown only past its
// capacity) does nothing unsafe in a capture that a warm-up on the same object preceded, and
// allocates inside one that nothing preceded. A guard on what the helper does not write (a
// parameter) initialises nothing: its allocation runs every time, and a counter compared and reset
// (`if (++pending_ >= n) { ...; pending_ = 0; }`) runs again, warm-up or not. `workspace` is reached by a
// capture with no warm-up (captureColdStep), so its allocation is reported.
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaFree(void *);
typedef struct ncclComm *ncclComm_t;
extern "C" int ncclCommInitRank(ncclComm_t *, int, int, int);
extern "C" int ncclCommDestroy(ncclComm_t);
class Collectives {
public:
  ncclComm_t comm() {
    if (!comm_)
      ncclCommInitRank(&comm_, 8, 0, rank_);
    return comm_;
  }
  float *workspace() {
    if (!ws_)
      cudaMalloc((void **)&ws_, 1 << 20);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return ws_;
  }
  void grow(unsigned long bytes) {
    if (bytes <= capacity_)
      return;
    cudaFree(buf_);
    cudaMalloc((void **)&buf_, bytes);
    capacity_ = bytes;
  }
  void flushEvery(int n) {
    if (++pending_ >= n) {
      cudaFree(big_);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
      pending_ = 0;
    }
  }
  void scratch(unsigned long bytes, unsigned long limit) {
    if (bytes > limit)
      cudaMalloc((void **)&big_, bytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  void step(unsigned long bytes) {
    comm();
    workspace();
    grow(bytes);
    flushEvery(8);
  }

private:
  ncclComm_t comm_ = nullptr;
  float *ws_ = nullptr, *buf_ = nullptr, *big_ = nullptr;
  unsigned long capacity_ = 0;
  int rank_ = 0, pending_ = 0;
};

void captureWarmedStep(Collectives &c, cudaStream_t s, cudaGraph_t *g) {
  c.step(4096);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  c.step(4096);
  c.scratch(4096, 1024);
  c.flushEvery(8);
  cudaStreamEndCapture(s, g);
}

void captureColdStep(Collectives &c, ncclComm_t retired, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  c.workspace();
  ncclCommDestroy(retired);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ncclCommDestroy' destroys an NCCL communicator, which frees device memory and synchronises; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
}

// Lazy initialisation in an overrider runs on the first call of each object: a warm-up of the
// layer list warms the layers made before it, not one appended after it.
class Layer {
public:
  virtual ~Layer() = default;
  virtual void run(cudaStream_t s) = 0;
};
class ScaleLayer : public Layer {
public:
  void run(cudaStream_t s) override {
    if (!ws_)
      cudaMalloc(&ws_, 4096);
  }

private:
  void *ws_ = nullptr;
};
class LookupLayer : public Layer {
public:
  void run(cudaStream_t s) override {
    if (!table_)
      cudaMalloc(&table_, 1 << 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }

private:
  void *table_ = nullptr;
};
void runAll(Layer **layers, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i)
    layers[i]->run(s);
}
void captureLayers(cudaStream_t s, cudaGraph_t *g) {
  Layer *layers[2] = {new ScaleLayer(), nullptr};
  runAll(layers, 1, s);
  layers[1] = new LookupLayer();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  runAll(layers, 2, s);
  cudaStreamEndCapture(s, g);
}

// C++'s own lazy initialisation: a singleton's constructor runs on the first call of the method
// that holds it as a static local, a static local's initialiser on its function's first call.
// An engine whose constructor calls instance() warmed it before any of its captures.
class SharedContext {
public:
  static SharedContext &instance() {
    static SharedContext context;
    return context;
  }
  cublasHandle_t handle() const { return handle_; }

private:
  SharedContext() { cublasCreate(&handle_); }
  cublasHandle_t handle_ = nullptr;
};

class ColdContext {
public:
  static ColdContext &instance() {
    static ColdContext context;
    return context;
  }
  cublasHandle_t handle() const { return handle_; }

private:
  ColdContext() {
    cublasCreate(&handle_);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cublasCreate' creates a cuBLAS handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cublasHandle_t handle_ = nullptr;
};

static cublasHandle_t shared_handle = nullptr;
static int sharedStatus() {
  static const int status = cublasCreate(&shared_handle);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'cublasCreate' creates a cuBLAS handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  return status;
}

class SingletonEngine {
public:
  explicit SingletonEngine(cudaStream_t s) : s_(s) { SharedContext::instance(); }
  void capture(cudaGraph_t *g, const float *x, float *y) {
    cudaStreamBeginCapture(s_, cudaStreamCaptureModeGlobal);
    gemm(SharedContext::instance().handle(), x, y); // made by the constructor
    gemm(ColdContext::instance().handle(), x, y);   // made here, in the capture
    sharedStatus();                                  // first called here
    cudaStreamEndCapture(s_, g);
  }

private:
  static void gemm(cublasHandle_t h, const float *x, float *y) {
    float one = 1;
    cublasSgemm(h, 0, 0, 4, 4, 4, &one, x, 4, x, 4, &one, y, 4);
  }
  cudaStream_t s_;
};

// Replicas passed by reference: a warm-up of one does not warm the other.
class Replica {
public:
  void step(cudaStream_t) {
    if (handle_ == nullptr)
      cublasCreate(&handle_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cublasCreate' creates a cuBLAS handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }

private:
  cublasHandle_t handle_ = nullptr;
};

void captureDraft(Replica &main, Replica &draft, cudaStream_t s, cudaGraph_t *g) {
  main.step(s); // warms main only
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  draft.step(s);
  main.step(s);
  cudaStreamEndCapture(s, g);
}

void captureMain(Replica &main, cudaStream_t s, cudaGraph_t *g) {
  main.step(s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  main.step(s); // warmed just above
  cudaStreamEndCapture(s, g);
}

// Library setup written in the window: benchmarking cuDNN's algorithms, making a cuFFT plan.
extern "C" int cudnnFindConvolutionForwardAlgorithm(cudnnHandle_t, const void *, const void *, const void *,
                                                    const void *, int, int *, void *);
typedef int cufftHandle;
extern "C" int cufftPlan1d(cufftHandle *, int, int, int);
void captureTuning(cudnnHandle_t h, cudaStream_t s, cudaGraph_t *g, int n) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  int found = 0;
  cudnnFindConvolutionForwardAlgorithm(h, nullptr, nullptr, nullptr, nullptr, 1, &found, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudnnFindConvolutionForwardAlgorithm' benchmarks the algorithms, allocating and synchronising; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cufftHandle plan;
  cufftPlan1d(&plan, n, 0x29, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cufftPlan1d' makes a cuFFT plan, which allocates its work area; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamEndCapture(s, g);
}

// Per-object lazy state reached through fields: `blk.up` and `blk.down` are two objects of one
// class, each creating its handle on its own first call, so warming `blk.up` does not warm
// `blk.down`. A warm-up on the object holding both (`blk.warm()`) warms each of them.
class LazyProjection {
public:
  void run(const float *x, float *y, int n) {
    const float one = 1.f;
    cublasSgemm(handle(), 0, 0, n, n, n, &one, x, n, x, n, &one, y, n);
  }

private:
  cublasHandle_t handle() {
    if (!h_)
      cublasCreate(&h_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cublasCreate' creates a cuBLAS handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return h_;
  }
  cublasHandle_t h_ = nullptr;
};

struct TwoProjections {
  LazyProjection up, down;
};

void captureSecondProjectionCold(TwoProjections &blk, cudaStream_t s, cudaGraph_t *g, const float *x, float *y) {
  blk.up.run(x, y, 64); // warms blk.up only
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  blk.up.run(x, y, 64);
  blk.down.run(x, y, 64);
  cudaStreamEndCapture(s, g);
}

class WarmedProjection {
public:
  void run(const float *x, float *y, int n) {
    const float one = 1.f;
    cublasSgemm(handle(), 0, 0, n, n, n, &one, x, n, x, n, &one, y, n);
  }

private:
  cublasHandle_t handle() {
    if (!h_)
      cublasCreate(&h_); // each object warmed by its holder's warm-up
    return h_;
  }
  cublasHandle_t h_ = nullptr;
};

struct WarmedPair {
  WarmedProjection up, down;
  void warm(const float *x, float *y) {
    up.run(x, y, 64);
    down.run(x, y, 64);
  }
};

void capturePairWarmedByItsHolder(WarmedPair &blk, cudaStream_t s, cudaGraph_t *g, const float *x, float *y) {
  blk.warm(x, y);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  blk.up.run(x, y, 64);
  blk.down.run(x, y, 64);
  cudaStreamEndCapture(s, g);
}

// Stages run through base pointers in a loop: a loop over the same container before the capture
// ran every element's first call; a loop over another container warmed that container's only.
class Stage {
public:
  virtual ~Stage() = default;
  virtual void run(const float *x, float *y, int n) = 0;
};

class LazyStage : public Stage {
public:
  void run(const float *x, float *y, int n) override {
    const float one = 1.f;
    cublasSgemm(handle(), 0, 0, n, n, n, &one, x, n, x, n, &one, y, n);
  }

private:
  cublasHandle_t handle() {
    if (!h_)
      cublasCreate(&h_); // warmed by the loop before the capture
    return h_;
  }
  cublasHandle_t h_ = nullptr;
};

struct StageList {
  Stage *items[4];
  Stage **begin() { return items; }
  Stage **end() { return items + 4; }
};

void captureWarmedStages(StageList &stages, cudaStream_t s, cudaGraph_t *g, const float *x, float *y) {
  for (Stage *st : stages)
    st->run(x, y, 64); // the warm-up: every stage once
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (Stage *st : stages)
    st->run(x, y, 64);
  cudaStreamEndCapture(s, g);
}

class Pass {
public:
  virtual ~Pass() = default;
  virtual void run(const float *x, float *y, int n) = 0;
};

class LazyPass : public Pass {
public:
  void run(const float *x, float *y, int n) override {
    const float one = 1.f;
    cublasSgemm(handle(), 0, 0, n, n, n, &one, x, n, x, n, &one, y, n);
  }

private:
  cublasHandle_t handle() {
    if (!h_)
      cublasCreate(&h_);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cublasCreate' creates a cuBLAS handle, which allocates device memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return h_;
  }
  cublasHandle_t h_ = nullptr;
};

struct PassList {
  Pass *items[4];
  Pass **begin() { return items; }
  Pass **end() { return items + 4; }
};

void captureOtherPassesCold(PassList &warmed, PassList &cold, cudaStream_t s, cudaGraph_t *g, const float *x,
                            float *y) {
  for (Pass *p : warmed)
    p->run(x, y, 64);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (Pass *p : cold)
    p->run(x, y, 64);
  cudaStreamEndCapture(s, g);
}
