// A selection makes only its leading dimension follow the values: the number of columns of the
// kept rows is static, until a layout change (transpose, view, reshape, permute) moves the
// selected dimension, or a negative dimension may name it.
#include <torch/torch.h>

struct KeepRows : torch::nn::Module {
  torch::Tensor forward(torch::Tensor pred) {
    auto det = pred.index({pred.select(1, 4) > 0.5});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto columns = torch::zeros({det.size(1)});
    auto also_columns = torch::zeros({det.sizes()[1]});
    auto scaled_columns = torch::zeros({(det * 2).slice(1, 0, 4).size(1)});
    auto transposed = torch::zeros({det.t().size(1)});
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-7]]:21: note: selection whose length depends on the values made here
    auto last = torch::zeros({det.size(-1)});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-10]]:21: note: selection whose length depends on the values made here
    auto flat = torch::zeros({det.view({-1}).size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-13]]:21: note: selection whose length depends on the values made here
    return columns.sum() + also_columns.sum() + scaled_columns.sum() + transposed.sum() + last.sum() +
           flat.sum();
  }
};
