// RUN-ARGS: --graph-region=*::postprocess
// Greedy non-maximum suppression is one construct: a loop whose condition reads the size of a
// worklist that its body selects from again. It is reported once, at the loop, with what is inside
// it as notes and the exact fixed-size greedy form as its recipe; NMS ops from the packs
// (torchvision's nms) get the same recipe. A loop over a selection that does not shrink it is an
// ordinary data-dependent loop.
#include <torch/torch.h>

#include <vector>

namespace vision {
namespace ops {
at::Tensor nms(const at::Tensor &dets, const at::Tensor &scores, double iou_threshold);
} // namespace ops
} // namespace vision

static torch::Tensor iou(const torch::Tensor &box, const torch::Tensor &boxes) {
  auto lt = torch::max(box.slice(0, 0, 2), boxes.slice(1, 0, 2));
  auto rb = torch::min(box.slice(0, 2, 4), boxes.slice(1, 2, 4));
  auto wh = (rb - lt).clamp_min(0);
  auto inter = wh.select(1, 0) * wh.select(1, 1);
  auto area = [](const torch::Tensor &b) { return (b.select(-1, 2) - b.select(-1, 0)) * (b.select(-1, 3) - b.select(-1, 1)); };
  return inter / (area(box) + area(boxes) - inter);
}

struct Detector : torch::nn::Module {
  torch::Tensor postprocess(torch::Tensor boxes, torch::Tensor scores) {
    auto order = std::get<1>(scores.sort(0, /*descending=*/true));
    std::vector<int64_t> keep;
    while (order.numel() > 0) {
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: greedy loop over the shrinking selection 'order' (the hand-written non-maximum suppression pattern): each iteration selects from what the last one kept, so the number of iterations, the selections and the host reads inside all follow the data; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-2]]:18: note: its size read here
    // CHECK-NOTES: :[[@LINE+15]]:7: note: assigned to 'order' here
    // CHECK-NOTES: :[[@LINE+13]]:12: note: assigned to 'survivors' here
    // CHECK-NOTES: :[[@LINE+12]]:42: note: selection whose length depends on the values made here
    // CHECK-NOTES: :[[@LINE+5]]:31: note: inside it: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    // CHECK-NOTES: :[[@LINE+6]]:11: note: inside it: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE+7]]:37: note: inside it: size argument of 'slice' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE+7]]:32: note: inside it: position argument of 'operator[]' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
    // CHECK-NOTES: :[[@LINE+7]]:42: note: inside it: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
      int64_t best = order[0].item<int64_t>();
      keep.push_back(best);
      if (order.size(0) == 1)
        break;
      auto rest = order.slice(0, 1, order.size(0));
      auto overlap = iou(boxes[best], boxes.index_select(0, rest));
      auto survivors = (overlap <= 0.45).nonzero().squeeze(1);
      order = rest.index_select(0, survivors);
    }
    auto kept = torch::tensor(keep); // CHECK-MESSAGES: :[[@LINE]]:31: warning: 'tensor' builds a tensor with one element per element of its host data, whose number depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]

    auto candidates = std::get<1>(scores.sort(0, true));
    for (; candidates.size(0) > 0;) {
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: greedy loop over the shrinking selection 'candidates' (the hand-written non-maximum suppression pattern): each iteration selects from what the last one kept, so the number of iterations, the selections and the host reads inside all follow the data; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-2]]:23: note: its size read here
    // CHECK-NOTES: :[[@LINE+4]]:7: note: assigned to 'candidates' here
    // CHECK-NOTES: :[[@LINE+3]]:43: note: selection whose length depends on the values made here
    // CHECK-NOTES: :[[@LINE+2]]:43: note: inside it: 'index' with a boolean mask has a data-dependent output shape: indexing with a boolean mask keeps as many elements as the mask has true values; a static graph cannot hold it [graphify-dynamic-shape]
      auto head = candidates[0];
      candidates = candidates.slice(0, 1).index({iou(boxes[head], boxes.index_select(0, candidates.slice(0, 1))).squeeze(0) < 0.5});
    }

    auto by_op = vision::ops::nms(boxes, scores, 0.45);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'nms' has a data-dependent output shape: keeps the boxes that no higher-scoring kept box overlaps above the threshold, as many as the data lets through; a static graph cannot hold it [graphify-dynamic-shape]
    auto picked = torch::zeros({by_op.size(0), 4});
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: size argument of 'zeros' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
    // CHECK-NOTES: :[[@LINE-2]]:39: note: its size read here
    // CHECK-NOTES: :[[@LINE-5]]:10: note: assigned to 'by_op' here
    // CHECK-NOTES: :[[@LINE-6]]:18: note: selection whose length depends on the values made here

    auto confident = (scores > 0.25).nonzero().squeeze(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'nonzero' has a data-dependent output shape: returns one row per non-zero element; a static graph cannot hold it [graphify-dynamic-shape]
    int64_t k = 0;
    float total = 0.f;
    while (k < confident.size(0)) {
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: loop condition depends on the size of a value-dependent selection; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    // CHECK-NOTES: :[[@LINE-2]]:26: note: its size read here
    // CHECK-NOTES: :[[@LINE-7]]:10: note: assigned to 'confident' here
    // CHECK-NOTES: :[[@LINE-8]]:38: note: selection whose length depends on the values made here
      total += scores[confident[k]].item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      // CHECK-MESSAGES: :[[@LINE-2]]:16: warning: 'operator[]' reads its 0-d index tensor back to the host (LibTorch's operator[](Tensor) calls item()); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      ++k;
    }
    return kept.sum() + picked.sum() + total;
  }
};
