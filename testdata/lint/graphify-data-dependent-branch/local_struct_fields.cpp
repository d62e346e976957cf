// RUN-ARGS: --checks=-*,graphify-data-dependent-branch --graph-region=*
// The fields of a local struct hold what was stored in them last, line by line: a helper called
// before the selection is stored sees the static tensor. A struct that anything but field
// accesses and a return can reach (passed by reference, used in a lambda, made by a call) keeps
// the one fact per field of the whole file.
#include <torch/torch.h>

#include <vector>

struct Detections {
  torch::Tensor boxes, scores;
};

torch::Tensor above(const torch::Tensor &rows, const torch::Tensor &scores, double t) {
  // Called with a static tensor only (merge_then_select): nothing to report.
  if (rows.size(0) == 0)
    return torch::zeros({0}, torch::kLong);
  return (scores > t).nonzero().squeeze(1);
}

int64_t rows_of(const torch::Tensor &rows) {
  if (rows.dim() != 2)
    return 0;
  return rows.size(0);
}

// The concatenation is static when it is passed on; the selection comes after.
Detections merge_then_select(const std::vector<torch::Tensor> &heads, double t) {
  Detections out;
  std::vector<torch::Tensor> boxes, scores;
  for (const auto &h : heads) {
    boxes.push_back(h.slice(1, 0, 4));
    scores.push_back(h.select(1, 4));
  }
  out.boxes = torch::cat(boxes, 0);
  out.scores = torch::cat(scores, 0);
  auto keep = above(out.boxes, out.scores, t);
  out.boxes = out.boxes.index_select(0, keep);
  out.scores = out.scores.index_select(0, keep);
  return out;
}

// Stored first, tested after: the field is the selection here.
Detections select_then_test(const torch::Tensor &boxes, const torch::Tensor &scores) {
  Detections out;
  out.boxes = boxes.index({scores > 0.5});
  if (out.boxes.size(0) > 100)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: stored in field 'boxes' here
    out.boxes = out.boxes.slice(0, 0, 100);
  return out;
}

void fill(Detections &d, const torch::Tensor &boxes, const torch::Tensor &scores) {
  d.boxes = boxes.index({scores > 0.25});
}

// Filled through a reference: the field's fact for the whole file holds.
int64_t filled_elsewhere(const torch::Tensor &boxes, const torch::Tensor &scores) {
  Detections out;
  fill(out, boxes, scores);
  if (out.boxes.size(0) == 0)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on the size of a value-dependent selection; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return 0;
  return rows_of(out.boxes);
}
