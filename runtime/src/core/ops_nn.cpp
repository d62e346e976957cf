// Front-ends of the neural-network kernels (softmax, log_softmax along one dim, layer_norm over
// the trailing dims, batch_norm per channel) and dropout, which is composite (a random mask and
// two multiplications).
#include "OpsCommon.h"

namespace gfy {
using namespace detail;

Tensor softmax(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  return along_dim(OpId::softmax, a, dim, dtype.value_or(a.scalar_type()));
}
Tensor log_softmax(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  return along_dim(OpId::log_softmax, a, dim, dtype.value_or(a.scalar_type()));
}

Tensor layer_norm(const Tensor &input, IntArrayRef normalized_shape, const Tensor &weight, const Tensor &bias, double eps,
                  bool) {
  check_defined(input, "input");
  const int64_t nn = int64_t(normalized_shape.size()), nd = input.dim();
  bool ok = nn >= 1 && nd >= nn;
  for (int64_t i = 0; ok && i < nn; ++i) ok = input.size(nd - nn + i) == normalized_shape[size_t(i)];
  GFY_CHECK(ok, "Given normalized_shape=", normalized_shape, ", expected input with shape [*",
            [&] {
              std::string s;
              for (int64_t v : normalized_shape) s += ", " + std::to_string(v);
              return s;
            }(),
            "], but got input of size", input.sizes());
  if (weight.defined())
    GFY_CHECK(weight.sizes() == normalized_shape, "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
              weight.sizes(), " and normalized_shape = ", normalized_shape);
  if (bias.defined())
    GFY_CHECK(bias.sizes() == normalized_shape, "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
              bias.sizes(), " and normalized_shape = ", normalized_shape);
  int64_t D = 1;
  for (int64_t v : normalized_shape) D *= v;
  Tensor x = input.contiguous();
  Tensor out = make_tensor(x.sizes(), x.scalar_type(), x.device());
  OpCall c;
  c.op = OpId::layer_norm;
  c.in = {x, weight.defined() ? cast(weight, x.scalar_type()).contiguous() : Tensor(),
          bias.defined() ? cast(bias, x.scalar_type()).contiguous() : Tensor()};
  c.out = {out};
  c.alpha = eps;
  c.k = D;
  run(std::move(c), x.scalar_type());
  return out;
}

namespace {
void check_channel_param(const Tensor &t, const char *name, int64_t channels) {
  if (t.defined())
    GFY_CHECK(t.numel() == channels, name, " should contain ", channels, " elements not ", t.numel());
}
} // namespace

Tensor batch_norm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &running_mean,
                  const Tensor &running_var, bool training, double momentum, double eps, bool) {
  check_defined(input, "input");
  GFY_CHECK(input.dim() >= 2, "batch_norm: expected an input of at least 2 dims (N, C, ...), but got input of size ",
            input.sizes());
  const int64_t C = input.size(1);
  check_channel_param(running_mean, "running_mean", C);
  GFY_CHECK(running_mean.defined() || training, "running_mean must be defined in evaluation mode");
  check_channel_param(running_var, "running_var", C);
  GFY_CHECK(running_var.defined() || training, "running_var must be defined in evaluation mode");
  check_channel_param(weight, "weight", C);
  check_channel_param(bias, "bias", C);
  common_device({&input, &weight, &bias, &running_mean, &running_var});
  if (input.numel() == 0) return input.clone();
  const ScalarType t = input.scalar_type();
  Tensor x = input.contiguous().view({input.size(0), C, -1}); // x: (N, C, L)
  Tensor mean, var;
  if (training) {
    // Batch statistics (the biased variance normalises); the running estimates move towards
    // them by `momentum`, the variance's with Bessel's correction, as LibTorch's.
    std::tie(var, mean) = var_mean(x, {0, 2}, /*unbiased=*/false);
    const int64_t n = x.numel() / C;
    NoGradGuard no_grad; // the running estimates are buffers, not part of any graph
    if (running_mean.defined()) {
      Tensor target = running_mean; // a handle on the caller's buffer: updated in place
      target.copy_(mean * momentum + running_mean.to(t) * (1 - momentum));
    }
    if (running_var.defined()) {
      Tensor target = running_var;
      target.copy_(var * (momentum * double(n) / double(n - 1)) + running_var.to(t) * (1 - momentum));
    }
  } else {
    mean = cast(running_mean, t).contiguous();
    var = cast(running_var, t).contiguous();
  }
  Tensor out = make_tensor(x.sizes(), t, x.device()); // out: (N, C, L)
  OpCall c;
  c.op = OpId::batch_norm;
  c.in = {x, mean, var, weight.defined() ? cast(weight, t).contiguous() : Tensor(),
          bias.defined() ? cast(bias, t).contiguous() : Tensor()};
  c.out = {out};
  c.alpha = eps;
  run(std::move(c), t);
  return out.view(input.sizes());
}

Tensor dropout(const Tensor &input, double p, bool train) {
  check_defined(input, "input");
  GFY_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!train || p == 0) return input;
  if (p == 1) return zeros_like(input);
  Tensor keep = rand_like(input, input.options().dtype(isFloatingType(input.scalar_type()) ? input.scalar_type() : kFloat)) >= p;
  return input * keep / (1 - p);
}

Tensor feature_dropout(const Tensor &input, double p, bool train) {
  check_defined(input, "input");
  GFY_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!train || p == 0 || input.numel() == 0) return input;
  GFY_CHECK(input.dim() >= 2, "Feature dropout requires at least 2 dimensions in the input");
  if (p == 1) return zeros_like(input);
  // One draw per (sample, channel), broadcast over the channel's elements: mask (N, C, 1, ...).
  std::vector<int64_t> mask_shape(size_t(input.dim()), 1);
  mask_shape[0] = input.size(0);
  mask_shape[1] = input.size(1);
  const ScalarType t = isFloatingType(input.scalar_type()) ? input.scalar_type() : kFloat;
  Tensor keep = rand(mask_shape, input.options().dtype(t)) >= p;
  return input * keep / (1 - p);
}

} // namespace gfy
