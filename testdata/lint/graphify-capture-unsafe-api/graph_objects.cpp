// LibTorch's graph objects, declared by hand in their namespaces (the Debian headers predate the
// device-generic one): at::cuda::CUDAGraph captured per bucket in a loop, a graph held by a
// wrapper whose methods begin and end the capture, and at::accelerator::Graph.
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
extern "C" cudaError_t cudaDeviceSynchronize(void);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);

namespace at {
enum class GraphCaptureMode { Default, Global, ThreadLocal, Relaxed };
namespace cuda {
struct CUDAGraph {
  void capture_begin();
  void capture_end();
  void replay();
};
} // namespace cuda
namespace accelerator {
struct Graph {
  void capture_begin(int pool = 0, GraphCaptureMode mode = GraphCaptureMode::Default);
  void capture_end();
  void replay();
};
} // namespace accelerator
} // namespace at

static void decodeStep(int batch) {
  if (batch > 0)
    cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

// One graph per batch size, captured in a loop: what runs between each bucket's begin and end.
void captureBuckets(at::cuda::CUDAGraph *graphs, const int *sizes, int buckets) {
  for (int b = 0; b < buckets; ++b) {
    decodeStep(sizes[b]); // warm-up, outside the window: not reported here
    graphs[b].capture_begin();
    decodeStep(sizes[b]);
    graphs[b].capture_end();
    graphs[b].replay();
  }
}

// A runner that owns its graph: capture opened in start(), closed in finish().
class Runner {
public:
  void start() { graph_.capture_begin(); }
  void finish() { graph_.capture_end(); }
  void replay() { graph_.replay(); }

private:
  at::cuda::CUDAGraph graph_;
};

void record(Runner &r, void **buf) {
  r.start();
  cudaMalloc(buf, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  r.finish();
  cudaMalloc(buf, 64);
}

// The device-generic graph; relaxed mode permits allocation, not synchronisation.
void captureGeneric(at::accelerator::Graph &g, void **buf) {
  g.capture_begin(0, at::GraphCaptureMode::Relaxed);
  cudaMalloc(buf, 64);
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  g.capture_end();
  g.replay();
}
