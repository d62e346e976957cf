// The capture: the hook and the table's entries run in it, whatever file assigns them.
#include "engine.h"

void Engine::onLayer(Hook h) { hook_ = std::move(h); }

void Engine::capture(cudaStream_t s, cudaGraph_t *g, int layers) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int l = 0; l < layers; ++l) {
    opTable[l % OpCount](s);
    if (hook_)
      hook_(l, s);
  }
  cudaStreamEndCapture(s, g);
  log("captured");
}

static std::function<void(const char *)> logger;
void setLogger(std::function<void(const char *)> f) { logger = std::move(f); }
void log(const char *what) {
  if (logger)
    logger(what);
}
