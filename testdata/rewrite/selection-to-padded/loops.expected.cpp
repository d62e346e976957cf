// selection-to-padded on a loop whose iterations each select: post-processing over the images of
// a batch or the classes of a detector, which skips an iteration that keeps nothing and collects
// the survivors in vectors. The core runs the loop padded and collects each iteration's values
// and counts; the epilogue loops over them, takes the guards on the slices and does the pushes;
// what follows the loop runs in the epilogue on the vectors it filled.
#include <torch/torch.h>

#include <tuple>
#include <vector>

// One image at a time: a score filter, an image with no survivor skipped.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>>
per_image_padded(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> kept_count_each;
  std::vector<torch::Tensor> kept_at_17;
  std::vector<torch::Tensor> output_each;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto pred = preds[i];
    auto kept_valid = pred.select(1, 4) > conf;
    if (kept_valid.dim() != 1 || kept_valid.size(0) != pred.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 16 assumes a one-dimensional mask "
          "with one element per row");
    auto kept_order = torch::argsort(
        torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
    auto kept_count = kept_valid.sum();
    auto kept = pred.index_select(0, kept_order);
    kept_at_17.push_back(kept);
    auto boxes = kept.slice(1, 0, 4);
    auto operand = kept.select(1, 4).unsqueeze(1);
    if (!(operand.dim() == boxes.dim()))
      throw std::invalid_argument(
          "graphify: the padded form of line 20 assumes that 'kept.select(1, "
          "4).unsqueeze(1)' broadcasts along the rows of 'boxes' without "
          "meeting them");
    output_each.push_back(boxes * operand);
    kept_count_each.push_back(kept_count);
  }
  return std::make_tuple(kept_at_17, output_each, kept_count_each);
}

/// graphify: host epilogue of 'per_image_padded' (reads the counts and slices
/// the padded outputs of each iteration of the loop at line 14, then runs the
/// original's host code (from line 22 after it) on them; not a graph region)
std::vector<torch::Tensor> per_image(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> output;
  auto padded = per_image_padded(preds, conf);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows = std::get<2>(padded)[iteration].item<int64_t>();
    if (std::get<0>(padded)[iteration].narrow(0, 0, rows).size(0) == 0)
      continue;
    output.push_back(std::get<1>(padded)[iteration].narrow(0, 0, rows));
  }
  return output;
}

// One class at a time, two vectors, concatenated after the loop (or none when empty).
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>, std::vector<torch::Tensor>>
per_class_padded(torch::Tensor boxes, torch::Tensor scores, double thr) {
  std::vector<torch::Tensor> b_count_each;
  std::vector<torch::Tensor> b_at_33;
  std::vector<torch::Tensor> kept_boxes_each;
  std::vector<torch::Tensor> kept_scores_each;
  for (int64_t c = 0; c < scores.size(1); ++c) {
    auto m = scores.select(1, c) > thr;
    auto b_valid = m;
    if (b_valid.dim() != 1 || b_valid.size(0) != boxes.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 31 assumes a one-dimensional mask "
          "with one element per row");
    auto b_order = torch::argsort(torch::logical_not(b_valid).to(torch::kInt),
                                  /*stable=*/true, 0);
    auto b_count = b_valid.sum();
    auto b = boxes.index_select(0, b_order);
    auto s = (scores.select(1, c)).index_select(0, b_order);
    b_at_33.push_back(b);
    kept_boxes_each.push_back(b);
    kept_scores_each.push_back(s);
    b_count_each.push_back(b_count);
  }
  return std::make_tuple(b_at_33, kept_boxes_each, kept_scores_each,
                         b_count_each);
}

/// graphify: host epilogue of 'per_class_padded' (reads the counts and slices
/// the padded outputs of each iteration of the loop at line 29, then runs the
/// original's host code (from line 38 after it) on them; not a graph region)
std::tuple<torch::Tensor, torch::Tensor>
per_class(torch::Tensor boxes, torch::Tensor scores, double thr) {
  std::vector<torch::Tensor> kept_boxes;
  std::vector<torch::Tensor> kept_scores;
  auto padded = per_class_padded(boxes, scores, thr);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows = std::get<3>(padded)[iteration].item<int64_t>();
    if (std::get<0>(padded)[iteration].narrow(0, 0, rows).size(0) == 0)
      continue;
    kept_boxes.push_back(std::get<1>(padded)[iteration].narrow(0, 0, rows));
    kept_scores.emplace_back(std::get<2>(padded)[iteration].narrow(0, 0, rows));
  }
  if (kept_boxes.empty())
    return std::make_tuple(torch::zeros({0, 4}), torch::zeros({0}));
  return std::make_tuple(torch::cat(kept_boxes), torch::cat(kept_scores));
}

