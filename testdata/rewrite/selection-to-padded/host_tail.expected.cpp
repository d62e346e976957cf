// selection-to-padded with a host tail: post-processing that selects rows on the device, then
// reads them back and finishes on the host. The core keeps the selections padded and returns the
// tensors the host part reads; the epilogue slices them by the counts and runs the host part, from
// its first statement, on values equal to the original's.
#include <torch/torch.h>

#include <vector>

struct Detection {
  float x1, y1, x2, y2, score;
};

// The results are declared first (no code runs: the epilogue declares them before the core), an
// early return tests the selection, and the host loop builds the results.
static std::tuple<at::Tensor, at::Tensor, at::Tensor>
decode_detections_padded(torch::Tensor pred, double conf) {
  auto keep = pred.select(1, 4) > conf;
  auto kept_valid = keep;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != pred.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 18 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = pred.index_select(0, kept_order);
  auto kept_at_19 = kept;
  auto boxes = kept * 2;
  return std::make_tuple(kept_at_19, boxes, kept_count);
}

/// graphify: host epilogue of 'decode_detections_padded' (reads the counts,
/// slices the padded outputs and runs the host part, from line 22, on them; not
/// a graph region)
std::vector<Detection> decode_detections(torch::Tensor pred, double conf) {
  std::vector<Detection> dets;
  auto padded = decode_detections_padded(pred, conf);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  if (std::get<0>(padded).narrow(0, 0, rows).size(0) == 0)
    return dets;
  auto boxes = std::get<1>(padded).narrow(0, 0, rows);
  auto host = boxes.cpu();
  for (int64_t i = 0; i < host.size(0); ++i)
    dets.push_back({host[i][0].item<float>(), host[i][1].item<float>(),
                    host[i][2].item<float>(), host[i][3].item<float>(),
                    host[i][4].item<float>()});
  return dets;
}

// A function that returns nothing and writes the scores through a reference.
static std::tuple<at::Tensor, at::Tensor>
collect_scores_padded(torch::Tensor scores, double t, std::vector<float> &out) {
  auto picked_valid = scores > t;
  if (picked_valid.dim() != 1 || picked_valid.size(0) != scores.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 31 assumes a one-dimensional mask "
        "with one element per row");
  auto picked_order = torch::argsort(
      torch::logical_not(picked_valid).to(torch::kInt), /*stable=*/true, 0);
  auto picked_count = picked_valid.sum();
  auto picked = scores.index_select(0, picked_order);
  auto doubled = picked * 2;
  return std::make_tuple(doubled, picked_count);
}

/// graphify: host epilogue of 'collect_scores_padded' (reads the counts, slices
/// the padded outputs and runs the host part, from line 33, on them; not a
/// graph region)
void collect_scores(torch::Tensor scores, double t, std::vector<float> &out) {
  auto padded = collect_scores_padded(scores, t, out);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  auto doubled = std::get<0>(padded).narrow(0, 0, rows);
  auto host = doubled.contiguous().cpu();
  const float *p = host.data_ptr<float>();
  out.assign(p, p + host.numel());
}

// The host part reads a host value computed before it from a tensor the core computes: the
// epilogue would not have it (one computed from the parameters' sizes alone it computes itself).
std::vector<float> widths(torch::Tensor boxes, double t) {
  auto scaled = boxes * 2;
  auto columns = scaled.size(1);
  auto kept = scaled.index({scaled.select(1, 0) > t}); // EXPECT-RECIPE: not rewritten automatically: the host part from line 44 reads 'columns' \(line 42\), a host value the statements before it compute
  auto host = kept.cpu();
  std::vector<float> out(static_cast<size_t>(host.size(0) * columns));
  return out;
}

// The host part reads a tensor parameter (taken by value) that the statements before it assign,
// one of them with a selection: the epilogue assigns its own copy the core's value, sliced.
static std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor>
rescaled_padded(torch::Tensor scores, double t) {
  scores = scores.sigmoid();
  auto kept_valid = scores > t;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != scores.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 53 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = scores.index_select(0, kept_order);
  auto scores_valid = scores > t / 2;
  if (scores_valid.dim() != 1 || scores_valid.size(0) != scores.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 54 assumes a one-dimensional mask "
        "with one element per row");
  auto scores_order = torch::argsort(
      torch::logical_not(scores_valid).to(torch::kInt), /*stable=*/true, 0);
  auto scores_count = scores_valid.sum();
  scores = scores.index_select(0, scores_order);
  return std::make_tuple(scores, kept, scores_count, kept_count);
}

/// graphify: host epilogue of 'rescaled_padded' (reads the counts, slices the
/// padded outputs and runs the host part, from line 55, on them; not a graph
/// region)
std::vector<float> rescaled(torch::Tensor scores, double t) {
  auto padded = rescaled_padded(scores, t);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  const int64_t rows2 = std::get<3>(padded).item<int64_t>();
  scores = std::get<0>(padded).narrow(0, 0, rows);
  auto kept = std::get<1>(padded).narrow(0, 0, rows2);
  auto host = kept.cpu();
  return std::vector<float>(host.size(0), scores.size(0));
}
