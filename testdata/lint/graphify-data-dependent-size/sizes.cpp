// Sizes, shapes, bounds and k computed from values read from tensors.
#include <torch/torch.h>

#include <vector>

using torch::indexing::Slice;

struct Factories : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    int64_t n = x.sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto a = torch::zeros({n, 3});
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: size argument of 'zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:25: note: value read from tensor here
    auto b = torch::ones({3, n});
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'ones' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-7]]:25: note: value read from tensor here
    auto c = torch::arange(n);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: size argument of 'arange' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-10]]:25: note: value read from tensor here
    auto d = torch::arange(0, n, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'arange' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-13]]:25: note: value read from tensor here
    auto e = torch::full({n}, 1.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: size argument of 'full' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-16]]:25: note: value read from tensor here
    auto f = x.new_zeros({n});
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: size argument of 'new_zeros' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-19]]:25: note: value read from tensor here
    auto g = torch::empty(n);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: size argument of 'empty' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-22]]:25: note: value read from tensor here
    auto h = torch::randn({2, n});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'randn' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-25]]:25: note: value read from tensor here
    return a.sum() + b.sum() + c.sum() + d.sum() + e.sum() + f.sum() + g.sum() + h.sum();
  }
};

struct ViewsAndSlices : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto len = x.max().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto y = x.view({len, -1});
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: size argument of 'view' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:24: note: value read from tensor here
    auto z = x.reshape({-1, len});
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: size argument of 'reshape' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-7]]:24: note: value read from tensor here
    auto s = x.slice(0, 0, len);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: size argument of 'slice' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-10]]:24: note: value read from tensor here
    auto t = x.narrow(0, 1, len);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: size argument of 'narrow' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-13]]:24: note: value read from tensor here
    auto u = x.index({Slice(0, len)});
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: size argument of 'Slice' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-16]]:24: note: value read from tensor here
    auto v = x.index({Slice(), Slice(len, torch::indexing::None)});
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: size argument of 'Slice' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-19]]:24: note: value read from tensor here
    auto w = torch::narrow(x, 0, 0, len);
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: size argument of 'narrow' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-22]]:24: note: value read from tensor here
    auto [vals, idx] = x.topk(len);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'topk' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-25]]:24: note: value read from tensor here
    return y.sum() + z.sum() + s.sum() + t.sum() + u.sum() + v.sum() + w.sum() + vals.sum();
  }
};

struct ShapeVectors : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<int64_t> shape;
    shape.push_back(x.size(0));
    shape.push_back(x.argmax().item<int64_t>() + 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto y = x.expand(shape);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: size argument of 'expand' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:32: note: value read from tensor here
    int64_t k = static_cast<int64_t>(x.mean().item<float>() * 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto chunks = y.chunk(k, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: size argument of 'chunk' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:47: note: value read from tensor here
    return chunks[0];
  }
};

// Negatives: shapes from metadata and constants.
struct StaticSizes : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    const int64_t batch = x.size(0);
    auto h = torch::zeros({batch, 16});
    auto y = x.view({batch, -1});
    auto s = x.slice(1, 0, x.size(1) / 2);
    auto r = torch::arange(x.numel());
    auto t = x.narrow(0, 0, std::min<int64_t>(batch, 4));
    auto u = x.index({Slice(0, batch - 1)});
    std::vector<int64_t> shape = {batch, x.size(1)};
    auto v = x.reshape(shape);
    auto [vals, idx] = x.topk(3);
    return h.sum() + y.sum() + s.sum() + r.sum() + t.sum() + u.sum() + v.sum() + vals.sum();
  }
};
