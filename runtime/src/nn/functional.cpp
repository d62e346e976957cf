// torch::nn::functional and the losses: front-ends over gfy:: tensor functions that read their
// arguments from LibTorch's *FuncOptions builders. The checks mirror those that LibTorch's own
// functional wrappers make before calling ATen, with the same messages.
#include <graphify/nn/Functional.h>
#include <graphify/nn/Loss.h>

#include <type_traits>

namespace gfy::nn {
namespace functional {

Tensor relu(Tensor input, const ReLUFuncOptions &options) {
  if (options.inplace()) return input.relu_();
  return gfy::relu(input);
}

Tensor gelu(const Tensor &input, const GELUFuncOptions &options) { return gfy::gelu(input, options.approximate()); }

Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions &options) {
  GFY_CHECK(input.defined() && input.is_floating_point(), "leaky_relu: expected a floating point input");
  Tensor out = gfy::where(input > 0, input, input * options.negative_slope());
  if (options.inplace()) return input.copy_(out);
  return out;
}

Tensor silu(const Tensor &input) { return gfy::silu(input); }

Tensor elu(Tensor input, const ELUFuncOptions &options) {
  Tensor out = gfy::elu(input, options.alpha());
  if (options.inplace()) return input.copy_(out);
  return out;
}

Tensor softplus(const Tensor &input, const SoftplusFuncOptions &options) {
  return gfy::softplus(input, options.beta(), options.threshold());
}

Tensor mish(const Tensor &input) { return gfy::mish(input); }

Tensor softmax(const Tensor &input, const SoftmaxFuncOptions &options) {
  return gfy::softmax(input, options.dim(), options.dtype());
}

Tensor log_softmax(const Tensor &input, const LogSoftmaxFuncOptions &options) {
  return gfy::log_softmax(input, options.dim(), options.dtype());
}

Tensor dropout(Tensor input, const DropoutFuncOptions &options) {
  const double p = options.p();
  GFY_CHECK(p >= 0. && p <= 1., "dropout probability has to be between 0 and 1, but got ", p);
  Tensor out = gfy::dropout(input, p, options.training());
  if (options.inplace() && !out.is_same(input)) return input.copy_(out);
  return out;
}

Tensor dropout2d(Tensor input, const Dropout2dFuncOptions &options) {
  const double p = options.p();
  GFY_CHECK(p >= 0. && p <= 1., "dropout probability has to be between 0 and 1, but got ", p);
  GFY_CHECK(input.defined(), "dropout2d: input is undefined");
  // (C, H, W) is one unbatched sample: channels are dim 0 there, so a batch dim is added.
  const bool batched = input.dim() == 4;
  Tensor x = batched ? input : input.unsqueeze(0);
  Tensor out = gfy::feature_dropout(x, p, options.training());
  if (!batched) out = out.squeeze(0);
  if (options.inplace() && !out.is_same(input)) return input.copy_(out);
  return out;
}

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias) { return gfy::linear(input, weight, bias); }

Tensor layer_norm(const Tensor &input, const LayerNormFuncOptions &options) {
  return gfy::layer_norm(input, options.normalized_shape(), options.weight(), options.bias(), options.eps());
}

Tensor normalize(const Tensor &input, NormalizeFuncOptions options) {
  Tensor denom = input.norm(options.p(), options.dim(), /*keepdim=*/true).clamp_min(options.eps());
  return input / denom.expand_as(input);
}

Tensor embedding(const Tensor &input, const Tensor &weight, const EmbeddingFuncOptions &options) {
  GFY_CHECK(weight.defined(), "embedding: weight is undefined");
  if (auto pad = options.padding_idx()) {
    // Forward-only runtime: padding_idx only matters for gradients, but LibTorch checks its range.
    if (*pad > 0) GFY_CHECK(*pad < weight.size(0), "Padding_idx must be within num_embeddings");
    if (*pad < 0) GFY_CHECK(*pad >= -weight.size(0), "Padding_idx must be within num_embedding");
  }
  return gfy::embedding(weight, input);
}

