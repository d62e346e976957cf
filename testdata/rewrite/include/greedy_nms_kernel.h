#pragma once
// A project's own copy of torchvision's CPU NMS kernel, as detectors keep it in a header of their
// own (selection-to-padded/nms_kernel.cpp includes it; lint goldens keep near misses of it).
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <tuple>

// torchvision's CPU kernel, written out as detectors copy it.
inline torch::Tensor greedy_nms(const torch::Tensor &dets, const torch::Tensor &conf, float overlap) {
  if (dets.numel() == 0)
    return torch::empty({0}, dets.options().dtype(torch::kLong));
  auto left_t = dets.select(1, 0).contiguous();
  auto top_t = dets.select(1, 1).contiguous();
  auto right_t = dets.select(1, 2).contiguous();
  auto bottom_t = dets.select(1, 3).contiguous();
  torch::Tensor area_t = (right_t - left_t) * (bottom_t - top_t);
  auto by_conf_t = std::get<1>(conf.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true));
  const int64_t n = dets.size(0);
  torch::Tensor removed_t = torch::zeros({n}, dets.options().dtype(torch::kByte));
  torch::Tensor kept_t = torch::zeros({n}, dets.options().dtype(torch::kLong));
  auto removed = removed_t.data_ptr<uint8_t>();
  auto kept = kept_t.data_ptr<int64_t>();
  auto by_conf = by_conf_t.data_ptr<int64_t>();
  auto left = left_t.data_ptr<float>();
  auto top = top_t.data_ptr<float>();
  auto right = right_t.data_ptr<float>();
  auto bottom = bottom_t.data_ptr<float>();
  auto area = area_t.data_ptr<float>();
  int64_t num_kept = 0;
  for (int64_t a = 0; a < n; ++a) {
    auto i = by_conf[a];
    if (removed[i])
      continue;
    kept[num_kept++] = i;
    float il = left[i], it = top[i], ir = right[i], ib = bottom[i];
    float ia = area[i];
    for (int64_t b = a + 1; b < n; ++b) {
      auto j = by_conf[b];
      if (removed[j] == 1)
        continue;
      float l = std::max(il, left[j]);
      float t = std::max(it, top[j]);
      float r = std::min(ir, right[j]);
      float btm = std::min(ib, bottom[j]);
      float w = std::max(0.f, r - l);
      float h = std::max(0.f, btm - t);
      float inter = h * w;
      float iou = inter / (area[j] + ia - inter);
      if (iou > overlap)
        removed[j] = 1;
    }
  }
  return kept_t.narrow(0, 0, num_kept);
}


// The kernel again as a method of a class, which never touches its object.
struct Suppressor {
  float default_threshold = 0.5f;

  torch::Tensor keep(const torch::Tensor &boxes, const torch::Tensor &scores, float threshold) const {
    auto x1_t = boxes.select(1, 0).contiguous().cpu(), y1_t = boxes.select(1, 1).contiguous().cpu();
    auto x2_t = boxes.select(1, 2).contiguous().cpu(), y2_t = boxes.select(1, 3).contiguous().cpu();
    auto order_t = std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true)).cpu();
    const int64_t n = boxes.size(0);
    auto gone_t = torch::zeros({n}, torch::TensorOptions().dtype(torch::kBool));
    auto kept_t = torch::zeros({n}, torch::TensorOptions().dtype(torch::kLong));
    bool *gone = gone_t.data_ptr<bool>();
    int64_t *kept = kept_t.data_ptr<int64_t>(), *order = order_t.data_ptr<int64_t>();
    float *x1 = x1_t.data_ptr<float>(), *y1 = y1_t.data_ptr<float>();
    float *x2 = x2_t.data_ptr<float>(), *y2 = y2_t.data_ptr<float>();
    int64_t count = 0;
    for (int64_t a = 0; a < n; ++a) {
      const int64_t i = order[a];
      if (gone[i])
        continue;
      kept[count++] = i;
      for (int64_t b = a + 1; b < n; ++b) {
        const int64_t j = order[b];
        if (gone[j])
          continue;
        const float w = std::max(0.f, std::min(x2[i], x2[j]) - std::max(x1[i], x1[j]));
        const float h = std::max(0.f, std::min(y2[i], y2[j]) - std::max(y1[i], y1[j]));
        const float area_i = (x2[i] - x1[i]) * (y2[i] - y1[i]);
        const float area_j = (x2[j] - x1[j]) * (y2[j] - y1[j]);
        if (w * h / (area_i + area_j - w * h) > threshold)
          gone[j] = true;
      }
    }
    return kept_t.narrow(0, 0, count);
  }
};

// torchvision's own layout: the kernel as a template over the coordinates' type, comparing the
// IoU with a double threshold, and a wrapper that dispatches on the boxes' dtype.
template <typename scalar_t>
torch::Tensor greedy_nms_impl(const torch::Tensor &dets, const torch::Tensor &conf, double overlap) {
  if (dets.numel() == 0)
    return torch::empty({0}, dets.options().dtype(torch::kLong));
  auto left_t = dets.select(1, 0).contiguous();
  auto top_t = dets.select(1, 1).contiguous();
  auto right_t = dets.select(1, 2).contiguous();
  auto bottom_t = dets.select(1, 3).contiguous();
  torch::Tensor area_t = (right_t - left_t) * (bottom_t - top_t);
  auto by_conf_t = std::get<1>(conf.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true));
  const int64_t n = dets.size(0);
  torch::Tensor removed_t = torch::zeros({n}, dets.options().dtype(torch::kByte));
  torch::Tensor kept_t = torch::zeros({n}, dets.options().dtype(torch::kLong));
  auto removed = removed_t.data_ptr<uint8_t>();
  auto kept = kept_t.data_ptr<int64_t>();
  auto by_conf = by_conf_t.data_ptr<int64_t>();
  auto left = left_t.data_ptr<scalar_t>();
  auto top = top_t.data_ptr<scalar_t>();
  auto right = right_t.data_ptr<scalar_t>();
  auto bottom = bottom_t.data_ptr<scalar_t>();
  auto area = area_t.data_ptr<scalar_t>();
  int64_t count = 0;
  for (int64_t a = 0; a < n; a++) {
    auto i = by_conf[a];
    if (removed[i] == 1)
      continue;
    kept[count++] = i;
    auto il = left[i], it = top[i], ir = right[i], ib = bottom[i], ia = area[i];
    for (int64_t b = a + 1; b < n; b++) {
      auto j = by_conf[b];
      if (removed[j] == 1)
        continue;
      auto w = std::max(static_cast<scalar_t>(0), std::min(ir, right[j]) - std::max(il, left[j]));
      auto h = std::max(static_cast<scalar_t>(0), std::min(ib, bottom[j]) - std::max(it, top[j]));
      auto inter = w * h;
      if (inter / (ia + area[j] - inter) > overlap)
        removed[j] = 1;
    }
  }
  return kept_t.narrow(/*dim=*/0, /*start=*/0, /*length=*/count);
}

inline torch::Tensor greedy_nms_dispatch(const torch::Tensor &dets, const torch::Tensor &conf, double overlap) {
  TORCH_CHECK(dets.dim() == 2, "dets should be a 2d tensor, got ", dets.dim(), "D");
  auto result = torch::empty({0}, dets.options().dtype(torch::kLong));
  AT_DISPATCH_FLOATING_TYPES(dets.scalar_type(), "greedy_nms", [&] {
    result = greedy_nms_impl<scalar_t>(dets, conf, overlap);
  });
  return result;
}
