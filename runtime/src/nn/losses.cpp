// The regression, binary and divergence losses of LibTorch 1.13, as composites of runtime ops in
// ATen's order of operations (so that rounding agrees): l1, smooth l1, huber, binary cross
// entropy (log terms clamped at -100), binary cross entropy with logits (the max-shifted
// log-sum-exp form), kl_div; each in its `torch::` spelling (integer reduction) and its `F::`
// spelling (options), plus the modules that hold the options.
#include <graphify/graph/Graph.h>
#include <graphify/nn/Loss.h>

#include <variant>

namespace gfy {

namespace {

Tensor reduce(const Tensor &loss, int64_t reduction) {
  GFY_CHECK(reduction >= Reduction::None && reduction < Reduction::END, reduction, " is not a valid value for reduction");
  if (reduction == Reduction::Mean) return loss.mean();
  if (reduction == Reduction::Sum) return loss.sum();
  return loss;
}

int64_t reduction_enum(const nn::LossReduction &r) {
  if (std::holds_alternative<enumtype::kMean>(r)) return Reduction::Mean;
  if (std::holds_alternative<enumtype::kSum>(r)) return Reduction::Sum;
  return Reduction::None;
}

std::string shape_text(const Tensor &t) { return detail::to_display(t.sizes()); }

} // namespace

Tensor mse_loss(const Tensor &input, const Tensor &target, int64_t reduction) {
  GFY_CHECK(input.defined() && target.defined(), "mse_loss: input and target must be defined");
  Tensor d = input - target;
  return reduce(d * d, reduction);
}

Tensor l1_loss(const Tensor &input, const Tensor &target, int64_t reduction) {
  GFY_CHECK(input.defined() && target.defined(), "l1_loss: input and target must be defined");
  return reduce((input - target).abs(), reduction);
}

Tensor smooth_l1_loss(const Tensor &input, const Tensor &target, int64_t reduction, double beta) {
  GFY_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  if (beta == 0) return l1_loss(input, target, reduction);
  Tensor z = (input - target).abs();
  return reduce(where(z < beta, z * z * (0.5 / beta), z - 0.5 * beta), reduction);
}

Tensor huber_loss(const Tensor &input, const Tensor &target, int64_t reduction, double delta) {
  GFY_CHECK(delta > 0, "huber_loss does not support non-positive values for delta.");
  Tensor z = (input - target).abs();
  return reduce(where(z < delta, z * z * 0.5, (z - 0.5 * delta) * delta), reduction);
}

Tensor nll_loss(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight, int64_t reduction,
                int64_t ignore_index) {
  auto o = nn::functional::NLLLossFuncOptions().ignore_index(ignore_index);
  if (weight && weight->defined()) o.weight(*weight);
  if (reduction == Reduction::None) o.reduction(kNone);
  else if (reduction == Reduction::Sum) o.reduction(kSum);
  return nn::functional::nll_loss(input, target, o);
}

Tensor nll_loss2d(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight, int64_t reduction,
                  int64_t ignore_index) {
  GFY_CHECK(input.defined() && target.defined(), "nll_loss2d: input and target must be defined");
  GFY_CHECK(input.dim() == 4, "only batches of spatial inputs supported (4D tensors), but got input of size: ",
            input.sizes());
  GFY_CHECK(target.dim() == 3, "only batches of spatial targets supported (3D tensors) but got targets of dimension: ",
            target.dim());
  return nll_loss(input, target, weight, reduction, ignore_index);
}

Tensor cross_entropy_loss(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight,
                          int64_t reduction, int64_t ignore_index, double label_smoothing) {
  auto o = nn::functional::CrossEntropyFuncOptions().ignore_index(ignore_index).label_smoothing(label_smoothing);
  if (weight && weight->defined()) o.weight(*weight);
  if (reduction == Reduction::None) o.reduction(kNone);
  else if (reduction == Reduction::Sum) o.reduction(kSum);
  return nn::functional::cross_entropy(input, target, o);
}

Tensor binary_cross_entropy(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight,
                            int64_t reduction) {
  GFY_CHECK(input.defined() && target.defined(), "binary_cross_entropy: input and target must be defined");
  // LibTorch checks the range inside its kernel; reading it needs the host, so a captured graph
  // skips the check (the values are the replay's, unknown at capture).
  if (!is_capturing())
    GFY_CHECK(!((input < 0) | (input > 1) | isnan(input)).any().item<bool>(),
              "all elements of input should be between 0 and 1");
  Tensor loss = (target - 1) * clamp_min(log1p(-input), -100) - target * clamp_min(log(input), -100);
  if (weight && weight->defined()) loss = loss * *weight;
  return reduce(loss, reduction);
}

Tensor binary_cross_entropy_with_logits(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight,
                                        const std::optional<Tensor> &pos_weight, int64_t reduction) {
  GFY_CHECK(input.defined() && target.defined(), "binary_cross_entropy_with_logits: input and target must be defined");
  Tensor max_val = (-input).clamp_min(0);
  // log(1 + exp(-x)) = max_val + log(exp(-max_val) + exp(-x - max_val)), never overflowing.
  Tensor log_term = ((-max_val).exp() + (-input - max_val).exp()).log();
  Tensor loss;
  if (pos_weight && pos_weight->defined()) {
    Tensor log_weight = (*pos_weight - 1) * target + 1;
    loss = (1 - target) * input + log_weight * (log_term + max_val);
  } else {
    loss = (1 - target) * input + max_val + log_term;
  }
  if (weight && weight->defined()) loss = loss * *weight;
  return reduce(loss, reduction);
}

Tensor kl_div(const Tensor &input, const Tensor &target, int64_t reduction, bool log_target) {
  GFY_CHECK(input.defined() && target.defined(), "kl_div: input and target must be defined");
  Tensor out = log_target ? target.exp() * (target - input)
                          : where(target == 0, zeros_like(target), target * target.log()) - target * input;
  return reduce(out, reduction);
}

namespace nn {
namespace functional {

Tensor l1_loss(const Tensor &input, const Tensor &target, const L1LossFuncOptions &options) {
  return gfy::l1_loss(input, target, reduction_enum(options.reduction()));
}

Tensor smooth_l1_loss(const Tensor &input, const Tensor &target, const SmoothL1LossFuncOptions &options, double beta) {
  auto both = broadcast_tensors({input, target});
  return gfy::smooth_l1_loss(both[0], both[1], reduction_enum(options.reduction()), beta);
}

Tensor huber_loss(const Tensor &input, const Tensor &target, const HuberLossFuncOptions &options) {
  auto both = broadcast_tensors({input, target});
  return gfy::huber_loss(both[0], both[1], reduction_enum(options.reduction()), options.delta());
}

Tensor binary_cross_entropy(const Tensor &input, const Tensor &target, const BinaryCrossEntropyFuncOptions &options) {
  GFY_CHECK(input.defined() && target.defined(), "binary_cross_entropy: input and target must be defined");
  GFY_CHECK(target.sizes() == input.sizes(), "Using a target size (", shape_text(target),
            ") that is different to the input size (", shape_text(input),
            ") is deprecated. Please ensure they have the same size.");
  Tensor w = options.weight();
  if (w.defined()) w = w.expand(broadcast_tensors({target, w})[0].sizes());
  return gfy::binary_cross_entropy(input, target, w, reduction_enum(options.reduction()));
}

Tensor binary_cross_entropy_with_logits(const Tensor &input, const Tensor &target,
                                        const BinaryCrossEntropyWithLogitsFuncOptions &options) {
  GFY_CHECK(input.defined() && target.defined(), "binary_cross_entropy_with_logits: input and target must be defined");
  GFY_CHECK(target.sizes() == input.sizes(), "Target size (", shape_text(target), ") must be the same as input size (",
            shape_text(input), ")");
  return gfy::binary_cross_entropy_with_logits(input, target, options.weight(), options.pos_weight(),
                                               reduction_enum(options.reduction()));
}

Tensor kl_div(const Tensor &input, const Tensor &target, const KLDivFuncOptions &options) {
  const auto &r = options.reduction();
  if (std::holds_alternative<enumtype::kBatchMean>(r)) {
    Tensor summed = gfy::kl_div(input, target, Reduction::Sum, options.log_target());
    return input.dim() != 0 ? summed / input.size(0) : summed;
  }
  const int64_t e = std::holds_alternative<enumtype::kMean>(r)  ? Reduction::Mean
                    : std::holds_alternative<enumtype::kSum>(r) ? Reduction::Sum
                                                                : Reduction::None;
  return gfy::kl_div(input, target, e, options.log_target());
}

} // namespace functional

BCELossImpl::BCELossImpl(const BCELossOptions &o) : Module("BCELoss"), options(o) {
  weight = register_buffer("weight", o.weight());
}

BCEWithLogitsLossImpl::BCEWithLogitsLossImpl(const BCEWithLogitsLossOptions &o)
    : Module("BCEWithLogitsLoss"), options(o) {
  weight = register_buffer("weight", o.weight());
  pos_weight = register_buffer("pos_weight", o.pos_weight());
}

} // namespace nn
} // namespace gfy
