// A TensorRT-style inference function that fetches its outputs with cudaMemcpy into CPU tensors
// and checks each status, with the CUDA prototypes declared by hand. The copies are the findings;
// `err` says whether a copy worked, not what it copied, so its test is an error check (no
// data-dependent branch), and a device-to-device copy reads no tensor value on the host.
// RUN-ARGS: --graph-region=fetch_outputs
#include <torch/torch.h>

#include <iostream>

typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
static const cudaError_t cudaSuccess = 0;
extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, unsigned long count, cudaMemcpyKind kind);
extern "C" const char *cudaGetErrorString(cudaError_t error);

torch::Tensor fetch_outputs(void *device_boxes, void *device_scratch, const torch::Tensor &staging) {
  auto boxes = torch::empty({300, 4}, torch::TensorOptions().device(torch::kCPU));
  cudaError_t err;
  err = cudaMemcpy(boxes.data_ptr(), device_boxes, boxes.nbytes(), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cudaMemcpy' copies synchronously on the legacy default stream; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  if (err != cudaSuccess)
    std::cerr << "cudaMemcpy for boxes failed: " << cudaGetErrorString(err) << std::endl;
  cudaError_t copied = cudaMemcpy(device_scratch, staging.data_ptr(), staging.nbytes(), cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'cudaMemcpy' copies synchronously on the legacy default stream; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
  if (copied != cudaSuccess)
    return torch::Tensor();
  return boxes;
}
