// The size of a value-dependent shape (nonzero, boolean indexing) is itself a value read from
// tensor data: sizes and loop bounds computed from it are data dependent.
#include <torch/torch.h>

struct CountThenAllocate : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto idx = torch::nonzero(x > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    int64_t n = idx.size(0);
    auto out = torch::zeros({n, 2});
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-5]]:16: note: selection whose length depends on the values made here
    auto picked = x.index({x > 0.5});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    for (int64_t i = 0; i < picked.numel(); ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-4]]:21: note: selection whose length depends on the values made here
      out = out + 1;
    auto fixed = x.index_select(0, x.argsort());
    auto m = torch::zeros({fixed.size(0)});
    return out.sum() + m.sum();
  }
};
