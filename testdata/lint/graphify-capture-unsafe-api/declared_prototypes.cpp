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
namespace torch::cuda {
void synchronize(long device_index = -1);
}

GRAPHIFY_GRAPH_REGION void step(cudaStream_t s) {
  void *p = nullptr;
  cudaMallocAsync(&p, 64, s);
  cudaMalloc(&p, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  torch::cuda::synchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'synchronize' waits for the device on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

void notARegion() { cudaDeviceSynchronize(); }
