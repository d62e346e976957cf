// A virtual call in a capture window runs the overriders of the classes its object may have.
// When every call of the capturing function passes an object the file shows being made (a local
// of a class, `std::make_unique<D>()`, `new D`, `&local`), only those classes' overriders are
// checked: a debugging subclass never passed to the capture is not. A function called from
// nowhere here, or whose address is taken, may be given any object: every overrider is checked.
#include <memory>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);
void launchStep(cudaStream_t s);

struct Net {
  virtual ~Net() = default;
  virtual void forward(cudaStream_t s) = 0;
};
struct Gpt : Net {
  void forward(cudaStream_t s) override { launchStep(s); }
};
struct Bert : Net {
  void forward(cudaStream_t s) override {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};
struct TinyBert : Bert {}; // runs Bert::forward
struct DebugNet : Net {
  void forward(cudaStream_t s) override { // never given to a capture
    launchStep(s);
    cudaStreamSynchronize(s);
  }
};

void captureNet(Net &net, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  net.forward(s);
  cudaStreamEndCapture(s, g);
}

void serveGpt(cudaStream_t s, cudaGraph_t *g) {
  Gpt gpt;
  captureNet(gpt, s, g);
}

void serveBert(cudaStream_t s, cudaGraph_t *g) {
  auto bert = std::make_unique<TinyBert>();
  captureNet(*bert, s, g);
}

void debugEagerly(cudaStream_t s) {
  DebugNet debug;
  debug.forward(s);
}

// Pointers: the object given through `&local` and `new`.
struct Stage {
  virtual ~Stage() = default;
  virtual void run(cudaStream_t s) { launchStep(s); }
};
struct Pool : Stage {};
struct Barrier : Stage {
  void run(cudaStream_t) override { cudaDeviceSynchronize(); } // only in eager mode
};
struct Flush : Stage {
  void run(cudaStream_t s) override {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};

static void captureStage(Stage *stage, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  stage->run(s);
  cudaStreamEndCapture(s, g);
}

void servePipeline(cudaStream_t s, cudaGraph_t *g) {
  Pool pool;
  captureStage(&pool, s, g);
  Stage *flush = new Flush;
  captureStage(flush, s, g);
  delete flush;
  Barrier barrier;
  barrier.run(s);
}

// Called from nowhere in this file: any Op may come.
struct Op {
  virtual ~Op() = default;
  virtual void apply(cudaStream_t s) = 0;
};
struct Relu : Op {
  void apply(cudaStream_t s) override { launchStep(s); }
};
struct SyncOp : Op {
  void apply(cudaStream_t s) override {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};
void captureOp(Op &op, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  op.apply(s);
  cudaStreamEndCapture(s, g);
}
void serveRelu(cudaStream_t s, cudaGraph_t *g, Op &any) {
  Relu relu;
  captureOp(relu, s, g);
  captureOp(any, s, g); // a parameter nobody here passes: unknown
}

// Declared in a header, so the files that include it may pass any Hook: every overrider runs,
// however few kinds this file passes.
struct Hook {
  virtual ~Hook() = default;
  virtual void run(cudaStream_t s) = 0;
};
struct Quiet : Hook {
  void run(cudaStream_t s) override { launchStep(s); }
};
struct Tracer : Hook { // never passed here
  void run(cudaStream_t) override {
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};
#include "virtual_calls_on_passed_objects.h"
void captureHook(Hook &hook, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  hook.run(s);
  cudaStreamEndCapture(s, g);
}
void serveQuiet(cudaStream_t s, cudaGraph_t *g) {
  Quiet quiet;
  captureHook(quiet, s, g);
}