// A push before the guard keeps its place: every iteration pushes its count of rows, only
// the non-empty ones their rows.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>, std::vector<torch::Tensor>>
counted_padded(torch::Tensor x) {
  std::vector<torch::Tensor> picked_count_each;
  std::vector<torch::Tensor> counts_each;
  std::vector<torch::Tensor> picked_at_52;
  std::vector<torch::Tensor> rows_each;
  for (int64_t i = 0; i < x.size(0); i += 2) {
    auto keep = x[i] > 0;
    counts_each.push_back(keep.sum());
    auto picked_source = x[i];
    auto picked_valid = keep;
    if (picked_valid.dim() != 1 ||
        picked_valid.size(0) != picked_source.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 51 assumes a one-dimensional mask "
          "with one element per row");
    auto picked_order = torch::argsort(
        torch::logical_not(picked_valid).to(torch::kInt), /*stable=*/true, 0);
    auto picked_count = picked_valid.sum();
    auto picked = picked_source.index_select(0, picked_order);
    picked_at_52.push_back(picked);
    rows_each.push_back(picked);
    picked_count_each.push_back(picked_count);
  }
  return std::make_tuple(counts_each, picked_at_52, rows_each,
                         picked_count_each);
}

/// graphify: host epilogue of 'counted_padded' (reads the counts and slices the
/// padded outputs of each iteration of the loop at line 48, then runs the
/// original's host code (from line 56 after it) on them; not a graph region)
std::vector<torch::Tensor> counted(torch::Tensor x) {
  std::vector<torch::Tensor> counts;
  std::vector<torch::Tensor> rows;
  auto padded = counted_padded(x);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows2 = std::get<3>(padded)[iteration].item<int64_t>();
    counts.push_back(std::get<0>(padded)[iteration]);
    if (std::get<1>(padded)[iteration].narrow(0, 0, rows2).numel() == 0)
      continue;
    rows.push_back(std::get<2>(padded)[iteration].narrow(0, 0, rows2));
  }
  rows.insert(rows.end(), counts.begin(), counts.end());
  return rows;
}

// A tensor declared before the loop and grown in it carries a value across iterations.
torch::Tensor grown(torch::Tensor x) {
  std::vector<torch::Tensor> parts;
  auto all = torch::zeros({0});
  for (int64_t i = 0; i < x.size(0); ++i) {
    auto kept = x[i].index({x[i] > 0}); // EXPECT-RECIPE: not rewritten automatically: 'all' is assigned in the loop at line 64 \(line 66\) and carries a value from one iteration to the next
    all = torch::cat({all, kept});
    parts.push_back(kept);
  }
  return torch::cat(parts) + all.sum();
}

// A 'continue' that tests no selection: the core runs every iteration to its end.
std::vector<torch::Tensor> odd_only(torch::Tensor x) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < x.size(0); ++i) {
    if (i % 2 == 0)
      continue;
    auto kept = x[i].index({x[i] > 0}); // EXPECT-RECIPE: not rewritten automatically: the 'continue' at line 76 depends on no tensor the function computes
    out.push_back(kept);
  }
  return out;
}

// The loop reads the vector it fills, which the epilogue fills after the core has run.
std::vector<torch::Tensor> numbered(torch::Tensor x) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < x.size(0); ++i) {
    auto kept = x[i].index({x[i] > 0}); // EXPECT-RECIPE: not rewritten automatically: 'out' \(line 89\) is read by the loop at line 87 other than by a push
    const auto n = out.size();
    out.push_back(kept * static_cast<double>(n));
  }
  return out;
}

// A loop that stops early: its trip count depends on what it computes.
std::vector<torch::Tensor> until_empty(torch::Tensor x) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < x.size(0); ++i) {
    auto kept = x[i].index({x[i] > 0}); // EXPECT-RECIPE: not rewritten automatically: .*the 'break' at line 101 is not
    if (kept.size(0) == 0) // EXPECT-NO-FIX: the loop appends to the host container 'out' \(line 102\)
      break;
    out.push_back(kept);
  }
  return out;
}

