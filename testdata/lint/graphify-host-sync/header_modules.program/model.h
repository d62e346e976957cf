// A module written in a header that two translation units include: its forward is analysed in
// both, and each finding is shown once because the header filter selects the header.
#pragma once
#include <torch/torch.h>

struct HeaderNet : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.max().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-NOTES: :[[@LINE-3]]:17: note: value read from tensor here
      return x;
    return -x;
  }
};
