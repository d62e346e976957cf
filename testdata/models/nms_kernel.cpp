// Detection post-processing whose NMS is the project's own copy of torchvision's CPU kernel: the
// columns copied to the CPU, the candidates sorted by score once, a suppressed flag per box, and
// loops over data_ptr arrays with the IoU written with std::max and std::min. graphify recognizes
// the function by its structure and arithmetic (analyzer SuppressionKernel.h), so the call means
// what vision::ops::nms means: selection-to-padded splits the entry into a capturable core — the
// score filter padded, the suppression in its exact fixed-size form (N masked iterations over the
// IoU matrix of the sorted boxes), the cap and the gathers — and a host epilogue that slices by
// the counts. The kernel itself stays as written; the core no longer calls it. Its flags are bool
// (torchvision's are bytes, which the bundled runtime does not have; both are recognized).
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <tuple>

static torch::Tensor nms_cpu(const torch::Tensor &boxes, const torch::Tensor &scores, double threshold) {
  if (boxes.numel() == 0)
    return torch::empty({0}, boxes.options().dtype(torch::kLong));
  auto x1_t = boxes.select(1, 0).contiguous().cpu();
  auto y1_t = boxes.select(1, 1).contiguous().cpu();
  auto x2_t = boxes.select(1, 2).contiguous().cpu();
  auto y2_t = boxes.select(1, 3).contiguous().cpu();
  auto order_t = std::get<1>(scores.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true)).cpu();
  auto count = boxes.size(0);
  auto suppressed_t = torch::zeros({count}, torch::TensorOptions().dtype(torch::kBool));
  auto keep_t = torch::zeros({count}, torch::TensorOptions().dtype(torch::kLong));
  auto *suppressed = suppressed_t.data_ptr<bool>();
  auto *keep = keep_t.data_ptr<int64_t>();
  auto *order = order_t.data_ptr<int64_t>();
  auto *x1 = x1_t.data_ptr<float>();
  auto *y1 = y1_t.data_ptr<float>();
  auto *x2 = x2_t.data_ptr<float>();
  auto *y2 = y2_t.data_ptr<float>();
  int64_t kept = 0;
  for (int64_t a = 0; a < count; a++) {
    const int64_t i = order[a];
    if (suppressed[i])
      continue;
    keep[kept++] = i;
    const float area_i = (x2[i] - x1[i]) * (y2[i] - y1[i]);
    for (int64_t b = a + 1; b < count; b++) {
      const int64_t j = order[b];
      if (suppressed[j] == 1)
        continue;
      const float w = std::max(0.0f, std::min(x2[i], x2[j]) - std::max(x1[i], x1[j]));
      const float h = std::max(0.0f, std::min(y2[i], y2[j]) - std::max(y1[i], y1[j]));
      const float inter = w * h;
      const float area_j = (x2[j] - x1[j]) * (y2[j] - y1[j]);
      if (inter / (area_i + area_j - inter) > threshold)
        suppressed[j] = true;
    }
  }
  return keep_t.narrow(0, 0, kept);
}

// graphify-entry: corners: f32[12,2] in [0, 2], sizes: f32[12,2] in [1, 3], scores: f32[12]
GRAPHIFY_GRAPH_REGION std::tuple<torch::Tensor, torch::Tensor>
kernel_detect(torch::Tensor corners, torch::Tensor sizes, torch::Tensor scores) {
  const int64_t max_det = 4;
  auto boxes = torch::cat({corners, corners + sizes}, 1);
  auto confident = scores > 0;
  boxes = boxes.index({confident});
  scores = scores.index({confident});
  auto keep = nms_cpu(boxes, scores, 0.4);
  if (keep.size(0) > max_det)
    keep = keep.slice(0, 0, max_det);
  return std::make_tuple(boxes.index_select(0, keep), scores.index({keep}));
}
// graphify-expect-fix: fixed

