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

// One row of the kept rows drops the selected dimension: its sizes are the columns', static
// (`det[0]`, `det.select(0, 1)`, `det.index({2})`, and what is built from it). A column
// (`select(1, 0)`) keeps the selected dimension, and squeeze(0) drops it only when the data
// leaves one row.
struct OneRow : torch::nn::Module {
  torch::Tensor forward(torch::Tensor pred) {
    auto det = pred.index({pred.select(1, 4) > 0.5});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto first = torch::zeros({det[0].size(0)});
    auto second = torch::zeros({det.select(0, 1).size(0)});
    auto prefix = torch::cat({det.index({2}).flatten(), det[3].slice(0, 0, 1)}, 0);
    auto widened = torch::zeros({prefix.size(0)});
    auto column = torch::zeros({det.select(1, 0).size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-8]]:21: note: selection whose length depends on the values made here
    auto squeezed = torch::zeros({det.squeeze(0).size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-11]]:21: note: selection whose length depends on the values made here
    return first.sum() + second.sum() + widened.sum() + column.sum() + squeezed.sum();
  }
};

// A new dimension in front (stack) or indices gathered along another dimension move the
// selected dimension: one row of the result still has it.
struct MovedDims : torch::nn::Module {
  torch::Tensor forward(torch::Tensor pred) {
    auto det = pred.index({pred.select(1, 4) > 0.5});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    auto stacked = torch::zeros({torch::stack({det, det})[0].size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:21: note: selection whose length depends on the values made here
    auto keep = (pred.select(0, 0) > 0.5).nonzero().select(1, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    auto columns = torch::zeros({pred.index_select(1, keep)[0].size(0)});
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-4]]:43: note: selection whose length depends on the values made here
    auto rows = torch::zeros({pred.index_select(0, keep)[0].size(0)});
    return stacked.sum() + columns.sum() + rows.sum();
  }
};
