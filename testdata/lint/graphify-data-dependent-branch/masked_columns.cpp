// RUN-ARGS: --graph-region=columns_*
// A boolean mask written after slices selects along the dimension it stands at
// (`out.index({Slice(), keep})` keeps columns): that dimension follows the data, the others keep
// their sizes. A branch on the number of kept columns is data-dependent; the rows of the selection,
// and an element at a fixed row, are not, and cannot raise for want of elements.
#include <torch/torch.h>

#include <vector>

std::vector<float> columns_kept(torch::Tensor output, float thr) {
  std::vector<float> kept;
  try {
    auto preds = output.squeeze(0);
    auto keep = preds.index({4}) > thr;
    auto cols = preds.index({torch::indexing::Slice(), keep});
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
    if (cols.size(1) == 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
      return kept;
    auto boxes = cols.slice(0, 0, 4);
    boxes.index({0}) = boxes.index({0}) * 2;
    auto scale = torch::ones({cols.size(0), 1}, output.options());
    auto width = torch::zeros({cols.size(1)}, output.options());
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    kept.push_back((boxes * scale).sum().item<float>() + width.sum().item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-MESSAGES: :[[@LINE-2]]:70: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  } catch (const std::exception &e) {
    kept.clear();
  }
  return kept;
}

// Columns gathered by an index vector (`index({Slice(), idx})` with idx from nonzero): the rows
// keep their number, the columns take the index's length; a fixed row cannot raise.
std::vector<float> columns_gathered(torch::Tensor boxes, torch::Tensor dist, float radius) {
  std::vector<float> out;
  try {
    auto idx = torch::nonzero(dist <= radius).squeeze(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    auto picked = boxes.index({torch::indexing::Slice(), idx});
    auto rows = torch::zeros({picked.size(0)}, boxes.options());
    auto cols = torch::zeros({picked.size(1)}, boxes.options());
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    auto first = picked.index({0});
    auto again = torch::zeros({first.size(0)}, boxes.options());
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    out.push_back(rows.sum().item<float>() + cols.sum().item<float>() + again.sum().item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-MESSAGES: :[[@LINE-2]]:57: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-MESSAGES: :[[@LINE-3]]:85: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  } catch (const std::exception &e) {
    out.clear();
  }
  return out;
}