// The header reads a bound the body changes.
std::vector<torch::Tensor> shrinking(torch::Tensor x) {
  std::vector<torch::Tensor> out;
  int64_t n = x.size(0);
  for (int64_t i = 0; i < n; ++i) {
    auto kept = x[i].index({x[i] > 0}); // EXPECT-RECIPE: not rewritten automatically: the body of the loop at line 111 assigns 'n', which its header reads
    n = n - 1;
    out.push_back(kept);
  }
  return out;
}

// Per class, the iteration skipped when the class's mask has no true element, tested on the host
// as the original does: the core keeps each iteration's mask, the epilogue tests it.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>>
classes_present_padded(torch::Tensor boxes, torch::Tensor scores, double thr) {
  std::vector<torch::Tensor> out_count_each;
  std::vector<torch::Tensor> m_at_125;
  std::vector<torch::Tensor> out_each;
  for (int64_t c = 0; c < scores.size(1); ++c) {
    auto m = scores.select(1, c) > thr;
    m_at_125.push_back(m);
    auto out_valid = m;
    if (out_valid.dim() != 1 || out_valid.size(0) != boxes.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 127 assumes a one-dimensional "
          "mask with one element per row");
    auto out_order = torch::argsort(
        torch::logical_not(out_valid).to(torch::kInt), /*stable=*/true, 0);
    auto out_count = out_valid.sum();
    out_each.push_back(boxes.index_select(0, out_order));
    out_count_each.push_back(out_count);
  }
  return std::make_tuple(m_at_125, out_each, out_count_each);
}

/// graphify: host epilogue of 'classes_present_padded' (reads the counts and
/// slices the padded outputs of each iteration of the loop at line 123, then
/// runs the original's host code (from line 129 after it) on them; not a graph
/// region)
std::vector<torch::Tensor> classes_present(torch::Tensor boxes,
                                           torch::Tensor scores, double thr) {
  std::vector<torch::Tensor> out;
  auto padded = classes_present_padded(boxes, scores, thr);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows = std::get<2>(padded)[iteration].item<int64_t>();
    if (!std::get<0>(padded)[iteration].any().item<bool>())
      continue;
    out.push_back(std::get<1>(padded)[iteration].narrow(0, 0, rows));
  }
  return out;
}

// The best class of each row from the (values, indices) pair max returns along the classes, and
// the row count in a host variable that the 'continue' tests: the epilogue reads the count there.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>>
best_classes_padded(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> x_count_each;
  std::vector<torch::Tensor> out_each;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto x_source = preds[i];
    auto x_valid = preds[i].select(1, 4) > conf;
    if (x_valid.dim() != 1 || x_valid.size(0) != x_source.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 137 assumes a one-dimensional "
          "mask with one element per row");
    auto x_order = torch::argsort(torch::logical_not(x_valid).to(torch::kInt),
                                  /*stable=*/true, 0);
    auto x_count = x_valid.sum();
    auto x = x_source.index_select(0, x_order);
    auto [score, label] = torch::max(x.slice(1, 5, x.size(1)), 1);
    out_each.push_back(torch::stack({score, label.to(score.dtype())}, 1));
    x_count_each.push_back(x_count);
  }
  return std::make_tuple(out_each, x_count_each);
}

/// graphify: host epilogue of 'best_classes_padded' (reads the counts and
/// slices the padded outputs of each iteration of the loop at line 136, then
/// runs the original's host code (from line 144 after it) on them; not a graph
/// region)
std::vector<torch::Tensor> best_classes(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> out;
  auto padded = best_classes_padded(preds, conf);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows = std::get<1>(padded)[iteration].item<int64_t>();
    if (rows == 0)
      continue;
    out.push_back(std::get<0>(padded)[iteration].narrow(0, 0, rows));
  }
  return out;
}

// The row count read for something other than a test: the core cannot compute it.
std::vector<torch::Tensor> count_used(torch::Tensor preds) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto x = preds[i].index({preds[i].select(1, 0) > 0}); // EXPECT-RECIPE: not rewritten automatically: 'n' holds the row count of a value-dependent selection, which the padded form reads only in the test of a return or a 'continue'; line 155 reads it otherwise
    const int64_t n = x.size(0);
    if (n == 0) // EXPECT-NO-FIX: the condition depends on 'n', the size of a value-dependent selection
      continue;
    out.push_back(x * static_cast<double>(n));
  }
  return out;
}
