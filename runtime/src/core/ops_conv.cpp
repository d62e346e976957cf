// Front-ends of convolution (conv1d, conv2d). Both end in one conv2d kernel call on a contiguous
// (N, C, H, W) input: conv1d runs it with H = 1, an unbatched input gets a batch dim of one, and
// padding "same" with an even kernel pads the input's far side first, as LibTorch does. The checks
// are LibTorch 1.13's (aten/src/ATen/native/Convolution.cpp), in its order and with its messages,
// so that a wrong channel count or a kernel larger than the padded input fails the same way.
#include "OpsCommon.h"

#include <sstream>

namespace gfy {
using namespace detail;

namespace {

/// One int for every spatial dim, or a list of exactly `dims` of them.
std::vector<int64_t> expand_param(IntArrayRef v, const char *name, size_t dims) {
  if (v.size() == 1) return std::vector<int64_t>(dims, v[0]);
  GFY_CHECK(v.size() == dims, "expected ", name, " to be a single integer value or a list of ", dims,
            " values to match the convolution dimensions, but got ", name, "=", v);
  return v.vec();
}

struct ConvParams {
  std::vector<int64_t> stride, padding, dilation;
  int64_t groups;
};

/// LibTorch's check_shape_forward for a batched input of rank dims + 2.
void check_conv_shapes(const Tensor &x, const Tensor &w, const Tensor &bias, const ConvParams &p) {
  for (int64_t v : p.padding) GFY_CHECK(v >= 0, "negative padding is not supported");
  for (int64_t v : p.stride) GFY_CHECK(v > 0, "non-positive stride is not supported");
  for (int64_t v : p.dilation) GFY_CHECK(v > 0, "dilation should be greater than zero");
  GFY_CHECK(p.groups > 0, "non-positive groups is not supported");
  GFY_CHECK(w.dim() == x.dim(), "Expected ", w.dim(), "-dimensional input for ", w.dim(), "-dimensional weight ",
            w.sizes(), ", but got ", x.dim(), "-dimensional input of size ", x.sizes(), " instead");
  GFY_CHECK(w.size(0) >= p.groups, "Given groups=", p.groups, ", expected weight to be at least ", p.groups,
            " at dimension 0, but got weight of size ", w.sizes(), " instead");
  GFY_CHECK(w.size(0) % p.groups == 0, "Given groups=", p.groups, ", expected weight to be divisible by ", p.groups,
            " at dimension 0, but got weight of size [", w.sizes(), "] instead");
  GFY_CHECK(x.size(1) == w.size(1) * p.groups, "Given groups=", p.groups, ", weight of size ", w.sizes(),
            ", expected input", x.sizes(), " to have ", w.size(1) * p.groups, " channels, but got ", x.size(1),
            " channels instead");
  if (bias.defined())
    GFY_CHECK(bias.dim() == 1 && bias.size(0) == w.size(0), "Given weight of size ", w.sizes(),
              ", expected bias to be 1-dimensional with ", w.size(0), " elements, but got bias of size ", bias.sizes(),
              " instead");
  std::ostringstream in_ss, k_ss;
  bool fits = true;
  for (size_t i = 0; i < p.padding.size(); ++i) {
    const int64_t padded = x.size(int64_t(i) + 2) + 2 * p.padding[i];
    const int64_t extent = p.dilation[i] * (w.size(int64_t(i) + 2) - 1) + 1;
    in_ss << (i ? " x " : "") << padded;
    k_ss << (i ? " x " : "") << extent;
    fits = fits && padded >= extent;
  }
  GFY_CHECK(fits, "Calculated padded input size per channel: (", in_ss.str(), "). Kernel size: (", k_ss.str(),
            "). Kernel size can't be greater than actual input size");
}

/// x (N, C, H, W), w (O, C / groups, kH, kW), both of one floating dtype: the conv2d kernel call.
Tensor run_conv2d(const Tensor &x, const Tensor &w, const Tensor &bias, const ConvParams &p) {
  const ScalarType t = x.scalar_type();
  auto out_size = [&](int64_t i) {
    return (x.size(i + 2) + 2 * p.padding[size_t(i)] - p.dilation[size_t(i)] * (w.size(i + 2) - 1) - 1) /
               p.stride[size_t(i)] +
           1;
  };
  Tensor out = make_tensor({x.size(0), w.size(0), out_size(0), out_size(1)}, t, x.device()); // out: (N, O, oH, oW)
  OpCall c;
  c.op = OpId::conv2d;
  c.in = {x.contiguous(), w.contiguous(), bias.defined() ? bias.contiguous() : Tensor()};
  c.out = {out};
  c.ints = {p.stride[0], p.stride[1], p.padding[0], p.padding[1], p.dilation[0], p.dilation[1]};
  c.k = p.groups;
  run(std::move(c), t);
  return out;
}

/// The convolution of a `dims`-d op (1 or 2) after LibTorch's argument checks.
Tensor convolution(const char *name, int64_t dims, const Tensor &input, const Tensor &weight, const Tensor &bias,
                   ConvParams p) {
  check_defined(input, "input");
  check_defined(weight, "weight");
  const int64_t rank = dims + 2;
  GFY_CHECK(input.dim() == rank - 1 || input.dim() == rank, "Expected ", rank - 1, "D (unbatched) or ", rank,
            "D (batched) input to ", name, ", but got input of size: ", input.sizes());
  common_device({&input, &weight, &bias});
  GFY_CHECK(input.scalar_type() == weight.scalar_type(), "expected scalar type ", to_string(weight.scalar_type()),
            " but found ", to_string(input.scalar_type()));
  if (bias.defined())
    GFY_CHECK(bias.scalar_type() == input.scalar_type(), "expected scalar type ", to_string(input.scalar_type()),
              " but found ", to_string(bias.scalar_type()));
  const bool batched = input.dim() == rank;
  Tensor x = batched ? input : input.unsqueeze(0);
  check_conv_shapes(x, weight, bias, p);
  Tensor w = weight;
  if (dims == 1) {
    // (N, C, L) as (N, C, 1, L): the 2-d kernel with a height of one.
    x = x.unsqueeze(2);
    w = w.unsqueeze(2);
    p = ConvParams{{1, p.stride[0]}, {0, p.padding[0]}, {1, p.dilation[0]}, p.groups};
  }
  Tensor out = run_conv2d(x, w, bias, p);
  if (dims == 1) out = out.squeeze(2);
  return batched ? out : out.squeeze(0);
}

/// LibTorch's padding="same" / "valid": "same" keeps the spatial size (stride 1 only); a total
/// padding that is odd puts the extra zero on the far side, by padding the input itself.
Tensor convolution_mode(const char *name, int64_t dims, const Tensor &input, const Tensor &weight, const Tensor &bias,
                        IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups) {
  check_defined(input, "input");
  check_defined(weight, "weight");
  const size_t d = size_t(dims);
  ConvParams p{expand_param(stride, "stride", d), std::vector<int64_t>(d, 0), expand_param(dilation, "dilation", d),
               groups};
  if (padding == "valid") return convolution(name, dims, input, weight, bias, p);
  GFY_CHECK(padding == "same", "Invalid padding string: '", std::string(padding), "'");
  for (int64_t s : p.stride) GFY_CHECK(s == 1, "padding='same' is not supported for strided convolutions");
  GFY_CHECK(weight.dim() == dims + 2, "Expected ", dims + 2, "-dimensional weight for ", name, ", but got weight of size ",
            weight.sizes());
  Tensor x = input;
  for (size_t i = 0; i < d; ++i) {
    const int64_t total = p.dilation[i] * (weight.size(int64_t(i) + 2) - 1);
    p.padding[i] = total / 2;
    const int64_t extra = total - 2 * p.padding[i];
    if (extra == 0) continue;
    // The input's spatial dim i is its dim (rank - dims + i); grow it by `extra` zeros at the end.
    const int64_t dim = x.dim() - dims + int64_t(i);
    std::vector<int64_t> zeros_shape = x.sizes().vec();
    zeros_shape[size_t(dim)] = extra;
    x = cat({x, zeros(zeros_shape, x.options())}, dim); // differentiable, unlike a copy into a slice
  }
  return convolution(name, dims, x, weight, bias, p);
}

} // namespace

Tensor conv1d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride, IntArrayRef padding,
              IntArrayRef dilation, int64_t groups) {
  return convolution("conv1d", 1, input, weight, bias,
                     ConvParams{expand_param(stride, "stride", 1), expand_param(padding, "padding", 1),
                                expand_param(dilation, "dilation", 1), groups});
}
Tensor conv2d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride, IntArrayRef padding,
              IntArrayRef dilation, int64_t groups) {
  return convolution("conv2d", 2, input, weight, bias,
                     ConvParams{expand_param(stride, "stride", 2), expand_param(padding, "padding", 2),
                                expand_param(dilation, "dilation", 2), groups});
}
Tensor conv1d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convolution_mode("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv2d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convolution_mode("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}

} // namespace gfy