// torchvision's layout of the same kernel: a template over the coordinates' type (the IoU compared
// with a double threshold) and a wrapper that dispatches on the boxes' dtype. The wrapper is
// recognized as the kernel, so its call gets the same fixed-size form, the boxes checked to hold
// one of the dispatch's dtypes.
template <typename scalar_t>
static torch::Tensor nms_impl(const torch::Tensor &boxes, const torch::Tensor &scores, double threshold) {
  if (boxes.numel() == 0)
    return torch::empty({0}, boxes.options().dtype(torch::kLong));
  auto x1_t = boxes.select(1, 0).contiguous();
  auto y1_t = boxes.select(1, 1).contiguous();
  auto x2_t = boxes.select(1, 2).contiguous();
  auto y2_t = boxes.select(1, 3).contiguous();
  torch::Tensor areas_t = (x2_t - x1_t) * (y2_t - y1_t);
  auto order_t = std::get<1>(scores.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true));
  auto count = boxes.size(0);
  auto suppressed_t = torch::zeros({count}, torch::TensorOptions().dtype(torch::kBool));
  auto keep_t = torch::zeros({count}, torch::TensorOptions().dtype(torch::kLong));
  auto *suppressed = suppressed_t.data_ptr<bool>();
  auto *keep = keep_t.data_ptr<int64_t>();
  auto *order = order_t.data_ptr<int64_t>();
  auto *x1 = x1_t.data_ptr<scalar_t>();
  auto *y1 = y1_t.data_ptr<scalar_t>();
  auto *x2 = x2_t.data_ptr<scalar_t>();
  auto *y2 = y2_t.data_ptr<scalar_t>();
  auto *areas = areas_t.data_ptr<scalar_t>();
  int64_t kept = 0;
  for (int64_t a = 0; a < count; a++) {
    auto i = order[a];
    if (suppressed[i])
      continue;
    keep[kept++] = i;
    auto ix1 = x1[i], iy1 = y1[i], ix2 = x2[i], iy2 = y2[i], iarea = areas[i];
    for (int64_t b = a + 1; b < count; b++) {
      auto j = order[b];
      if (suppressed[j])
        continue;
      auto w = std::max(static_cast<scalar_t>(0), std::min(ix2, x2[j]) - std::max(ix1, x1[j]));
      auto h = std::max(static_cast<scalar_t>(0), std::min(iy2, y2[j]) - std::max(iy1, y1[j]));
      auto inter = w * h;
      if (inter / (iarea + areas[j] - inter) > threshold)
        suppressed[j] = true;
    }
  }
  return keep_t.narrow(/*dim=*/0, /*start=*/0, /*length=*/kept);
}

static torch::Tensor nms_dispatch(const torch::Tensor &boxes, const torch::Tensor &scores, double threshold) {
  TORCH_CHECK(boxes.dim() == 2, "boxes should be a 2d tensor, got ", boxes.dim(), "D");
  auto result = torch::empty({0}, boxes.options().dtype(torch::kLong));
  AT_DISPATCH_FLOATING_TYPES(boxes.scalar_type(), "nms_dispatch", [&] {
    result = nms_impl<scalar_t>(boxes, scores, threshold);
  });
  return result;
}

// graphify-entry: corners: f32[12,2] in [0, 2], sizes: f32[12,2] in [1, 3], scores: f32[12]
GRAPHIFY_GRAPH_REGION std::tuple<torch::Tensor, torch::Tensor>
dispatch_detect(torch::Tensor corners, torch::Tensor sizes, torch::Tensor scores) {
  auto boxes = torch::cat({corners, corners + sizes}, 1);
  auto confident = scores > 0;
  boxes = boxes.index({confident});
  scores = scores.index({confident});
  auto keep = nms_dispatch(boxes, scores, 0.4);
  return std::make_tuple(boxes.index_select(0, keep), scores.index({keep}));
}
// graphify-expect-fix: fixed
