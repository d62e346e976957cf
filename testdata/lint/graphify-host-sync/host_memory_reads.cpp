// Reads that wait for no device: the elements of a tensor copied to host memory before the
// capture began (the copy ran outside it), a data_ptr() nothing dereferences, and reads in code
// that runs only when a capture status query says no capture is running (never captured). A
// copy inside a graph region is a finding, and so are the host reads after it: they are host
// work the region must move out.
// RUN-ARGS: --graph-region=decodeOnHost
#include <torch/torch.h>

#include <iostream>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUgraph_st *cudaGraph_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1 };
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode);
extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *);

static bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &st);
  return st != cudaStreamCaptureStatusNone;
}

static void logLoss(const torch::Tensor &loss, cudaStream_t s) {
  if (!capturing(s))
    std::cout << "loss " << loss.item<float>() << "\n"; // only on an idle stream
}

torch::Tensor captureStep(const torch::Tensor &hidden, const torch::Tensor &lengths_on_device,
                          const torch::Tensor &weight, cudaStream_t s, cudaGraph_t *g) {
  auto lengths = lengths_on_device.to(torch::kCPU); // before the capture: not captured
  torch::matmul(hidden, weight);                      // warm-up
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  auto out = torch::matmul(hidden, weight);
  int64_t first = lengths[0].item<int64_t>(); // host memory
  std::cout << "lengths " << lengths << "\n";
  float *raw = out.data_ptr<float>(); // kept for a debugger, never read
  (void)raw;
  float *unused = out.data_ptr<float>(); // never used at all
  logLoss(out.mean(), s);
  float mean = out.mean().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  cudaStreamEndCapture(s, g);
  return out * (first + mean);
}

int64_t decodeOnHost(const torch::Tensor &ids_on_device) {
  auto ids = ids_on_device.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  // The copy above is the finding: the read of the host copy waits for nothing and moves out with it.
  return ids[0].item<int64_t>();
}
