// Declarations shared by the program, and a module written in the header. Its forward is
// analysed in every translation unit that includes it; a graph region (forward, by default), its
// findings are shown without --header-filter, once however many units include the header.
#pragma once
#include <graphify/annotations.h>
#include <torch/torch.h>

void cudaDeviceSynchronize();

void step(torch::Tensor x);
torch::Tensor grow(torch::Tensor x, int64_t n);
void housekeeping();

struct Calibration {
  float scale = 1;
  void calibrate(const torch::Tensor &x); // calib.cpp: writes scale from tensor data
  torch::Tensor apply(torch::Tensor x);   // step.cpp: branches on scale
};

struct HeaderNet : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.max().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x;
    return -x;
  }
};
