// Runs the nodes and ends the capture main.cpp began: captured up to the end call only.
#include "cuda_decls.h"

void runNodesAndEnd(cudaStream_t s, cudaGraph_t *g, int nodes) {
  for (int i = 0; i < nodes; ++i) {
    void *tmp = nullptr;
    cudaMalloc(&tmp, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
  cudaStreamEndCapture(s, g);
  cudaDeviceSynchronize();
}
