// Branches of every shape on host values read from tensors, in nn::Module forward methods
// (plain modules, TORCH_MODULE holders, Cloneable), with negatives on shapes and flags.
#include <torch/torch.h>

// Seed 002: the hello-world of untraceable code.
struct NonTraceableModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (x.sum().item<float>() > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:17: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x * 2;
    return x + 2;
  }
};

struct IfElseChain : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto s = x.mean().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (s > 1.0f) {
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:23: note: value read from tensor here
      return x * 2;
    } else if (s < -1.0f) {
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-8]]:23: note: value read from tensor here
      return -x;
    } else {
      return x + 1;
    }
  }
};

struct TernaryAndSwitch : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto out = x.max().item<float>() > 0.5 ? x * y : x - y;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:24: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:24: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    int64_t mode = x.argmax().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    switch (mode) {
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:31: note: value read from tensor here
    case 0:
      return out;
    default:
      return out * 2;
    }
  }
};

struct LogicalOperators : torch::nn::Module {
  bool use_bias = true;
  torch::Tensor forward(torch::Tensor x) {
    bool big = x.abs().max().item<double>() > 10.0;
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    bool both = big && use_bias;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:30: note: value read from tensor here
    bool clean = use_bias || x.dim() > 2;
    if (use_bias && big)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-8]]:30: note: value read from tensor here
      x = x / 10;
    if (clean)
      x = x + 1;
    return both ? x : x * 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-14]]:30: note: value read from tensor here
  }
};

struct BoolReads : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    if (x.is_nonzero())
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:11: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:11: warning: 'is_nonzero' reads the tensor's single value on the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return y;
    if (torch::equal(x, y))
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:9: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'equal' compares all elements on the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x;
    if (x.allclose(y, 1e-3))
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:11: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:11: warning: 'allclose' compares all elements on the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x - y;
    if ((x > 0).all().item<bool>())
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:23: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x;
    if (auto n = x.sum().item<int64_t>())
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-2]]:26: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:26: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      return x * n;
    return y;
  }
};

struct GatedImpl : torch::nn::Cloneable<GatedImpl> {
  GatedImpl() { reset(); }
  void reset() override { gate = register_module("gate", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) {
    auto g = torch::sigmoid(gate->forward(x)).mean();
    float p = g.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return p >= 0.5f ? x : torch::zeros_like(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:17: note: value read from tensor here
  }
  torch::nn::Linear gate{nullptr};
};
TORCH_MODULE(Gated);

// Negatives: shapes, dims, flags and constants are static.
struct ShapeBranches : torch::nn::Module {
  bool training_mode = false;
  int64_t threshold = 3;
  torch::Tensor forward(torch::Tensor x) {
    if (x.size(0) > 2)
      x = x.slice(0, 0, 2);
    if (x.dim() == 3 && x.sizes()[2] == 4)
      x = x.flatten(1);
    if (x.numel() > threshold || training_mode)
      x = x * 0.5;
    auto d = x.defined() ? x : torch::zeros({1});
    switch (x.dim()) {
    case 1:
      return d;
    default:
      return d.sum(0);
    }
  }
};
