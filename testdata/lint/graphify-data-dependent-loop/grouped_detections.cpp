// RUN-ARGS: --graph-region=postprocess* --checks=-*,graphify-data-dependent-*
// Detections grouped by a class id read from the tensor (a map from class to positions), walked
// with a structured binding: each group's length follows the data, so the loops over a group
// do. A local list of detections replaced whole by a helper's result holds containers as long
// as the helper made them; a field that only received a value read from the data keeps its own
// length.
#include <torch/torch.h>

#include <unordered_map>
#include <vector>

struct Det {
  int cls;
  float score;
};

struct DetList {
  std::vector<Det> items;
  std::vector<float> scale;
  void fill(const float *rows, int64_t n); // reads n rows of (cls, score): no body here
};

static DetList per_class_best(const std::vector<Det> &dets, float thr) {
  std::unordered_map<int, std::vector<size_t>> by_class;
  for (size_t i = 0; i < dets.size(); ++i)
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    by_class[dets[i].cls].push_back(i);
  DetList out;
  for (const auto &[cls, members] : by_class) {
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: loop range depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    size_t best = members.front();
    for (size_t k = 1; k < members.size(); ++k)
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
      if (dets[members[k]].score > dets[best].score)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        best = members[k];
    if (dets[best].score > thr)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      out.items.push_back(dets[best]);
  }
  return out;
}

std::vector<Det> postprocess(const torch::Tensor &rows, float thr, size_t max_det) {
  auto host = rows.contiguous();
  DetList list;
  list.fill(host.data_ptr<float>(), host.size(0));
  list = per_class_best(list.items, thr);
  if (list.items.size() > max_det)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    list.items.resize(max_det);
  return list.items;
}

// The same walk over a map whose keys and groups the code chose: nothing follows the data.
std::vector<float> postprocess_static(const torch::Tensor &rows) {
  std::unordered_map<int, std::vector<int>> groups{{0, {1, 2}}, {1, {3}}};
  std::vector<float> sums;
  for (const auto &[key, members] : groups)
    for (size_t k = 0; k < members.size(); ++k)
      sums.push_back(static_cast<float>(key + members[k]));
  DetList list;
  list.scale.push_back(rows.sum().item<float>());
  for (size_t k = 0; k < list.scale.size(); ++k)
    sums.push_back(list.scale[k]);
  return sums;
}