Tensor one_hot(const Tensor &tensor, int64_t num_classes) {
  GFY_CHECK(tensor.defined() && tensor.scalar_type() == kLong, "one_hot is only applicable to index tensor.");
  if (num_classes == -1) {
    GFY_CHECK(tensor.numel() > 0, "Can not infer total number of classes from empty tensor.");
    num_classes = tensor.max().item<int64_t>() + 1;
  }
  if (tensor.numel() > 0) {
    GFY_CHECK(tensor.min().item<int64_t>() >= 0, "Class values must be non-negative.");
    GFY_CHECK(tensor.max().item<int64_t>() < num_classes, "Class values must be smaller than num_classes.");
  }
  Tensor classes = gfy::arange(num_classes, TensorOptions().dtype(kLong).device(tensor.device()));
  return (tensor.unsqueeze(-1) == classes).to(kLong);
}

// --- losses ---------------------------------------------------------------------------------------

namespace {

Tensor reduce(const Tensor &loss, const LossReduction &reduction) {
  return std::visit(
      [&](auto r) -> Tensor {
        if constexpr (std::is_same_v<decltype(r), enumtype::kMean>) return loss.mean();
        else if constexpr (std::is_same_v<decltype(r), enumtype::kSum>) return loss.sum();
        else return loss;
      },
      reduction);
}

bool is_mean(const LossReduction &r) { return std::holds_alternative<enumtype::kMean>(r); }

/// Moves the class dim (1) of an (N, C, d1, ...) input last and flattens: (N * d1 * ..., C).
Tensor classes_last(const Tensor &input) {
  if (input.dim() == 2) return input;
  std::vector<int64_t> perm = {0};
  for (int64_t d = 2; d < input.dim(); ++d) perm.push_back(d);
  perm.push_back(1);
  return input.permute(perm).reshape({-1, input.size(1)});
}

/// Per-target weights: weight[target] (ones without a weight), zero where target is ignored.
Tensor target_weights(const Tensor &weight, const Tensor &valid, const Tensor &safe_target, const Tensor &like) {
  Tensor w = weight.defined() ? weight.to(like.scalar_type()).index_select(0, safe_target)
                              : gfy::ones(safe_target.sizes(), like.options());
  return w * valid.to(like.scalar_type());
}

} // namespace

Tensor mse_loss(const Tensor &input, const Tensor &target, const MSELossFuncOptions &options) {
  GFY_CHECK(input.defined() && target.defined(), "mse_loss: input and target must be defined");
  auto both = gfy::broadcast_tensors({input, target});
  Tensor d = both[0] - both[1];
  return reduce(d * d, options.reduction());
}

Tensor nll_loss(const Tensor &input, const Tensor &target, const NLLLossFuncOptions &options) {
  GFY_CHECK(input.defined() && target.defined(), "nll_loss: input and target must be defined");
  GFY_CHECK(input.dim() >= 2, "Expected 2 or more dimensions (got ", input.dim(), ")");
  GFY_CHECK(input.size(0) == target.size(0), "Expected input batch_size (", input.size(0),
            ") to match target batch_size (", target.size(0), ").");
  GFY_CHECK(target.scalar_type() == kLong, "expected scalar type Long but found ", to_string(target.scalar_type()));
  GFY_CHECK(input.dim() == target.dim() + 1, "nll_loss: expected target of ", input.dim() - 1, " dims, got ",
            target.dim());
  Tensor flat_in = classes_last(input);
  Tensor t = target.reshape({-1});
  Tensor valid = t != options.ignore_index();
  Tensor safe = gfy::where(valid, t, 0); // ignored targets read class 0, then weigh 0
  Tensor w = target_weights(options.weight(), valid, safe, flat_in);
  // A target outside [0, C) that is not ignore_index (-1 included) is LibTorch's "Target -1 is
  // out of bounds.", raised by the kernel; gather would otherwise read it as an index.
  Tensor loss = -gfy::detail::gather_targets(flat_in, 1, safe.unsqueeze(1)).squeeze(1) * w;
  if (is_mean(options.reduction())) return loss.sum() / w.sum(); // all ignored: 0 / 0 = NaN, as LibTorch
  return reduce(loss.view(target.sizes()), options.reduction());
}

