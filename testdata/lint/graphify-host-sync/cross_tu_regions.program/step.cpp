// Helpers reached only from runner.cpp's region.
#include "model.h"

void step(torch::Tensor x) {
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  std::cout << x;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'operator<<' prints tensor values from the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

torch::Tensor grow(torch::Tensor x, int64_t n) { return torch::cat({x, torch::zeros({n})}); }
// CHECK-MESSAGES: :[[@LINE-1]]:86: warning: size argument of 'zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]

torch::Tensor Calibration::apply(torch::Tensor x) {
  if (scale > 1) // written by calibrate(), outside the regions: an input here
    return x * scale;
  return x;
}

// Not called from any region: not reported.
void housekeeping() { cudaDeviceSynchronize(); }
