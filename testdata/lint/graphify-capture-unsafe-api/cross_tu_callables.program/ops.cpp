// The dispatch table, defined with its entries here and declared extern in engine.h.
#include "engine.h"

static void add(cudaStream_t) {}
static void argmax(cudaStream_t s) {
  cudaStreamSynchronize(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

OpFn opTable[OpCount] = {add, argmax};
