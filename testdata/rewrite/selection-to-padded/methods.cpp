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
torch::Tensor Filter::keep_confident(torch::Tensor boxes, torch::Tensor scores) {
  auto keep = scores > score_threshold_;
  auto kept = boxes.index({keep});
  return kept * this->scale_;
}

// A const method passes its fields as const references.
torch::Tensor Filter::keep_scaled(torch::Tensor boxes) const {
  auto kept = boxes.index({boxes.select(1, 0) > score_threshold_});
  if (kept.size(0) == 0)
    return torch::zeros({0, 4});
  return kept / scale_;
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
std::vector<torch::Tensor> Filter::keep_per_image(torch::Tensor preds) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < preds.size(0); ++i) {
    auto kept = preds[i].index({preds[i].select(1, 4) > score_threshold_});
    if (kept.size(0) == 0)
      continue;
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
  torch::Tensor forward(torch::Tensor x) {
    auto kept = x.index({x > limit});
    return kept.sigmoid();
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

torch::Tensor Cropper::keep(torch::Tensor boxes) {
  auto kept = boxes.index({widths(boxes) > min_side});
  return kept * 2;
}
