// Branches of every shape on values read from tensors, in nn::Module forward methods.
#include <torch/torch.h>

struct SeedModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.sum().item<float>() > 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      // CHECK-NOTES: :[[@LINE-3]]:17: note: value read from tensor here
      return x * 2;
    return x + 2;
  }
};
