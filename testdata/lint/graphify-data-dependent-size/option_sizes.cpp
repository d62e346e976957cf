// Output sizes and scales set through option structs (rule-pack data: the setters of
// InterpolateFuncOptions and UpsampleOptions are size arguments).
#include <torch/torch.h>

#include <vector>

namespace F = torch::nn::functional;

struct Resize : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    int64_t h = x.size(2) * 2; // metadata: static
    int64_t w = x.size(3) * 2;
    auto fixed = F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{h, w}));
    int64_t side = x.amax().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto dynamic = F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{side, w}).mode(torch::kNearest));
    // CHECK-MESSAGES: :[[@LINE-1]]:92: warning: size argument of 'size' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:13: note: assigned to 'side' here
    // CHECK-NOTES: :[[@LINE-5]]:29: note: value read from tensor here
    double scale = x.mean().item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto scaled = F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{scale, scale}));
    // CHECK-MESSAGES: :[[@LINE-1]]:98: warning: size argument of 'scale_factor' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:12: note: assigned to 'scale' here
    // CHECK-NOTES: :[[@LINE-5]]:29: note: value read from tensor here
    return fixed.sum() + dynamic.sum() + scaled.sum();
  }
};

struct UpsampleByData : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    int64_t n = x.sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    torch::nn::Upsample up(torch::nn::UpsampleOptions().size(std::vector<int64_t>{n, n}));
    // CHECK-MESSAGES: :[[@LINE-1]]:83: warning: size argument of 'size' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:13: note: assigned to 'n' here
    // CHECK-NOTES: :[[@LINE-5]]:25: note: value read from tensor here
    torch::nn::Upsample twice(torch::nn::UpsampleOptions().scale_factor(std::vector<double>{2.0, 2.0}));
    return up(x).sum() + twice(x).sum();
  }
};
