// A hand-written NMS on a host copy, as CPU post-processing writes it for speed: the flags start
// as n zeros (n, the count of a selection, is their length, not their values), a helper sets
// them through a pointer under tests of read IoUs, and the tests of the flags follow those reads.
// What follows the best of a selection is split off by sizes that its count gives.
// RUN-ARGS: --graph-region=keep_of --graph-region=rest_after_best
#include <torch/torch.h>

#include <cstdint>
#include <vector>

static void suppress_after(int64_t i, int64_t n, const float *iou, uint8_t *suppressed, float t) {
  for (int64_t j = i + 1; j < n; ++j) {
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    if (suppressed[j])
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      continue;
    if (iou[i * n + j] > t)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      suppressed[j] = 1;
  }
}

static torch::Tensor nms_cpu(const torch::Tensor &order, const torch::Tensor &iou, float t) {
  int64_t n = order.size(0);
  auto host_iou = iou.cpu().contiguous();
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  std::vector<uint8_t> suppressed(static_cast<size_t>(n), 0);
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < n; ++i) {
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    if (suppressed[static_cast<size_t>(i)])
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      continue;
    keep.push_back(i);
    suppress_after(i, n, host_iou.data_ptr<float>(), suppressed.data(), t);
  }
  return torch::tensor(keep);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'tensor' builds a tensor with one element per element of its host data, whose number depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
}

torch::Tensor keep_of(const torch::Tensor &scores, const torch::Tensor &iou, float t) {
  auto sel = scores.index({scores > 0.25});
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
  return nms_cpu(sel.argsort(-1, /*descending=*/true).cpu(), iou, t);
  // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
}

// Past the best score: a part of a selection, sized by its count.
torch::Tensor rest_after_best(const torch::Tensor &scores) {
  auto sel = std::get<0>(scores.index({scores > 0.5}).sort(0, /*descending=*/true));
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
  return sel.split_with_sizes({1, sel.numel() - 1}, 0).at(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: size argument of 'split_with_sizes' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
}
