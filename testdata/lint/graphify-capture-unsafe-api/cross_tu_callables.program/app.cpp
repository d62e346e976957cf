// The application: registers the per-layer hook the capture runs (reported), and a logger that
// runs after the capture (not captured).
#include "engine.h"

void run(Engine &engine, cudaStream_t s, cudaGraph_t *g) {
  engine.onLayer([](int layer, cudaStream_t stream) {
    if (layer == 0)
      cudaFree(nullptr);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  });
  setLogger([](const char *) { cudaDeviceSynchronize(); });
  engine.capture(s, g, 8);
}
