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

