// Front-ends of the neural-network kernels (softmax, log_softmax along one dim, layer_norm over
// the trailing dims) and dropout, which is composite (a random mask and two multiplications).
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

Tensor dropout(const Tensor &input, double p, bool train) {
  check_defined(input, "input");
  GFY_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!train || p == 0) return input;
  if (p == 1) return zeros_like(input);
  Tensor keep = rand_like(input, input.options().dtype(isFloatingType(input.scalar_type()) ? input.scalar_type() : kFloat)) >= p;
  return input * keep / (1 - p);
}

// --- Tensor methods ------------------------------------------------------------------------------

Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> d) const { return gfy::softmax(*this, dim, d); }
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> d) const { return gfy::log_softmax(*this, dim, d); }

} // namespace gfy
