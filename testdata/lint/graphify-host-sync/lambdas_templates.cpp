// Host reads inside generic lambdas, namespace-scope lambdas, function templates and member
// containers are found where they are written; one finding per line even when a template is
// instantiated several times.
#include <torch/torch.h>

#include <vector>

static auto peakOf = [](const torch::Tensor &t) { return t.max().item<float>(); };
// CHECK-MESSAGES: :[[@LINE-1]]:66: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]

template <typename T> T readAs(const torch::Tensor &t) {
  return t.sum().item<T>();
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

struct GenericLambdas : torch::nn::Module {
  std::vector<float> history_;
  torch::Tensor forward(torch::Tensor x) {
    auto mean = [](const auto &t) { return t.mean().template item<float>(); };
    // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    if (mean(x) > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-4]]:62: note: value read from tensor here
      x = x * 2;
    if (peakOf(x) > 1)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-19]]:66: note: value read from tensor here
      x = x / 2;
    if (readAs<double>(x) > readAs<float>(x))
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-19]]:18: note: value read from tensor here
      x = x + 1;
    history_.push_back(readAs<float>(x));
    if (!history_.empty() && history_.back() > 3)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-24]]:18: note: value read from tensor here
      x = x - 1;
    return x;
  }
};
