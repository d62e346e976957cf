// Loops whose trip count follows a value read from a tensor, and loops bounded by shapes.
#include <torch/torch.h>

#include <vector>

struct WhileOnValue : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    while (x.norm().item<float>() > 1.0f)
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-2]]:21: note: value read from tensor here
    // CHECK-MESSAGES: :[[@LINE-3]]:21: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      x = x / 2;
    return x;
  }
};

struct ForWithTensorBound : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor steps) {
    int64_t n = steps.item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    for (int64_t i = 0; i < n; ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-4]]:23: note: value read from tensor here
      x = torch::tanh(x);
    int64_t start = steps.max().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    for (int64_t i = start; i < 10; ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-4]]:33: note: value read from tensor here
      x = x + 1;
    return x;
  }
};

struct DoWhileAndConvergence : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float delta = 0;
    int iters = 0;
    do {
      auto next = torch::relu(x - 0.1);
      delta = (next - x).abs().max().item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      x = next;
      ++iters;
    } while (delta > 1e-3f && iters < 50);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-6]]:38: note: value read from tensor here
    return x;
  }
};

struct RangeOverHostValues : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<float> weights;
    for (int64_t i = 0; i < x.size(0); ++i)
      weights.push_back(x[i].sum().item<float>());
      // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // The elements were read from the tensor, but there are x.size(0) of them: a static count.
    for (float w : weights)
      x = x * w;
    return x;
  }
};

struct RangeOverFilteredValues : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<float> kept;
    for (int64_t i = 0; i < x.size(0); ++i) {
      float w = x[i].sum().item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      if (w > 0.5f)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        kept.push_back(w);
    }
    for (float w : kept)
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-4]]:14: note: the length of 'kept' follows tensor data from here
    // CHECK-NOTES: :[[@LINE-9]]:28: note: value read from tensor here
      x = x * w;
    return x;
  }
};

// Negatives: bounds from shapes, constants and lists of tensors.
struct StaticLoops : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> parts = x.chunk(4, 0);
    torch::Tensor acc = torch::zeros_like(parts[0]);
    for (const auto &p : parts)
      acc = acc + p;
    for (int64_t t = 0; t < x.size(1); ++t)
      acc = acc * 0.5;
    int k = 0;
    while (k < 3)
      ++k;
    for (auto d : x.sizes())
      acc = acc + d;
    return acc;
  }
};

// A tensor sized by a number read from tensor data has a size that follows the data, as a
// selection's does: here through a helper's returned tuple, unpacked with a structured binding.
// Only the sizes given by the read follow it ('vals.size(1)' is 2).
std::tuple<torch::Tensor, torch::Tensor> seeds_of(const torch::Tensor &field) {
  int64_t n = (field > 0.5).sum().item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return {torch::empty({n}, torch::kLong), torch::empty({n, 2})};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: size argument of 'empty' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-MESSAGES: :[[@LINE-2]]:58: warning: size argument of 'empty' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
}

struct SizedByData : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto [ids, vals] = seeds_of(x);
    torch::Tensor acc = x;
    for (int64_t i = 0; i < ids.size(0); ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-11]]:24: note: 'empty' sizes its result by it here
    // CHECK-NOTES: :[[@LINE-14]]:35: note: value read from tensor here
      acc = acc * 2;
    for (int64_t j = 0; j < vals.size(1); ++j)
      acc = acc + 1;
    return acc;
  }
};
