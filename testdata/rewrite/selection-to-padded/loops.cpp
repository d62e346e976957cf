// selection-to-padded on a loop whose iterations each select: post-processing over the images of
// a batch or the classes of a detector, which skips an iteration that keeps nothing and collects
// the survivors in vectors. The core runs the loop padded and collects each iteration's values
// and counts; the epilogue loops over them, takes the guards on the slices and does the pushes;
// what follows the loop runs in the epilogue on the vectors it filled.
#include <torch/torch.h>

#include <tuple>
#include <vector>

// One image at a time: a score filter, an image with no survivor skipped.
std::vector<torch::Tensor> per_image(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto pred = preds[i];
    auto kept = pred.index({pred.select(1, 4) > conf});
    if (kept.size(0) == 0)
      continue;
    auto boxes = kept.slice(1, 0, 4);
    output.push_back(boxes * kept.select(1, 4).unsqueeze(1));
  }
  return output;
}

// One class at a time, two vectors, concatenated after the loop (or none when empty).
std::tuple<torch::Tensor, torch::Tensor> per_class(torch::Tensor boxes, torch::Tensor scores, double thr) {
  std::vector<torch::Tensor> kept_boxes;
  std::vector<torch::Tensor> kept_scores;
  for (int64_t c = 0; c < scores.size(1); ++c) {
    auto m = scores.select(1, c) > thr;
    auto b = boxes.index({m});
    auto s = scores.select(1, c).index({m});
    if (b.size(0) == 0)
      continue;
    kept_boxes.push_back(b);
    kept_scores.emplace_back(s);
  }
  if (kept_boxes.empty())
    return std::make_tuple(torch::zeros({0, 4}), torch::zeros({0}));
  return std::make_tuple(torch::cat(kept_boxes), torch::cat(kept_scores));
}

// A push before the guard keeps its place: every iteration pushes its count of rows, only
// the non-empty ones their rows.
std::vector<torch::Tensor> counted(torch::Tensor x) {
  std::vector<torch::Tensor> counts;
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < x.size(0); i += 2) {
    auto keep = x[i] > 0;
    counts.push_back(keep.sum());
    auto picked = x[i].index({keep});
    if (picked.numel() == 0)
      continue;
    rows.push_back(picked);
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
std::vector<torch::Tensor> classes_present(torch::Tensor boxes, torch::Tensor scores, double thr) {
  std::vector<torch::Tensor> out;
  for (int64_t c = 0; c < scores.size(1); ++c) {
    auto m = scores.select(1, c) > thr;
    if (!m.any().item<bool>())
      continue;
    out.push_back(boxes.index({m}));
  }
  return out;
}

// The best class of each row from the (values, indices) pair max returns along the classes, and
// the row count in a host variable that the 'continue' tests: the epilogue reads the count there.
std::vector<torch::Tensor> best_classes(torch::Tensor preds, double conf) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto x = preds[i].index({preds[i].select(1, 4) > conf});
    auto [score, label] = torch::max(x.slice(1, 5, x.size(1)), 1);
    const int n = x.size(0);
    if (n == 0)
      continue;
    out.push_back(torch::stack({score, label.to(score.dtype())}, 1));
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
