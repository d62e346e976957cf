// selection-to-padded on functions that prepare their inputs before the first selection with
// code the padded form does not take apart: a tensor declared without a value and given one in
// each arm of an if on a parameter's shape (mmdetection's per-class boxes), a loop that stacks
// the levels of a pyramid. Before the first selection and any early return the core runs such
// statements as written, once, in the original's order.
#include <torch/torch.h>

#include <vector>

// Boxes per class or shared by every class, then a score filter over all of them.
torch::Tensor class_boxes(const torch::Tensor &boxes, const torch::Tensor &scores, double thr) {
  const int64_t classes = scores.size(1);
  torch::Tensor per_class;
  if (boxes.size(1) > 4) {
    per_class = boxes.view({boxes.size(0), -1, 4});
  } else {
    per_class = boxes.unsqueeze(1).expand({boxes.size(0), classes, 4});
  }
  auto flat = per_class.reshape({-1, 4});
  auto kept = flat.index({scores.reshape({-1}) > thr});
  return kept * 2;
}

// The levels of a pyramid joined by a loop, then filtered.
torch::Tensor joined_levels(std::vector<torch::Tensor> levels, double thr) {
  std::vector<torch::Tensor> flat;
  for (const auto &level : levels)
    flat.push_back(level.reshape({-1, 5}));
  auto all = torch::cat(flat);
  auto kept = all.index({all.select(1, 4) > thr});
  return kept;
}

// A loop before the selection that may return: the core cannot return early.
torch::Tensor returns_in_prefix(std::vector<torch::Tensor> levels, double thr) {
  for (const auto &level : levels)
    if (level.dim() != 2)
      return torch::zeros({0, 5});
  auto all = torch::cat(levels);
  auto kept = all.index({all.select(1, 4) > thr}); // EXPECT-RECIPE: ^keep fixed shapes[^()]*(\([^()]*\)[^()]*)*$
  return kept;
}
