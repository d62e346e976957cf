// The CUDA prototypes declared by hand (no toolkit needed): calls are matched by name in the
// global namespace as rules/cuda.yaml lists them, inside annotated graph regions.
#include <graphify/annotations.h>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
extern "C" cudaError_t cudaDeviceSynchronize(void);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaMalloc(void **, unsigned long);
extern "C" cudaError_t cudaMallocAsync(void **, unsigned long, cudaStream_t);
extern "C" cudaError_t cudaFree(void *);
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void *);
extern "C" cudaError_t cudaStreamAddCallback(cudaStream_t, cudaStreamCallback_t, void *, unsigned);
extern "C" cudaError_t cudaLaunchHostFunc(cudaStream_t, void (*)(void *), void *);
namespace torch::cuda {
void synchronize(long device_index = -1);
}
namespace c10::cuda::CUDACachingAllocator {
void emptyCache();
}
static void onDone(cudaStream_t, cudaError_t, void *) {}
static void onHost(void *) {}

GRAPHIFY_GRAPH_REGION void step(cudaStream_t s) {
  void *p = nullptr;
  cudaMallocAsync(&p, 64, s);
  cudaMalloc(&p, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  torch::cuda::synchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'synchronize' waits for the device on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  // torch.cuda.empty_cache() in C++: every cached block goes back through cudaFree.
  c10::cuda::CUDACachingAllocator::emptyCache();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'emptyCache' returns cached blocks with cudaFree, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamAddCallback(s, onDone, nullptr, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamAddCallback' adds a stream callback, which stream capture does not support (cudaLaunchHostFunc does); it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaLaunchHostFunc(s, onHost, nullptr);
}

void notARegion() { cudaDeviceSynchronize(); }
