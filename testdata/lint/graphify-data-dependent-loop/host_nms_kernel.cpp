// A project's copy of torchvision's CPU NMS kernel is one finding where region code calls it
// (graphify-dynamic-shape), its body not region code. Called only on host copies the region
// made, it is host work like the rest of what runs after the copy: the copy is the finding, the
// call is not, and the loops and branches of its body follow the data as the region's own
// would. Called on device tensors anywhere in the regions, it stays one finding at each such call
// and its body stays out of them, also where a region calls it on host copies.
// A device named by a string is a device: the copy to it is reported. The kernel written out as
// a method (YoloNms::suppress) is matched to its parameters from the first argument on: its
// object is not among them, so the scores it sorts are the host copy's too.
// RUN-ARGS: --graph-region=*::postprocess --graph-region=*::onDevice --graph-region=*::upload
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>

torch::Tensor suppress_rows(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
  auto x1_t = boxes.select(1, 0).contiguous();
  auto y1_t = boxes.select(1, 1).contiguous();
  auto x2_t = boxes.select(1, 2).contiguous();
  auto y2_t = boxes.select(1, 3).contiguous();
  auto order_t = std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true));
  auto n = boxes.size(0);
  auto dead_t = torch::zeros({n}, boxes.options().dtype(torch::kByte));
  auto keep_t = torch::zeros({n}, boxes.options().dtype(torch::kLong));
  auto dead = dead_t.data_ptr<uint8_t>();
  auto keep = keep_t.data_ptr<int64_t>();
  auto order = order_t.data_ptr<int64_t>();
  auto x1 = x1_t.data_ptr<float>(), y1 = y1_t.data_ptr<float>();
  auto x2 = x2_t.data_ptr<float>(), y2 = y2_t.data_ptr<float>();
  int64_t kept = 0;
  for (int64_t a = 0; a < n; a++) {
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    auto i = order[a];
    if (dead[i] == 1)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      continue;
    keep[kept++] = i;
    float area_i = (x2[i] - x1[i]) * (y2[i] - y1[i]);
    for (int64_t b = a + 1; b < n; b++) {
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
      auto j = order[b];
      if (dead[j] == 1)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        continue;
      float w = std::max(0.f, std::min(x2[i], x2[j]) - std::max(x1[i], x1[j]));
      float h = std::max(0.f, std::min(y2[i], y2[j]) - std::max(y1[i], y1[j]));
      float inter = w * h;
      float area_j = (x2[j] - x1[j]) * (y2[j] - y1[j]);
      if (inter / (area_i + area_j - inter) > t)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        dead[j] = 1;
    }
  }
  return keep_t.narrow(0, 0, kept);
}

torch::Tensor suppress_device(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
  auto x1_t = boxes.select(1, 0).contiguous();
  auto y1_t = boxes.select(1, 1).contiguous();
  auto x2_t = boxes.select(1, 2).contiguous();
  auto y2_t = boxes.select(1, 3).contiguous();
  auto order_t = std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true));
  auto n = boxes.size(0);
  auto dead_t = torch::zeros({n}, boxes.options().dtype(torch::kByte));
  auto keep_t = torch::zeros({n}, boxes.options().dtype(torch::kLong));
  auto dead = dead_t.data_ptr<uint8_t>();
  auto keep = keep_t.data_ptr<int64_t>();
  auto order = order_t.data_ptr<int64_t>();
  auto x1 = x1_t.data_ptr<float>(), y1 = y1_t.data_ptr<float>();
  auto x2 = x2_t.data_ptr<float>(), y2 = y2_t.data_ptr<float>();
  int64_t kept = 0;
  for (int64_t a = 0; a < n; a++) {
    auto i = order[a];
    if (dead[i] == 1)
      continue;
    keep[kept++] = i;
    float area_i = (x2[i] - x1[i]) * (y2[i] - y1[i]);
    for (int64_t b = a + 1; b < n; b++) {
      auto j = order[b];
      if (dead[j] == 1)
        continue;
      float w = std::max(0.f, std::min(x2[i], x2[j]) - std::max(x1[i], x1[j]));
      float h = std::max(0.f, std::min(y2[i], y2[j]) - std::max(y1[i], y1[j]));
      float inter = w * h;
      float area_j = (x2[j] - x1[j]) * (y2[j] - y1[j]);
      if (inter / (area_i + area_j - inter) > t)
        dead[j] = 1;
    }
  }
  return keep_t.narrow(0, 0, kept);
}

