// The registry and its hooks: the second waits for the stream, which the capture in
// transform.cpp cannot hold.
#include "hooks.h"

std::vector<PostHook> &postHooks() {
  static std::vector<PostHook> hooks;
  return hooks;
}

void registerDefaultHooks() {
  postHooks().push_back([](float *, int, cudaStream_t) {});
  postHooks().push_back([](float *, int, cudaStream_t s) {
    cudaStreamSynchronize(s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host{{.*}} [graphify-capture-unsafe-api]
  });
}
