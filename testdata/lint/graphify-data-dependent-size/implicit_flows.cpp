// Implicit flows: a host number or flag written under a condition that follows tensor data, or in
// a loop whose trip count does, holds how often (or whether) the condition held; used later as a
// size, a bound or a condition, it is data dependent. The variables a loop's head reads follow the
// iteration, and counters declared inside a loop body start again each time: neither is reported.
// Host data whose number of elements follows tensor values becomes a tensor of a data-dependent
// shape (torch::tensor(keep)), and so does a list of such a length joined (torch::stack(parts));
// sizes given to from_blob are sizes.
#include <graphify/annotations.h>
#include <torch/torch.h>

#include <vector>

GRAPHIFY_GRAPH_REGION torch::Tensor trim_to_kept(torch::Tensor order, const torch::Tensor &dets) {
  int64_t kept = 0;
  while (order.numel() > 0) {
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: greedy loop over the shrinking selection 'order' (the hand-written non-maximum suppression pattern): each iteration selects from what the last one kept, so the number of iterations, the selections and the host reads inside all follow the data; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    order = order.slice(0, 1, order.size(0));
    order = order.index({order > 0});
    ++kept;
  }
  return dets.slice(0, 0, kept);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: size argument of 'slice' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: 'kept' is written in the loop at line 15, whose trip count follows tensor data
}

GRAPHIFY_GRAPH_REGION torch::Tensor count_confident(const torch::Tensor &scores, const torch::Tensor &boxes, float t) {
  int64_t n = 0;
  for (int64_t i = 0; i < scores.size(0); ++i)
    if (scores[i].item<float>() > t)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:19: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      n += 1;
  return boxes.narrow(0, 0, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: size argument of 'narrow' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: advanced here when a condition that follows tensor data holds
  // CHECK-NOTES: :[[@LINE-7]]:19: note: value read from tensor here
}

GRAPHIFY_GRAPH_REGION torch::Tensor any_match(const torch::Tensor &labels, const torch::Tensor &x, int64_t c) {
  bool found = false;
  if (torch::nonzero(labels == c).size(0) > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    found = true;
  if (found)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: set here when a condition that follows tensor data holds
    return x * 2;
  return x;
}

GRAPHIFY_GRAPH_REGION torch::Tensor static_counts(const torch::Tensor &x, torch::Tensor steps) {
  int64_t n = 0;
  for (int64_t i = 0; i < 4; ++i)
    ++n;
  for (int64_t i = 0; i < 8; ++i) {
    int64_t width = 1;
    ++width;
    steps = steps * x.select(0, i % 2) * width;
    if (steps.sum().item<float>() > 1.0f)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      break;
  }
  return x.narrow(0, 0, n) * steps;
}

GRAPHIFY_GRAPH_REGION torch::Tensor gather_listed(const torch::Tensor &x, const torch::Tensor &s, float t) {
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < s.size(0); ++i)
    if (s[i].item<float>() > t)
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      keep.push_back(i);
  std::vector<int64_t> corners{0, 2};
  return x.index({torch::tensor(keep)}) + x.index({torch::tensor(corners)}).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'tensor' builds a tensor with one element per element of its host data, whose number depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-NOTES: :[[@LINE-4]]:12: note: the length of 'keep' follows tensor data from here
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: 'index' takes indices built in host memory ('tensor', line 76), which it copies to the device first; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  // CHECK-MESSAGES: :[[@LINE-4]]:45: warning: 'index' takes indices built in host memory ('tensor', line 76), which it copies to the device first; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
}

// The parts a loop keeps under a condition on tensor data, joined: one slice per part kept. A list
// of one part per row is as long as the batch.
GRAPHIFY_GRAPH_REGION torch::Tensor join_kept(const torch::Tensor &rows, const torch::Tensor &done) {
  std::vector<torch::Tensor> live, every;
  for (int64_t i = 0; i < rows.size(0); ++i) {
    every.push_back(rows[i]);
    if (!done[i].item<bool>())
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-MESSAGES: :[[@LINE-2]]:18: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      live.push_back(rows[i]);
  }
  auto joined = torch::stack(live, 0) + torch::cat(every, 0).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'stack' joins one part per element of its list, whose number depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
  // CHECK-NOTES: :[[@LINE-2]]:30: note: its number of elements is the number of parts 'stack' joins
  return joined;
}

GRAPHIFY_GRAPH_REGION torch::Tensor wrap_counted(const torch::Tensor &x, std::vector<float> &buf) {
  int64_t n = x.sum().item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return torch::from_blob(buf.data(), {n}).clone();
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: size argument of 'from_blob' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
}

// A number field of a local struct of host values counts like a local number, field by field.
struct BeamWidths {
  int64_t kept = 0;
  int64_t seen = 0;
};

GRAPHIFY_GRAPH_REGION torch::Tensor narrow_to_field_count(const torch::Tensor &x, const torch::Tensor &s, float t) {
  auto c = s.contiguous();
  const float *p = c.data_ptr<float>(); // CHECK-MESSAGES: :[[@LINE]]:22: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  BeamWidths w;
  for (int64_t i = 0; i < 16; ++i) {
    ++w.seen;
    if (p[i] > t) // CHECK-MESSAGES: :[[@LINE]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      ++w.kept;
  }
  return x.narrow(0, 0, w.kept) + x.narrow(0, 0, w.seen).sum(); // CHECK-MESSAGES: :[[@LINE]]:25: warning: size argument of 'narrow' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
}

// A template's own body is analysed too: a dependent initialiser (`rows(n, x)` with `n` of a
// template type) is a ParenListExpr, which has no type until instantiation.
template <typename N> std::vector<torch::Tensor> repeat_rows(const torch::Tensor &x, N n) {
  std::vector<torch::Tensor> rows(n, x);
  return rows;
}

// A vector made from a braced list of values read from tensors holds as many elements as the list:
// its values follow the data, its length does not. The copy to the device is the finding.
GRAPHIFY_GRAPH_REGION torch::Tensor half_extent(const torch::Tensor &box, torch::Device dev) {
  float w = box[2].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  float h = box[3].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  std::vector<float> wh = {w * 0.5f, h * 0.5f};
  std::vector<float> also{w, h, w};
  return torch::tensor(wh).to(dev) + torch::tensor(also).sum().to(dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to' copies a tensor built in host memory ('tensor', line 141) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
  // CHECK-MESSAGES: :[[@LINE-2]]:64: warning: 'to' copies a tensor built in host memory ('tensor', line 141) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
}
