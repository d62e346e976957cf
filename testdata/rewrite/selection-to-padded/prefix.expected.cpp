// selection-to-padded on functions that prepare their inputs before the first selection with
// code the padded form does not take apart: a tensor declared without a value and given one in
// each arm of an if on a parameter's shape (mmdetection's per-class boxes), a loop that stacks
// the levels of a pyramid. Before the first selection and any early return the core runs such
// statements as written, once, in the original's order.
#include <torch/torch.h>

#include <vector>

// Boxes per class or shared by every class, then a score filter over all of them.
static std::tuple<torch::Tensor, torch::Tensor>
class_boxes_padded(const torch::Tensor &boxes, const torch::Tensor &scores,
                   double thr) {
  const int64_t classes = scores.size(1);
  torch::Tensor per_class;
  if (boxes.size(1) > 4) {
    per_class = boxes.view({boxes.size(0), -1, 4});
  } else {
    per_class = boxes.unsqueeze(1).expand({boxes.size(0), classes, 4});
  }
  auto flat = per_class.reshape({-1, 4});
  auto kept_valid = scores.reshape({-1}) > thr;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != flat.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 20 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = flat.index_select(0, kept_order);
  return std::make_tuple(kept * 2, kept_count);
}

/// graphify: host epilogue of 'class_boxes_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor class_boxes(const torch::Tensor &boxes,
                          const torch::Tensor &scores, double thr) {
  auto padded = class_boxes_padded(boxes, scores, thr);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// The levels of a pyramid joined by a loop, then filtered.
static std::tuple<torch::Tensor, torch::Tensor>
joined_levels_padded(std::vector<torch::Tensor> levels, double thr) {
  std::vector<torch::Tensor> flat;
  for (const auto &level : levels)
    flat.push_back(level.reshape({-1, 5}));
  auto all = torch::cat(flat);
  auto kept_valid = all.select(1, 4) > thr;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != all.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 30 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = all.index_select(0, kept_order);
  return std::make_tuple(kept, kept_count);
}

/// graphify: host epilogue of 'joined_levels_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor joined_levels(std::vector<torch::Tensor> levels, double thr) {
  auto padded = joined_levels_padded(levels, thr);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
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
