// RUN-ARGS: --profile=trace
// Under torch.jit.trace semantics only what changes the traced result is reported: branches,
// loops and sizes on host values, and host reads whose value flows into the graph. Dynamic
// shapes, CPU copies, printing and CUDA calls are recorded (or harmless) in a trace.
#include <torch/torch.h>

#include <iostream>

struct TraceModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    float scale = y.max().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' copies one element to the host; a trace records the value as a constant for every input [graphify-host-sync]
    auto out = x * scale;
    float logged = x.mean().item<float>();
    std::cout << "mean " << logged << std::endl;
    x.sum().item<float>(); // discarded
    if (x.sum().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:17: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:17: warning: 'item' copies one element to the host; a trace records the value as a constant for every input [graphify-host-sync]
      out = out + 1;
    auto idx = torch::nonzero(x > 0);
    auto sel = x.masked_select(x > 0);
    auto host = x.cpu();
    int64_t n = y.argmax().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'item' copies one element to the host; a trace records the value as a constant for every input [graphify-host-sync]
    auto z = torch::zeros({n});
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: size argument of 'zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:28: note: value read from tensor here
    return out + idx.sum() + sel.sum() + host.sum() + z.sum();
  }
};

struct ReturnsHostValue : torch::nn::Module {
  double forward(torch::Tensor x) {
    return x.norm().item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'item' copies one element to the host; a trace records the value as a constant for every input [graphify-host-sync]
  }
};

// The same reads spelled through the Scalar that item() returns: the conversion passes the value
// on without using it, so only the read whose value reaches the graph is reported.
struct ScalarSpelling : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    float scale = y.max().item().toFloat();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' copies one element to the host; a trace records the value as a constant for every input [graphify-host-sync]
    double logged = x.mean().item().toDouble();
    std::cout << "mean " << logged << std::endl;
    return x * scale;
  }
};
