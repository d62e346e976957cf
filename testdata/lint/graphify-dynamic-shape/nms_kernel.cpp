// RUN-ARGS: --graph-region=*::postprocess --checks=-*,graphify-dynamic-shape
// A project's own copy of torchvision's CPU NMS kernel is recognized by its structure and its
// arithmetic (analyzer SuppressionKernel.h): its call is greedy suppression, reported as the
// packs' vision::ops::nms is, with the fixed-size greedy form as its recipe, and its body is not a
// region. A copy that differs in anything that changes the result is not the kernel: its call is
// not reported as a selection, and its body is checked as any helper's (here only this check
// runs, which finds nothing inside).
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <tuple>

// The kernel as detectors copy it.
torch::Tensor kernel(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
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

// Not the kernel: the legacy '+ 1' areas: another IoU.
torch::Tensor legacy_plus_one(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
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
    float area_i = (x2[i] - x1[i] + 1) * (y2[i] - y1[i] + 1);
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

// Not the kernel: suppressing at an IoU equal to the threshold too.
torch::Tensor at_least(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
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
      if (inter / (area_i + area_j - inter) >= t)
        dead[j] = 1;
    }
  }
  return keep_t.narrow(0, 0, kept);
}

// Not the kernel: std::max(x1[j], x1[i]): the other box's coordinate wins when one is NaN.
torch::Tensor swapped_max(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
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
      float w = std::max(0.f, std::min(x2[i], x2[j]) - std::max(x1[j], x1[i]));
      float h = std::max(0.f, std::min(y2[i], y2[j]) - std::max(y1[i], y1[j]));
      float inter = w * h;
      float area_j = (x2[j] - x1[j]) * (y2[j] - y1[j]);
      if (inter / (area_i + area_j - inter) > t)
        dead[j] = 1;
    }
  }
  return keep_t.narrow(0, 0, kept);
}

// Not the kernel: a column without contiguous(): its data pointer walks the boxes' rows.
torch::Tensor strided_columns(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
  auto x1_t = boxes.select(1, 0);
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

// Not the kernel: a column converted to another dtype on its way to the CPU.
torch::Tensor converted_column(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
  auto x1_t = boxes.select(1, 0).contiguous().to(torch::kDouble);
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


// Not the kernel: it returns another counter than the one the kept indices advance.
torch::Tensor other_counter(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
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
  int64_t kept = 0, reported = 0;
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
  return keep_t.narrow(0, 0, reported);
}


// Not the kernel: the intersection kept in double: other rounding.
torch::Tensor wider_product(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
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
      double inter = w * h;
      float area_j = (x2[j] - x1[j]) * (y2[j] - y1[j]);
      if (inter / (area_i + area_j - inter) > t)
        dead[j] = 1;
    }
  }
  return keep_t.narrow(0, 0, kept);
}

// Not the kernel: a write to a coordinate as well.
torch::Tensor extra_write(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
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
        {
        dead[j] = 1;
        x1[j] = 0;
      }
    }
  }
  return keep_t.narrow(0, 0, kept);
}

