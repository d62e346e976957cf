// Ops whose output shape depends on values, and boolean-mask indexing, against fixed-size
// alternatives (long-tensor indexing, three-argument where, masks kept as masks).
#include <torch/torch.h>

using torch::indexing::Slice;

struct DynamicOps : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto nz = torch::nonzero(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    auto nz2 = (x > 0).nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    auto aw = torch::argwhere(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'argwhere' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    auto sel = x.masked_select(x > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'masked_select' has a data-dependent output shape: returns as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto sel2 = torch::masked_select(x, x < 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'masked_select' has a data-dependent output shape: returns as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto runs = torch::unique_consecutive(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'unique_consecutive' has a data-dependent output shape: returns as many elements as there are runs of equal values; a static graph cannot hold it [graphify-dynamic-shape]
    auto bins = torch::bincount(x.to(torch::kLong));
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'bincount' has a data-dependent output shape: returns as many bins as the largest value; a static graph cannot hold it [graphify-dynamic-shape]
    auto where1 = torch::where(x > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'where' has a data-dependent output shape: the one-argument form returns the indices of true elements; a static graph cannot hold it [graphify-dynamic-shape]
    auto where3 = torch::where(x > 0, x, torch::zeros_like(x));
    return std::get<0>(runs).sum() + nz.sum() + nz2.sum() + aw.sum() + sel.sum() + sel2.sum() +
           bins.sum() + where1[0].sum() + where3;
  }
};

struct MaskIndexing : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor w) {
    auto pos = x.index({x > 0});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto mask = x <= 0;
    auto neg = x.index({mask});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto inv = x.index({~mask});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto both = x.index({mask & (w > 0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto lnot = x.index({torch::logical_not(mask)});
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto cast = x.index({w.to(torch::kBool)});
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto rows = x.index({Slice(), x.isnan()});
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto y = x.clone();
    y.index_put_({mask}, 0.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'index_put_' with a boolean mask has a data-dependent output shape: assigning through a boolean mask computes the true positions on the host; a static graph cannot hold it [graphify-dynamic-shape]
    return torch::cat({pos, neg, inv, both, lnot, cast, rows.flatten(), y});
  }
};

// The seed's partition: boolean selections concatenated.
struct PartitionPositiveFirst : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor w) {
    x = torch::cat({x.index({x > 0}), x.index({x <= 0})});
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    // CHECK-MESSAGES: :[[@LINE-2]]:41: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    return torch::matmul(w, x);
  }
};

// Negatives: fixed-size indexing and selections.
struct FixedSize : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor flags) {
    auto best = x.index({x.argmax()});
    auto order = torch::argsort((x <= 0).to(torch::kInt), /*stable=*/true, 0);
    auto reordered = x.index_select(0, order);
    auto byLong = x.index({order});
    auto masked = torch::where(x > 0, x, torch::zeros_like(x)).sum();
    auto filled = x.masked_fill(x == 0, 1e-4);
    auto sliced = x.index({Slice(0, 2)});
    auto byFlags = x.index({flags}); // a tensor parameter: its dtype is unknown
    auto mask = x > 0;
    mask = x.argsort();
    auto relabeled = x.index({mask}); // overwritten with a long tensor
    return best + reordered.sum() + byLong.sum() + masked + filled.sum() + sliced.sum() +
           byFlags.sum() + relabeled.sum();
  }
};
