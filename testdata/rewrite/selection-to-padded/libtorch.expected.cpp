// selection-to-padded against the real LibTorch headers: a score filter whose survivors leave the
// function (the shape of detection post-processing) becomes a padded core plus a host epilogue.
#include <torch/torch.h>

static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor>
confident_boxes_padded(torch::Tensor boxes, torch::Tensor scores,
                       double threshold) {
  auto keep = scores > threshold;
  auto kept_valid = keep;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 7 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = boxes.index_select(0, kept_order);
  auto kept_at_8 = kept;
  auto picked = scores.index_select(0, kept_order);
  auto strong_mask = picked > 2 * threshold;
  auto strong_valid = torch::logical_and(
      strong_mask,
      torch::arange(kept.size(0), kept_count.options()) < kept_count);
  if (strong_valid.dim() != 1 || strong_valid.size(0) != kept.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 12 assumes a one-dimensional mask "
        "with one element per row");
  auto strong_order = torch::argsort(
      torch::logical_not(strong_valid).to(torch::kInt), /*stable=*/true, 0);
  auto strong_count = strong_valid.sum();
  auto strong = kept.index_select(0, strong_order);
  auto low = strong.slice(1, 0, 2);
  auto high = strong.slice(1, 2, 4);
  if (!(high.dim() == low.dim()))
    throw std::invalid_argument(
        "graphify: the padded form of line 15 assumes that 'high' broadcasts "
        "along the rows of 'low' without meeting them");
  auto centres = (low + high) / 2;
  return std::make_tuple(
      torch::cat({centres, strong.select(1, 0).unsqueeze(1)}, 1), kept_at_8,
      strong_count, kept_count);
}

/// graphify: host epilogue of 'confident_boxes_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor confident_boxes(torch::Tensor boxes, torch::Tensor scores,
                              double threshold) {
  auto padded = confident_boxes_padded(boxes, scores, threshold);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  const int64_t rows2 = std::get<3>(padded).item<int64_t>();
  if (std::get<1>(padded).narrow(0, 0, rows2).size(0) == 0)
    return torch::zeros({0, 4});
  return std::get<0>(padded).narrow(0, 0, rows);
}

// A whole-selection test kept on the device: any() over the selected rows, after the test for
// none, is any() over the padded rows with copies of the first selected row in the others' place.
static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
flag_large_padded(torch::Tensor boxes, torch::Tensor scores) {
  auto kept_valid = scores > 0;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 22 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = boxes.index_select(0, kept_order);
  auto kept_at_23 = kept;
  auto large_of = (kept > 10);
  auto large_rows = torch::arange(large_of.size(0), kept_count.options());
  auto large =
      (large_of.size(0) == 0
           ? (torch::zeros({1}, large_of.options())).any()
           : (large_of.index_select(
                  0, torch::where(large_rows < kept_count, large_rows, 0)))
                 .any());
  return std::make_tuple(kept * large, kept_at_23, kept_count);
}

/// graphify: host epilogue of 'flag_large_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor flag_large(torch::Tensor boxes, torch::Tensor scores) {
  auto padded = flag_large_padded(boxes, scores);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  if (0 == std::get<1>(padded).narrow(0, 0, rows).numel())
    return boxes;
  return std::get<0>(padded).narrow(0, 0, rows);
}

// An early return that tests the mask, not the selection, on the host: the core keeps the mask
// and the epilogue tests it as the original did.
static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
any_positive_padded(torch::Tensor x) {
  auto m = x > 0;
  auto m_at_33 = m;
  auto selected_valid = m;
  if (selected_valid.dim() != 1 || selected_valid.size(0) != x.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 35 assumes a one-dimensional mask "
        "with one element per row");
  auto selected_order = torch::argsort(
      torch::logical_not(selected_valid).to(torch::kInt), /*stable=*/true, 0);
  auto selected_count = selected_valid.sum();
  return std::make_tuple(x.index_select(0, selected_order) * 2, m_at_33,
                         selected_count);
}

/// graphify: host epilogue of 'any_positive_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor any_positive(torch::Tensor x) {
  auto padded = any_positive_padded(x);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  if (!std::get<1>(padded).any().item<bool>())
    return torch::zeros({0});
  return std::get<0>(padded).narrow(0, 0, rows);
}
