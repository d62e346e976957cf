// GroupNorm, InstanceNorm1d/2d and their F:: forms over gfy::group_norm / gfy::instance_norm,
// with LibTorch 1.13's parameters, buffers, input-rank checks and train/eval behaviour
// (instance statistics unless the module tracks running statistics and is in eval mode).
#include <graphify/nn/Normalization.h>

namespace gfy::nn {

GroupNormImpl::GroupNormImpl(const GroupNormOptions &o) : Module("GroupNorm"), options(o) { reset(); }

void GroupNormImpl::reset() {
  if (options.affine()) {
    weight = register_parameter("weight", gfy::empty({options.num_channels()}));
    bias = register_parameter("bias", gfy::empty({options.num_channels()}));
  }
  reset_parameters();
}

void GroupNormImpl::reset_parameters() {
  NoGradGuard no_grad; // initialisation is not part of any graph (LibTorch's reset does the same)
  if (weight.defined()) weight.fill_(1);
  if (bias.defined()) bias.fill_(0);
}

Tensor GroupNormImpl::forward(const Tensor &input) {
  return gfy::group_norm(input, options.num_groups(), weight, bias, options.eps());
}

template <size_t D>
InstanceNormImpl<D>::InstanceNormImpl(const InstanceNormOptions &o)
    : Module(D == 1 ? "InstanceNorm1d" : "InstanceNorm2d"), options(o) {
  reset();
}

template <size_t D> void InstanceNormImpl<D>::reset() {
  const int64_t C = options.num_features();
  if (options.affine()) {
    weight = register_parameter("weight", gfy::empty({C}));
    bias = register_parameter("bias", gfy::empty({C}));
  }
  if (options.track_running_stats()) {
    running_mean = register_buffer("running_mean", gfy::zeros({C}));
    running_var = register_buffer("running_var", gfy::ones({C}));
    num_batches_tracked = register_buffer("num_batches_tracked", gfy::zeros({}, kLong));
  }
  reset_parameters();
}

template <size_t D> void InstanceNormImpl<D>::reset_running_stats() {
  if (!options.track_running_stats()) return;
  NoGradGuard no_grad;
  running_mean.fill_(0);
  running_var.fill_(1);
  num_batches_tracked.fill_(0);
}

template <size_t D> void InstanceNormImpl<D>::reset_parameters() {
  NoGradGuard no_grad; // initialisation is not part of any graph (LibTorch's reset does the same)
  reset_running_stats();
  if (weight.defined()) weight.fill_(1);
  if (bias.defined()) bias.fill_(0);
}

template <size_t D> Tensor InstanceNormImpl<D>::forward(const Tensor &input) {
  GFY_CHECK(input.defined(), "InstanceNorm: input is undefined");
  const int64_t batched = static_cast<int64_t>(D) + 2;
  GFY_CHECK(input.dim() == batched || input.dim() == batched - 1, "expected ", batched - 1, "D or ", batched,
            "D input (got ", input.dim(), "D input)");
  // Unbatched (C, *) runs as a batch of one.
  const bool unbatched = input.dim() == batched - 1;
  Tensor x = unbatched ? input.unsqueeze(0) : input;
  Tensor y = gfy::instance_norm(x, weight, bias, running_mean, running_var,
                                is_training() || !options.track_running_stats(), options.momentum(), options.eps(),
                                /*cudnn_enabled=*/false);
  return unbatched ? y.squeeze(0) : y;
}

template class InstanceNormImpl<1>;
template class InstanceNormImpl<2>;

namespace functional {
Tensor group_norm(const Tensor &input, const GroupNormFuncOptions &o) {
  return gfy::group_norm(input, o.num_groups(), o.weight(), o.bias(), o.eps());
}
Tensor instance_norm(const Tensor &input, const InstanceNormFuncOptions &o) {
  return gfy::instance_norm(input, o.weight(), o.bias(), o.running_mean(), o.running_var(), o.use_input_stats(),
                            o.momentum(), o.eps(), /*cudnn_enabled=*/false);
}
} // namespace functional

} // namespace gfy::nn
