// CUDA runtime calls that break stream capture, called from a module's forward and from
// helpers it calls; the same calls outside any region are fine.
#include <cuda_runtime.h>
#include <torch/torch.h>

static void syncAll() {
  cudaDeviceSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
}

struct CudaModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float *scratch = nullptr;
    cudaMalloc(&scratch, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMalloc' allocates outside the graph's memory pool; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaMemset(scratch, 0, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemset' runs on the legacy default stream, outside the captured stream; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    float host[4];
    cudaMemcpy(host, scratch, sizeof(host), cudaMemcpyDeviceToHost);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpy' copies synchronously on the legacy default stream; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaMemcpyPeer(scratch, 1, scratch + 128, 0, 512);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyPeer' copies between devices synchronously on the legacy default stream; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaMemset2D(scratch, 64, 0, 64, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemset2D' runs on the legacy default stream, outside the captured stream; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaStream_t stream = nullptr;
    cudaStreamSynchronize(stream);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' waits for a stream on the host; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    cudaEvent_t ev = nullptr;
    if (cudaEventQuery(ev) == cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cudaEventQuery' queries work that is being captured, not run; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
      syncAll();
    cudaMemcpyAsync(host, scratch, sizeof(host), cudaMemcpyDeviceToHost, stream);
    cudaFree(scratch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' frees memory, which synchronises the device; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return x * 2;
  }
};

// Reseeding: LibTorch's CUDA generator asserts that no stream is being captured.
struct NoisyModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::manual_seed(7);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'manual_seed' sets the seed of every generator, which LibTorch's CUDA generator refuses while a stream is captured; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    torch::cuda::manual_seed_all(7);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'manual_seed_all' sets the seed of every CUDA generator, which they refuse while a stream is captured; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    return x * 2;
  }
};

void setup() {
  torch::manual_seed(7);
  float *buffer = nullptr;
  cudaMalloc(&buffer, 4096);
  cudaDeviceSynchronize();
  cudaFree(buffer);
}