namespace {

/// Cross entropy against class probabilities (a floating target of input's shape).
Tensor cross_entropy_probs(const Tensor &logp, const Tensor &target, const CrossEntropyFuncOptions &o, int64_t cdim) {
  GFY_CHECK(logp.sizes() == target.sizes(), "cross_entropy: probability targets must have the input's shape");
  const int64_t C = logp.size(cdim);
  Tensor tgt = o.label_smoothing() > 0 ? target * (1 - o.label_smoothing()) + o.label_smoothing() / double(C) : target;
  Tensor prod = logp * tgt;
  if (o.weight().defined()) {
    std::vector<int64_t> shape(size_t(logp.dim()), 1);
    shape[size_t(cdim)] = C;
    prod = prod * o.weight().to(logp.scalar_type()).view(shape);
  }
  if (is_mean(o.reduction())) return -prod.sum() / double(logp.numel() / std::max<int64_t>(C, 1));
  return reduce(-prod.sum(cdim), o.reduction());
}

} // namespace

Tensor cross_entropy(const Tensor &input, const Tensor &target, const CrossEntropyFuncOptions &options) {
  GFY_CHECK(input.defined() && target.defined(), "cross_entropy: input and target must be defined");
  GFY_CHECK(input.dim() >= 1, "cross_entropy: input must have at least one dimension");
  // An unbatched (C) input with a 0-d target is a batch of one.
  if (input.dim() == 1 && !target.is_floating_point()) {
    Tensor out = cross_entropy(input.unsqueeze(0), target.unsqueeze(0), options);
    return out.dim() == 1 ? out.squeeze(0) : out;
  }
  const int64_t cdim = input.dim() == 1 ? 0 : 1;
  Tensor logp = gfy::log_softmax(input, cdim);
  if (target.is_floating_point()) return cross_entropy_probs(logp, target, options, cdim);

  NLLLossFuncOptions nll;
  nll.weight(options.weight()).ignore_index(options.ignore_index()).reduction(options.reduction());
  Tensor loss = nll_loss(logp, target, nll);
  const double eps = options.label_smoothing();
  if (eps <= 0) return loss;
  // Label smoothing adds eps / C times the loss against the uniform distribution (per target,
  // weighted by class weights), normalised like the nll term, as LibTorch's
  // cross_entropy_loss_label_smoothing.
  const int64_t C = input.size(1);
  Tensor flat = classes_last(logp);
  Tensor t = target.reshape({-1});
  Tensor valid = t != options.ignore_index();
  Tensor weighted = options.weight().defined() ? flat * options.weight().to(flat.scalar_type()).unsqueeze(0) : flat;
  Tensor smooth = (-weighted.sum(1)).masked_fill(valid.logical_not(), 0);
  Tensor smooth_red;
  if (is_mean(options.reduction())) {
    Tensor w = target_weights(options.weight(), valid, gfy::where(valid, t, 0), flat);
    smooth_red = smooth.sum() / w.sum();
  } else {
    smooth_red = reduce(smooth.view(target.sizes()), options.reduction());
  }
  return loss * (1 - eps) + smooth_red * (eps / double(C));
}

} // namespace functional

NLLLossImpl::NLLLossImpl(const NLLLossOptions &o) : Module("NLLLoss"), options(o) {
  if (o.weight().defined()) weight = register_buffer("weight", o.weight());
}

CrossEntropyLossImpl::CrossEntropyLossImpl(const CrossEntropyLossOptions &o) : Module("CrossEntropyLoss"), options(o) {
  if (o.weight().defined()) weight = register_buffer("weight", o.weight());
}

} // namespace gfy::nn

namespace gfy {
Tensor one_hot(const Tensor &tensor, int64_t num_classes) { return nn::functional::one_hot(tensor, num_classes); }
} // namespace gfy
