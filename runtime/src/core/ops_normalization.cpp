// Group and instance normalisation, composed from runtime ops. group_norm views (N, C, *) as
// (N, G, C / G * prod(*)) and normalises each row by its biased statistics; instance_norm is
// LibTorch's own construction: batch_norm over (1, N * C, *) with the per-channel parameters and
// running estimates repeated per sample, so its numerics and its running-statistics update are
// batch_norm's.
#include "OpsCommon.h"

namespace gfy {
using namespace detail;

namespace {

/// (C) -> (1, C, 1, ..., 1) for an input of `ndim` dims, to broadcast over (N, C, *).
Tensor per_channel(const Tensor &v, int64_t ndim) {
  std::vector<int64_t> shape(static_cast<size_t>(ndim), 1);
  shape[1] = v.size(0);
  return v.view(shape);
}

} // namespace

Tensor group_norm(const Tensor &input, int64_t num_groups, const Tensor &weight, const Tensor &bias, double eps,
                  bool /*cudnn_enabled*/) {
  check_defined(input, "input");
  GFY_CHECK(input.dim() >= 2, "Expected at least 2 dimensions for input tensor but received ", input.dim());
  GFY_CHECK(input.is_floating_point(), "group_norm: expected a floating point input, got ", to_string(input.scalar_type()));
  const int64_t N = input.size(0), C = input.size(1);
  GFY_CHECK(num_groups > 0 && C % num_groups == 0, "Expected number of channels in input to be divisible by num_groups, but got input of shape ",
            input.sizes(), " and num_groups=", num_groups);
  GFY_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == C), "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape ",
            weight.sizes(), " and input of shape ", input.sizes());
  GFY_CHECK(!bias.defined() || (bias.dim() == 1 && bias.numel() == C), "Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape ",
            bias.sizes(), " and input of shape ", input.sizes());
  // x: (N, G, C / G * prod(spatial)); statistics per row, biased as in LibTorch.
  Tensor x = input.reshape({N, num_groups, -1});
  Tensor mean = x.mean(IntArrayRef{2}, /*keepdim=*/true);
  Tensor centred = x - mean;
  Tensor var = (centred * centred).mean(IntArrayRef{2}, /*keepdim=*/true);
  Tensor y = (centred * rsqrt(var + eps)).view(input.sizes());
  if (weight.defined()) y = y * per_channel(weight, input.dim());
  if (bias.defined()) y = y + per_channel(bias, input.dim());
  return y;
}

Tensor instance_norm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &running_mean,
                     const Tensor &running_var, bool use_input_stats, double momentum, double eps, bool cudnn_enabled) {
  check_defined(input, "input");
  GFY_CHECK(input.dim() >= 2, "Expected at least 2 dimensions for input tensor but received ", input.dim());
  GFY_CHECK(use_input_stats || (running_mean.defined() && running_var.defined()),
            "Expected running_mean and running_var to be defined when use_input_stats is false");
  const int64_t N = input.size(0), C = input.size(1);
  // (N, C, *) -> (1, N * C, *): every (sample, channel) plane becomes one batch-norm channel.
  std::vector<int64_t> shape = input.sizes().vec();
  shape[0] = 1;
  shape[1] = N * C;
  Tensor x = input.contiguous().view(shape);
  auto repeated = [&](const Tensor &t) { return t.defined() ? t.repeat({N}) : Tensor(); };
  Tensor rm = repeated(running_mean), rv = repeated(running_var);
  Tensor y = batch_norm(x, repeated(weight), repeated(bias), rm, rv, use_input_stats, momentum, eps, cudnn_enabled);
  // batch_norm moved the repeated estimates; each channel's new estimate is their mean over samples.
  if (use_input_stats) {
    // Copies of the handles alias the caller's buffers (Tensor::copy_ is not const here).
    Tensor mean_out = running_mean, var_out = running_var;
    if (mean_out.defined()) mean_out.copy_(rm.view({N, C}).mean(IntArrayRef{0}));
    if (var_out.defined()) var_out.copy_(rv.view({N, C}).mean(IntArrayRef{0}));
  }
  return y.view(input.sizes());
}

} // namespace gfy
