// Threads a capture window starts. A window opened in thread-local mode restricts only the
// capturing thread: a loader thread it starts may allocate while the capture runs (it runs as in
// relaxed mode, so a device-wide synchronisation there is still reported). In global mode every
// thread is restricted, and the same loader's allocation is reported.
#include <future>
#include <thread>

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
extern "C" cudaError_t cudaDeviceSynchronize(void);
extern "C" cudaError_t cudaMemsetAsync(void *, int, unsigned long, cudaStream_t);

struct Staging {
  void *buffer = nullptr;
  void fill(unsigned long bytes) { cudaMalloc(&buffer, bytes); }
};

void *stageOnLoader(unsigned long bytes) {
  void *p = nullptr;
  cudaMalloc(&p, bytes);
  return p;
}

void captureWithLoader(cudaStream_t s, cudaGraph_t *g, void *x, unsigned long n) {
  Staging staging;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  std::thread loader([&staging, n] { staging.fill(n); }); // another thread: not restricted
  std::thread direct([n] {
    void *p = nullptr;
    cudaMalloc(&p, n);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  });
  auto staged = std::async(std::launch::async, stageOnLoader, n);
  cudaMemsetAsync(x, 0, n, s);
  void *local = nullptr;
  cudaMalloc(&local, n); // the capturing thread itself
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  loader.join();
  direct.join();
  staged.get();
  cudaStreamEndCapture(s, g);
}

struct Prefetch {
  void *buffer = nullptr;
  void run(unsigned long bytes) {
    cudaMalloc(&buffer, bytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};

void captureGlobalWithLoader(cudaStream_t s, cudaGraph_t *g, void *x, unsigned long n) {
  Prefetch prefetch;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  std::thread loader([&prefetch, n] { prefetch.run(n); }); // global mode: every thread is restricted
  cudaMemsetAsync(x, 0, n, s);
  loader.join();
  cudaStreamEndCapture(s, g);
}
