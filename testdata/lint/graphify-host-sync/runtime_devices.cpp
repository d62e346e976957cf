// A device chosen at run time is a host transfer only when the CPU is its only possible value.
#include <torch/torch.h>

struct Mover : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    auto a = x.to(device);
    auto b = x.to(torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU));
    torch::Device later = torch::kCPU;
    if (torch::cuda::is_available())
      later = torch::Device(torch::kCUDA);
    auto c = x.to(later);
    torch::Device fixed = torch::kCPU;
    auto d = x.to(fixed);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    bool flag = x.dim() > 2;
    auto e = x.to(flag ? torch::kCPU : torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return a + b + c + d + e;
  }
};
