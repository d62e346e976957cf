// RUN-ARGS: --scope=all
// With --scope=all every function of the file is checked: the training loop's logging, a
// class whose forward is not a module's, and free helpers are reported too.
#include <torch/torch.h>

#include <iostream>

struct NotAModule {
  torch::Tensor forward(torch::Tensor x) {
    if (x.sum().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:17: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x;
    return -x;
  }
};

void train(torch::Tensor loss) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    std::cout << "loss " << loss.item<float>() << std::endl;
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (loss.item<float>() < 1e-3f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:14: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:14: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      break;
  }
}

int64_t pickSize(torch::Tensor counts) {
  int64_t n = 0;
  while (n < counts.max().item<int64_t>())
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
  // CHECK-NOTES: :[[@LINE-2]]:27: note: value read from tensor here
  // CHECK-MESSAGES: :[[@LINE-3]]:27: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    ++n;
  return n;
}
