// Declarations shared by the program, and a module written in the header. Its forward is
// analysed in every translation unit that includes it; without --header-filter its findings
// are not shown, only counted once in a closing note:
// CHECK-STDERR: graphify-lint: note: 2 findings in headers not shown; use --header-filter
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
      return x;
    return -x;
  }
};
