// Masks stay masks through layout and device changes, through concatenation and through
// selections of their elements (a row of a batch of masks), and indexing with operator[] is
// indexing: each use below has a data-dependent output shape. LibTorch's operator[] given a tensor
// also reads it back with item() (a 0-d position; a mask of more elements throws there).
#include <torch/torch.h>

struct Carriers : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor scores) {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    auto keep = scores > 0.5;
    auto a = x.index({keep.to(device)});
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto b = x.index({keep.contiguous().view({-1})});
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto c = x[x > 0];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator[]' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    // CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'operator[]' reads its 0-d index tensor back to the host (LibTorch's operator[](Tensor) calls item()); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto both = torch::cat({keep, scores < 0.1});
    auto d = torch::cat({x, x}).index({both});
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto e = x[keep.clone()];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator[]' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    // CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'operator[]' reads its 0-d index tensor back to the host (LibTorch's operator[](Tensor) calls item()); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto batch = scores.unsqueeze(0) > 0.5;
    auto r = x.index({batch[0]});
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto s = x.index({batch.select(0, 0).narrow(0, 0, x.size(0))});
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    // Not masks: a conversion to another dtype, a concatenation with a non-mask, a position,
    // a row of a conversion.
    auto l = x.index({batch.to(torch::kLong)[0]});
    auto f = x.index({keep.to(torch::kLong)});
    auto g = x.index({torch::cat({keep, scores})});
    auto h = x[scores.argmax()];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'operator[]' reads its 0-d index tensor back to the host (LibTorch's operator[](Tensor) calls item()); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    return r.sum() + s.sum() + l.sum() + a.sum() + b.sum() + c.sum() + d.sum() + e.sum() + f.sum() + g.sum() + h.sum();
  }
};

// A factory told the Bool dtype makes a mask. A tensor parameter that every call of its function
// in the file passes a mask is one:
// indexing with it selects. Given a mask at one call and a position at another, it is not known.
static torch::Tensor allowedLogits(const torch::Tensor &logits, const torch::Tensor &vocab_mask) {
  return logits.index({vocab_mask});
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
}
static torch::Tensor pick(const torch::Tensor &x, const torch::Tensor &which) { return x.index({which}); }

struct Sampler : torch::nn::Module {
  torch::Tensor forward(torch::Tensor logits, torch::Tensor scores) {
    auto a = allowedLogits(logits, scores > 0.5);
    auto b = pick(logits, scores > 0.5);
    auto c = pick(logits, scores.argmax());
    auto allowed = torch::ones({logits.size(0)}, torch::kBool);
    auto d = logits.index({allowed});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' takes indices built in host memory ('ones', line 54), which it copies to the device first; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    return a.sum() + b.sum() + c.sum() + d.sum();
  }
};