struct Detector {
  std::string device_name = "cuda:0";

  torch::Tensor postprocess(const torch::Tensor &boxes, const torch::Tensor &scores) {
    auto b = boxes.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto s = scores.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto confident = s > 0.25f;
    auto kept_boxes = b.index({confident});
    auto kept_scores = s.index({confident});
    // suppress_device is called on device tensors elsewhere: its body stays out of the regions.
    auto again = suppress_device(kept_boxes, kept_scores, 0.45f);
    return kept_boxes.index_select(0, suppress_rows(kept_boxes, kept_scores, 0.45f)) + again.sum();
  }

  torch::Tensor onDevice(const torch::Tensor &boxes, const torch::Tensor &scores) {
    return boxes.index_select(0, suppress_device(boxes, scores, 0.45f));
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'suppress_device' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through (its body is torchvision's NMS kernel written out); a static graph cannot hold it [graphify-dynamic-shape]
  }

  torch::Tensor upload(const float *pixels, int64_t n) {
    return torch::from_blob(const_cast<float *>(pixels), {n}).to(device_name);
    // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: 'to' copies a tensor built in host memory ('from_blob', line 117) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  }
};

struct YoloNms {
  float iou = 0.45f;

  torch::Tensor suppress(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
    auto x1_t = boxes.select(1, 0).contiguous();
    auto y1_t = boxes.select(1, 1).contiguous();
    auto x2_t = boxes.select(1, 2).contiguous();
    auto y2_t = boxes.select(1, 3).contiguous();
    auto order_t = std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true));
    auto n = boxes.size(0);
    auto dead_t = torch::zeros({n}, boxes.options().dtype(torch::kByte));
    auto keep_t = torch::zeros({n}, boxes.options().dtype(torch::kLong));
    auto dead = dead_t.data_ptr<uint8_t>();
    auto keep = keep_t.data_ptr<int64_t>();
    auto order = order_t.data_ptr<int64_t>();
    auto x1 = x1_t.data_ptr<float>(), y1 = y1_t.data_ptr<float>();
    auto x2 = x2_t.data_ptr<float>(), y2 = y2_t.data_ptr<float>();
    int64_t kept = 0;
    for (int64_t a = 0; a < n; a++) {
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
      auto i = order[a];
      if (dead[i] == 1)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        continue;
      keep[kept++] = i;
      float area_i = (x2[i] - x1[i]) * (y2[i] - y1[i]);
      for (int64_t b = a + 1; b < n; b++) {
      // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
        auto j = order[b];
        if (dead[j] == 1)
        // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
          continue;
        float w = std::max(0.f, std::min(x2[i], x2[j]) - std::max(x1[i], x1[j]));
        float h = std::max(0.f, std::min(y2[i], y2[j]) - std::max(y1[i], y1[j]));
        float inter = w * h;
        float area_j = (x2[j] - x1[j]) * (y2[j] - y1[j]);
        if (inter / (area_i + area_j - inter) > t)
        // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
          dead[j] = 1;
      }
    }
    return keep_t.narrow(0, 0, kept);
  }

  torch::Tensor postprocess(const torch::Tensor &pred) {
    auto host = pred.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto x = host.index({host.select(1, 4) > 0.25f});
    auto boxes = x.index({torch::indexing::Slice(), torch::indexing::Slice(torch::indexing::None, 4)});
    auto scores = x.index({torch::indexing::Slice(), 4});
    return x.index_select(0, suppress(boxes, scores, iou));
  }
};
