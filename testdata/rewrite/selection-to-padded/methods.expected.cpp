// selection-to-padded on methods: the core is a function beside the class (a static member when
// the method is defined in the class) that takes the fields the body uses by reference, under
// their own names; the epilogue is the method, with its signature, passing `this->field`.
#include <torch/torch.h>

#include <vector>

namespace det {

class Filter {
public:
  torch::Tensor keep_confident(torch::Tensor boxes, torch::Tensor scores);
  torch::Tensor keep_scaled(torch::Tensor boxes) const;
  torch::Tensor keep_by_rule(torch::Tensor boxes);
  torch::Tensor keep_shadowed(torch::Tensor boxes);
  std::vector<torch::Tensor> keep_per_image(torch::Tensor preds);

private:
  double score_threshold_ = 0.25;
  torch::Tensor scale_ = torch::ones({4});
  double threshold(double s) const { return s * score_threshold_; }
  torch::Tensor confident_rows(torch::Tensor rows) const;
};

// Out of line, in the class's namespace: a field read implicitly and one through this->.
static std::tuple<torch::Tensor, torch::Tensor>
keep_confident_padded(torch::Tensor boxes, torch::Tensor scores,
                      double &score_threshold_, at::Tensor &scale_) {
  auto keep = scores > score_threshold_;
  auto kept_valid = keep;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 28 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = boxes.index_select(0, kept_order);
  if (!(scale_.dim() < kept.dim() ||
        (scale_.dim() == kept.dim() && scale_.size(0) == 1)))
    throw std::invalid_argument(
        "graphify: the padded form of line 29 assumes that 'scale_' broadcasts "
        "along the rows of 'kept' without meeting them");
  return std::make_tuple(kept * scale_, kept_count);
}

/// graphify: host epilogue of 'keep_confident_padded' (reads the counts and
/// slices the padded outputs; not a graph region)
torch::Tensor Filter::keep_confident(torch::Tensor boxes,
                                     torch::Tensor scores) {
  auto padded = keep_confident_padded(boxes, scores, this->score_threshold_,
                                      this->scale_);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}

// A const method passes its fields as const references.
static std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
keep_scaled_padded(torch::Tensor boxes, const double &score_threshold_,
                   const at::Tensor &scale_) {
  auto kept_valid = boxes.select(1, 0) > score_threshold_;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 34 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = boxes.index_select(0, kept_order);
  auto kept_at_35 = kept;
  if (!(scale_.dim() < kept.dim() ||
        (scale_.dim() == kept.dim() && scale_.size(0) == 1)))
    throw std::invalid_argument(
        "graphify: the padded form of line 37 assumes that 'scale_' broadcasts "
        "along the rows of 'kept' without meeting them");
  return std::make_tuple(kept / scale_, kept_at_35, kept_count);
}

/// graphify: host epilogue of 'keep_scaled_padded' (reads the counts and slices
/// the padded outputs; not a graph region)
torch::Tensor Filter::keep_scaled(torch::Tensor boxes) const {
  auto padded = keep_scaled_padded(boxes, this->score_threshold_, this->scale_);
  const int64_t rows = std::get<2>(padded).item<int64_t>();
  if (std::get<1>(padded).narrow(0, 0, rows).size(0) == 0)
    return torch::zeros({0, 4});
  return std::get<0>(padded).narrow(0, 0, rows);
}

// A method of the class cannot be called from outside it.
torch::Tensor Filter::keep_by_rule(torch::Tensor boxes) {
  auto kept = boxes.index({boxes.select(1, 0) > threshold(0.5)}); // EXPECT-RECIPE: not rewritten automatically: the statements of 'keep_by_rule' that the core runs call the method 'threshold' of the class \(line 42\), which a function outside the class cannot
  return kept * 2;
}

// A local named like a field it uses: the core's parameter would be hidden.
torch::Tensor Filter::keep_shadowed(torch::Tensor boxes) {
  auto kept = boxes.index({boxes.select(1, 0) > this->score_threshold_}); // EXPECT-RECIPE: not rewritten automatically: the statements of 'keep_shadowed' that the core runs declare a variable named like the field 'score_threshold_'
  auto score_threshold_ = kept * 2;
  return score_threshold_;
}

// The host part runs in the method (the epilogue), which may call the class's private methods;
// only the statements the core runs must do without them.
static std::tuple<std::vector<torch::Tensor>, std::vector<torch::Tensor>,
                  std::vector<torch::Tensor>>
keep_per_image_padded(torch::Tensor preds, double &score_threshold_) {
  std::vector<torch::Tensor> kept_count_each;
  std::vector<torch::Tensor> kept_at_59;
  std::vector<torch::Tensor> kept_each;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept_source = preds[i];
    auto kept_valid = preds[i].select(1, 4) > score_threshold_;
    if (kept_valid.dim() != 1 || kept_valid.size(0) != kept_source.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 58 assumes a one-dimensional mask "
          "with one element per row");
    auto kept_order = torch::argsort(
        torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
    auto kept_count = kept_valid.sum();
    auto kept = kept_source.index_select(0, kept_order);
    kept_at_59.push_back(kept);
    kept_each.push_back(kept);
    kept_count_each.push_back(kept_count);
  }
  return std::make_tuple(kept_at_59, kept_each, kept_count_each);
}

/// graphify: host epilogue of 'keep_per_image_padded' (reads the counts and
/// slices the padded outputs of each iteration of the loop at line 57, then
/// runs the original's host code (from line 61 in the loop, from line 63 after
/// it) on them; not a graph region)
std::vector<torch::Tensor> Filter::keep_per_image(torch::Tensor preds) {
  std::vector<torch::Tensor> out;
  auto padded = keep_per_image_padded(preds, this->score_threshold_);
  for (size_t iteration = 0; iteration < std::get<0>(padded).size();
       ++iteration) {
    const int64_t rows = std::get<2>(padded)[iteration].item<int64_t>();
    if (std::get<0>(padded)[iteration].narrow(0, 0, rows).size(0) == 0)
      continue;
    auto kept = std::get<1>(padded)[iteration].narrow(0, 0, rows);
    out.push_back(kept.index_select(0, confident_rows(kept)));
  }
  return out;
}

torch::Tensor Filter::confident_rows(torch::Tensor rows) const {
  std::vector<int64_t> picked;
  for (int64_t r = 0; r < rows.size(0); ++r) // EXPECT-NO-FIX: the loop's body does host work
    if (rows[r][4].item<double>() > 0.5) // EXPECT-NO-FIX: the branch runs host code
      picked.push_back(r);
  return torch::tensor(picked, torch::kLong);
}

} // namespace det

