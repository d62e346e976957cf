// RUN-ARGS: --graph-region=detect* --checks=-*,graphify-dynamic-shape,graphify-data-dependent-*
// torchvision up to 0.7 installed its NMS as a global `nms` (torchvision/nms.h); YOLOv5 ports of
// that time call it unqualified. The packs' entry is tied to torchvision's headers (declared_in),
// so that call is the greedy suppression, while a project's own global `nms` — another overload
// of the same name, declared here — is not the library's and is checked by its body.
#include <torch/torch.h>
#include <torchvision/nms.h>

#include <vector>

struct Cand {
  float x1, y1, x2, y2, score;
};

// The project's own suppression over host boxes: checked as code, it reads no tensor.
std::vector<int> nms(const std::vector<Cand> &cands, float thresh) {
  std::vector<int> keep;
  for (int i = 0; i < static_cast<int>(cands.size()); ++i)
    if (cands[i].score > thresh)
      keep.push_back(i);
  return keep;
}

torch::Tensor detect_yolo(torch::Tensor boxes, torch::Tensor scores, int64_t max_det) {
  at::Tensor i = nms(boxes, scores, 0.45);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'nms' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through; a static graph cannot hold it [graphify-dynamic-shape]
  if (i.size(0) > max_det)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    i = i.slice(0, 0, max_det);
  return boxes.index_select(0, i);
}

torch::Tensor detect_host(torch::Tensor boxes, const std::vector<Cand> &cands) {
  std::vector<int> keep = nms(cands, 0.5f);
  return boxes.slice(0, 0, static_cast<int64_t>(keep.size()));
}
