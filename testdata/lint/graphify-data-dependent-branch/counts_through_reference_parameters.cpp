// A hand-written NMS helper that hands its kept count back through `int &count`, in the style of
// SSD and RefineDet ports: the count grows once per iteration of a loop whose trip count follows
// the scores, so the caller's test of it and the slice it sizes follow them too.
// RUN-ARGS: --graph-region=detect_class
#include <torch/torch.h>

#include <tuple>

static void suppress(const torch::Tensor &boxes, const torch::Tensor &scores, torch::Tensor &keep, int &count,
                     float overlap) {
  auto order = std::get<1>(scores.sort(0, /*descending=*/true));
  while (order.numel() > 0) {
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: greedy loop over the shrinking selection 'order' (the hand-written non-maximum suppression pattern): each iteration selects from what the last one kept, so the number of iterations, the selections and the host reads inside all follow the data; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    auto best = order[0];
    keep[count] = best;
    count += 1;
    auto iou = (boxes.index_select(0, order) - boxes[best]).abs().sum(1);
    order = order.index({iou > overlap});
  }
}

// A count set from a static size: the caller's tests of it are static too.
static void capacity(const torch::Tensor &scores, int &count) { count = static_cast<int>(scores.size(0)); }

torch::Tensor detect_class(const torch::Tensor &boxes, const torch::Tensor &scores) {
  torch::Tensor keep = torch::zeros({scores.size(0)}, scores.options().dtype(torch::kLong));
  int count = 0;
  suppress(boxes, scores, keep, count, 0.45f);
  if (count == 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return keep.slice(0, 0, 0);
  int room = 0;
  capacity(scores, room);
  if (room == 0)
    return keep;
  return keep.slice(0, 0, count);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: size argument of 'slice' depends on the size of a value-dependent selection; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
}

// A structured binding advanced under such a condition names no variable of its own (the
// interpreter once dereferenced it as one and crashed on the twenty-second set's PPO trainer).
int count_high(const torch::Tensor &scores) {
  std::pair<int, int> hits{0, 0};
  auto &[high, low] = hits;
  for (int64_t i = 0; i < scores.size(0); ++i)
    if (scores[i].item<float>() > 0.5f)
      high += 1;
  return high + low;
}
