// BatchNorm1d / BatchNorm2d and F::batch_norm over gfy::batch_norm. The parameters, buffers,
// input-rank checks and the momentum rule (including the cumulative average when momentum is
// nullopt, which reads num_batches_tracked on the host as LibTorch does) follow LibTorch 1.13's
// NormImplBase and BatchNormImplBase (torch/nn/modules/batchnorm.h).
#include <graphify/nn/BatchNorm.h>

namespace gfy::nn {

template <size_t D>
BatchNormImpl<D>::BatchNormImpl(const BatchNormOptions &o) : Module(D == 1 ? "BatchNorm1d" : "BatchNorm2d"), options(o) {
  GFY_CHECK(o.num_features() >= 0, "BatchNorm: num_features must be non-negative");
  if (o.affine()) {
    weight = register_parameter("weight", gfy::empty({o.num_features()}));
    bias = register_parameter("bias", gfy::empty({o.num_features()}));
  }
  if (o.track_running_stats()) {
    running_mean = register_buffer("running_mean", gfy::zeros({o.num_features()}));
    running_var = register_buffer("running_var", gfy::ones({o.num_features()}));
    num_batches_tracked = register_buffer("num_batches_tracked", gfy::zeros({}, kLong));
  }
  reset_parameters();
}

template <size_t D> void BatchNormImpl<D>::reset_running_stats() {
  if (!options.track_running_stats()) return;
  NoGradGuard no_grad;
  running_mean.zero_();
  running_var.fill_(1);
  num_batches_tracked.zero_();
}

template <size_t D> void BatchNormImpl<D>::reset_parameters() {
  reset_running_stats();
  if (!options.affine()) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

template <size_t D> Tensor BatchNormImpl<D>::forward(const Tensor &input) {
  GFY_CHECK(input.defined(), "BatchNorm: input is undefined");
  if constexpr (D == 1)
    GFY_CHECK(input.dim() == 2 || input.dim() == 3, "expected 2D or 3D input (got ", input.dim(), "D input)");
  else
    GFY_CHECK(input.dim() == 4, "expected 4D input (got ", input.dim(), "D input)");
  double factor = options.momentum().value_or(0.0);
  if (is_training() && options.track_running_stats()) {
    num_batches_tracked += 1;
    if (!options.momentum()) factor = 1.0 / num_batches_tracked.item<double>();
  }
  return functional::batch_norm(input, running_mean, running_var,
                                functional::BatchNormFuncOptions()
                                    .weight(weight)
                                    .bias(bias)
                                    .training(is_training() || !options.track_running_stats())
                                    .momentum(factor)
                                    .eps(options.eps()));
}

template class BatchNormImpl<1>;
template class BatchNormImpl<2>;

namespace functional {
Tensor batch_norm(const Tensor &input, const Tensor &running_mean, const Tensor &running_var,
                  const BatchNormFuncOptions &o) {
  GFY_CHECK(input.defined(), "batch_norm: input is undefined");
  if (o.training()) {
    int64_t per_channel = input.dim() > 0 ? input.size(0) : 1;
    for (int64_t d = 2; d < input.dim(); ++d) per_channel *= input.size(d);
    GFY_CHECK(per_channel != 1, "Expected more than 1 value per channel when training, got input size ", input.sizes());
  }
  GFY_CHECK(o.momentum().has_value(), "bad optional access: F::batch_norm needs a momentum");
  return gfy::batch_norm(input, o.weight(), o.bias(), running_mean, running_var, o.training(), *o.momentum(), o.eps(),
                         true);
}
} // namespace functional

} // namespace gfy::nn