// Defined in the class: the core is a static member of it.
struct Picker : torch::nn::Module {
  double limit = 0.5;
  static std::tuple<torch::Tensor, torch::Tensor>
  forward_padded(torch::Tensor x, double &limit) {
    auto kept_valid = x > limit;
    if (kept_valid.dim() != 1 || kept_valid.size(0) != x.size(0))
      throw std::invalid_argument(
          "graphify: the padded form of line 80 assumes a one-dimensional mask "
          "with one element per row");
    auto kept_order = torch::argsort(
        torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
    auto kept_count = kept_valid.sum();
    auto kept = x.index_select(0, kept_order);
    return std::make_tuple(kept.sigmoid(), kept_count);
  }

  /// graphify: host epilogue of 'forward_padded' (reads the counts and slices
  /// the padded outputs; not a graph region)
  torch::Tensor forward(torch::Tensor x) {
    auto padded = forward_padded(x, this->limit);
    const int64_t rows = std::get<1>(padded).item<int64_t>();
    return std::get<0>(padded).narrow(0, 0, rows);
  }
};

// A parameter whose type the class declares: a function outside the class cannot name it.
class Typed {
public:
  using Boxes = torch::Tensor;
  torch::Tensor keep(Boxes boxes);
};

torch::Tensor Typed::keep(Boxes boxes) {
  auto kept = boxes.index({boxes.select(1, 0) > 0}); // EXPECT-RECIPE: not rewritten automatically: the parameter 'boxes' has the type 'Boxes', declared in the class
  return kept * 2;
}

// A method defined at file scope under `using namespace`: the core beside it names what the
// class's namespace declares as the method's body does.
namespace crop {
inline torch::Tensor widths(const torch::Tensor &boxes) { return boxes.select(1, 2) - boxes.select(1, 0); }
class Cropper {
public:
  torch::Tensor keep(torch::Tensor boxes);
  double min_side = 2.0;
};
} // namespace crop

using namespace crop;

static std::tuple<torch::Tensor, torch::Tensor> keep_padded(torch::Tensor boxes,
                                                            double &min_side) {
  auto kept_valid = widths(boxes) > min_side;
  if (kept_valid.dim() != 1 || kept_valid.size(0) != boxes.size(0))
    throw std::invalid_argument(
        "graphify: the padded form of line 111 assumes a one-dimensional mask "
        "with one element per row");
  auto kept_order = torch::argsort(
      torch::logical_not(kept_valid).to(torch::kInt), /*stable=*/true, 0);
  auto kept_count = kept_valid.sum();
  auto kept = boxes.index_select(0, kept_order);
  return std::make_tuple(kept * 2, kept_count);
}

/// graphify: host epilogue of 'keep_padded' (reads the counts and slices the
/// padded outputs; not a graph region)
torch::Tensor Cropper::keep(torch::Tensor boxes) {
  auto padded = keep_padded(boxes, this->min_side);
  const int64_t rows = std::get<1>(padded).item<int64_t>();
  return std::get<0>(padded).narrow(0, 0, rows);
}