// The kernel again, in double, with std::max written as the conditional it is, the threshold
// on the left, the areas from a tensor and bool flags.
torch::Tensor kernel_in_double(const torch::Tensor &dets, const torch::Tensor &conf, double threshold) {
  if (dets.size(0) == 0)
    return torch::empty({0}, dets.options().dtype(torch::kLong));
  auto left_t = dets.select(1, 0).contiguous().to(torch::kCPU);
  auto top_t = dets.select(1, 1).contiguous().to(torch::kCPU);
  auto right_t = dets.select(1, 2).contiguous().to(torch::kCPU);
  auto bottom_t = dets.select(1, 3).contiguous().to(torch::kCPU);
  auto areas_t = (bottom_t - top_t) * (right_t - left_t);
  auto order_t = std::get<1>(conf.sort(0, true));
  const int64_t n = dets.size(0);
  auto gone_t = torch::zeros({n}, dets.options().dtype(torch::kBool));
  auto keep_t = torch::empty({n}, dets.options().dtype(torch::kLong));
  bool *gone = gone_t.data_ptr<bool>();
  int64_t *keep = keep_t.data_ptr<int64_t>();
  int64_t *order = order_t.data_ptr<int64_t>();
  double *left = left_t.data_ptr<double>(), *top = top_t.data_ptr<double>();
  double *right = right_t.data_ptr<double>(), *bottom = bottom_t.data_ptr<double>();
  double *areas = areas_t.data_ptr<double>();
  int64_t count = 0;
  for (int64_t a = 0; a < n; ++a) {
    int64_t i = order[a];
    if (gone[i])
      continue;
    keep[count++] = i;
    double li = left[i], ti = top[i], ri = right[i], bi = bottom[i], ai = areas[i];
    for (int64_t b = a + 1; b < n; b += 1) {
      int64_t j = order[b];
      if (gone[j])
        continue;
      double l = li < left[j] ? left[j] : li;
      double tp = std::max(ti, top[j]);
      double r = std::min(ri, right[j]);
      double bt = bottom[j] < bi ? bottom[j] : bi;
      double w = std::max(0.0, r - l), h = std::max(0.0, bt - tp);
      double overlap = w * h / (ai + areas[j] - w * h);
      if (threshold < overlap)
        gone[j] = true;
    }
  }
  return keep_t.slice(0, 0, count);
}

// The kernel as a method that never touches its object: called on `this`, its arguments are the
// kernel's.
struct Filter {
  float unused = 0;
  torch::Tensor suppress(const torch::Tensor &boxes, const torch::Tensor &scores, float t) {
    auto x1_t = boxes.select(1, 0).contiguous(), y1_t = boxes.select(1, 1).contiguous();
    auto x2_t = boxes.select(1, 2).contiguous(), y2_t = boxes.select(1, 3).contiguous();
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
      for (int64_t b = a + 1; b < n; b++) {
        auto j = order[b];
        if (dead[j] == 1)
          continue;
        float w = std::max(0.f, std::min(x2[i], x2[j]) - std::max(x1[i], x1[j]));
        float h = std::max(0.f, std::min(y2[i], y2[j]) - std::max(y1[i], y1[j]));
        float inter = w * h;
        if (inter / ((x2[i] - x1[i]) * (y2[i] - y1[i]) + (x2[j] - x1[j]) * (y2[j] - y1[j]) - inter) > t)
          dead[j] = 1;
      }
    }
    return keep_t.narrow(0, 0, kept);
  }
  torch::Tensor postprocess(torch::Tensor boxes, torch::Tensor scores) {
    return boxes.index_select(0, suppress(boxes, scores, 0.5f));
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'suppress' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through (its body is torchvision's NMS kernel written out); a static graph cannot hold it [graphify-dynamic-shape]
  }
};

struct Detector {
  torch::Tensor postprocess(torch::Tensor boxes, torch::Tensor scores) {
    auto keep = kernel(boxes, scores, 0.45f);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'kernel' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through (its body is torchvision's NMS kernel written out); a static graph cannot hold it [graphify-dynamic-shape]
    auto again = kernel_in_double(boxes, scores, 0.45);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'kernel_in_double' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through (its body is torchvision's NMS kernel written out); a static graph cannot hold it [graphify-dynamic-shape]
    auto others = again.sum() + legacy_plus_one(boxes, scores, 0.45f) + at_least(boxes, scores, 0.45f).sum() +
                  swapped_max(boxes, scores, 0.45f).sum() + strided_columns(boxes, scores, 0.45f).sum() +
                  wider_product(boxes, scores, 0.45f).sum() + extra_write(boxes, scores, 0.45f).sum() +
                  converted_column(boxes, scores, 0.45f).sum() + other_counter(boxes, scores, 0.45f).sum();
    return boxes.index_select(0, keep) * others.sum();
  }
};
