// RUN-ARGS: --graph-region=detect* --checks=-*,graphify-dynamic-shape
// torchvision writes its CPU NMS as a kernel template over the coordinates' type and a wrapper
// that dispatches on the boxes' dtype (AT_DISPATCH_FLOATING_TYPES, a macro of the packs'
// dispatch_macros); detectors copy the pair. A wrapper whose body is the packs' assertions, a
// result made by a pure factory, the dispatch and the return, each case only assigning the
// kernel's instantiation called with the wrapper's parameters, is the kernel too (analyzer
// SuppressionKernel.h): its call in the region is the greedy suppression, reported once there.
// A wrapper that does anything more, or converts the threshold on the way, is not: the kernel's
// call inside it is what gets reported.
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <tuple>

template <typename scalar_t>
torch::Tensor suppress_impl(const torch::Tensor &boxes, const torch::Tensor &scores, double thresh) {
  if (boxes.numel() == 0)
    return torch::empty({0}, boxes.options().dtype(torch::kLong));
  auto left_t = boxes.select(1, 0).contiguous();
  auto top_t = boxes.select(1, 1).contiguous();
  auto right_t = boxes.select(1, 2).contiguous();
  auto bottom_t = boxes.select(1, 3).contiguous();
  torch::Tensor area_t = (right_t - left_t) * (bottom_t - top_t);
  auto rank_t = std::get<1>(scores.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true));
  auto n = boxes.size(0);
  torch::Tensor out_t = torch::zeros({n}, boxes.options().dtype(torch::kByte));
  torch::Tensor keep_t = torch::zeros({n}, boxes.options().dtype(torch::kLong));
  auto out = out_t.data_ptr<uint8_t>();
  auto keep = keep_t.data_ptr<int64_t>();
  auto rank = rank_t.data_ptr<int64_t>();
  auto left = left_t.data_ptr<scalar_t>();
  auto top = top_t.data_ptr<scalar_t>();
  auto right = right_t.data_ptr<scalar_t>();
  auto bottom = bottom_t.data_ptr<scalar_t>();
  auto area = area_t.data_ptr<scalar_t>();
  int64_t kept = 0;
  for (int64_t a = 0; a < n; a++) {
    auto i = rank[a];
    if (out[i] == 1)
      continue;
    keep[kept++] = i;
    auto il = left[i], it = top[i], ir = right[i], ib = bottom[i], iarea = area[i];
    for (int64_t b = a + 1; b < n; b++) {
      auto j = rank[b];
      if (out[j] == 1)
        continue;
      auto l = std::max(il, left[j]);
      auto t = std::max(it, top[j]);
      auto r = std::min(ir, right[j]);
      auto d = std::min(ib, bottom[j]);
      auto w = std::max(static_cast<scalar_t>(0), r - l);
      auto h = std::max(static_cast<scalar_t>(0), d - t);
      auto inter = w * h;
      auto iou = inter / (iarea + area[j] - inter);
      if (iou > thresh)
        out[j] = 1;
    }
  }
  return keep_t.narrow(/*dim=*/0, /*start=*/0, /*length=*/kept);
}

torch::Tensor suppress(const torch::Tensor &boxes, const torch::Tensor &scores, double thresh) {
  TORCH_CHECK(boxes.dim() == 2, "boxes should be a 2d tensor, got ", boxes.dim(), "D");
  TORCH_CHECK(boxes.size(0) == scores.size(0), "boxes and scores should have the same number of rows");
  auto result = torch::empty({0}, boxes.options().dtype(torch::kLong));
  AT_DISPATCH_FLOATING_TYPES(boxes.scalar_type(), "suppress", [&] {
    result = suppress_impl<scalar_t>(boxes, scores, thresh);
  });
  return result;
}

torch::Tensor detect(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = suppress(boxes, scores, 0.5);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'suppress' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through (it dispatches on the boxes' dtype to torchvision's NMS kernel written out); a static graph cannot hold it [graphify-dynamic-shape]
  return boxes.index_select(0, keep);
}

// More than the kernel in a case: the wrapper is its own code, analysed as any helper's.
torch::Tensor suppress_sorted(const torch::Tensor &boxes, const torch::Tensor &scores, double thresh) {
  auto result = torch::empty({0}, boxes.options().dtype(torch::kLong));
  AT_DISPATCH_FLOATING_TYPES(boxes.scalar_type(), "suppress_sorted", [&] {
    result = suppress_impl<scalar_t>(boxes, scores, thresh);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'suppress_impl' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through (its body is torchvision's NMS kernel written out); a static graph cannot hold it [graphify-dynamic-shape]
    result = std::get<0>(result.sort());
  });
  return result;
}

torch::Tensor detect_sorted(torch::Tensor boxes, torch::Tensor scores) {
  return boxes.index_select(0, suppress_sorted(boxes, scores, 0.5));
}

// The threshold rounded to float on the way: the kernel compares otherwise than the call says.
torch::Tensor suppress_float(const torch::Tensor &boxes, const torch::Tensor &scores, double thresh) {
  auto result = torch::empty({0}, boxes.options().dtype(torch::kLong));
  AT_DISPATCH_FLOATING_TYPES(boxes.scalar_type(), "suppress_float", [&] {
    result = suppress_impl<scalar_t>(boxes, scores, static_cast<float>(thresh));
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'suppress_impl' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through (its body is torchvision's NMS kernel written out); a static graph cannot hold it [graphify-dynamic-shape]
  });
  return result;
}

torch::Tensor detect_float(torch::Tensor boxes, torch::Tensor scores) {
  return boxes.index_select(0, suppress_float(boxes, scores, 0.5));
}
