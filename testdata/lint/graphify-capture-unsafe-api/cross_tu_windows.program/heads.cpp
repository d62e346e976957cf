// An overrider of Head::run, called virtually in main.cpp's window.
#include "cuda_decls.h"

struct BoxHead : Head {
  void run(cudaStream_t s) override {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  }
};

Head *makeHead() { return new BoxHead; }
