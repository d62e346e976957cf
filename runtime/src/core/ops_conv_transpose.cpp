// Transposed convolution as a convolution: the gradient-of-convolution form that LibTorch's
// kernels compute equals a stride-1 convolution of the input with stride - 1 zeros inserted
// between its elements, padded by dilation * (k - 1) - padding on each side (plus output_padding
// at the end), with the kernel flipped and its in/out channels swapped within each group. Every
// step is an existing op (zeros, a strided copy, constant_pad_nd, conv2d), so the CPU path is
// conv2d's im2col + GEMM and the function captures into graphs like its parts.
#include "OpsCommon.h"

namespace gfy {
using namespace detail;

namespace {

std::vector<int64_t> expand_param(IntArrayRef v, size_t n, const char *name) {
  GFY_CHECK(v.size() == 1 || v.size() == n, "expected ", name, " to be a single integer value or a list of ", n,
            " values to match the convolution dimensions, but got ", name, "=", v);
  return v.size() == 1 ? std::vector<int64_t>(n, v[0]) : v.vec();
}

/// x (N, C, H, W) spread to (N, C, (H - 1) * sH + 1, (W - 1) * sW + 1) with zeros between its
/// values. While gradients are recorded it is built from concatenations and reshapes, which
/// record them (a strided copy into a zero tensor does not).
Tensor zero_insert(const Tensor &x, int64_t sH, int64_t sW) {
  const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
  if (!(GradMode::is_enabled() && x.requires_grad())) {
    Tensor up = zeros({N, C, (H - 1) * sH + 1, (W - 1) * sW + 1}, x.options());
    up.slice(2, 0, std::nullopt, sH).slice(3, 0, std::nullopt, sW).copy_(x);
    return up;
  }
  Tensor t = x.reshape({N, C, H, 1, W, 1});
  if (sH > 1) t = cat({t, zeros({N, C, H, sH - 1, W, 1}, x.options())}, 3);
  if (sW > 1) t = cat({t, zeros({N, C, H, sH, W, sW - 1}, x.options())}, 5);
  return t.reshape({N, C, H * sH, W * sW}).slice(2, 0, (H - 1) * sH + 1).slice(3, 0, (W - 1) * sW + 1);
}

/// conv_transpose over the last two dims of a batched 4-d input (the 1-d form runs with H = 1).
Tensor conv_transpose_4d(const Tensor &x, const Tensor &weight, const Tensor &bias, const std::vector<int64_t> &stride,
                         const std::vector<int64_t> &padding, const std::vector<int64_t> &output_padding, int64_t groups,
                         const std::vector<int64_t> &dilation) {
  const int64_t C = x.size(1);
  const int64_t kH = weight.size(2), kW = weight.size(3), Cout = weight.size(1) * groups;
  // Zero insertion: x_up (N, C, (H - 1) * sH + 1, (W - 1) * sW + 1), x at multiples of the stride.
  Tensor up = stride[0] > 1 || stride[1] > 1 ? zero_insert(x, stride[0], stride[1]) : x;
  const int64_t qH = dilation[0] * (kH - 1) - padding[0], qW = dilation[1] * (kW - 1) - padding[1];
  up = constant_pad_nd(up, {qW, qW + output_padding[1], qH, qH + output_padding[0]});
  // weight (C, Cout / g, kH, kW) -> (Cout, C / g, kH, kW), flipped in space.
  Tensor w = weight.view({groups, C / groups, Cout / groups, kH, kW})
                 .transpose(1, 2)
                 .reshape({Cout, C / groups, kH, kW})
                 .flip({2, 3});
  return conv2d(up, w, bias, IntArrayRef(1), IntArrayRef(0), IntArrayRef(dilation), groups);
}

Tensor conv_transpose_nd(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride_,
                         IntArrayRef padding_, IntArrayRef output_padding_, int64_t groups, IntArrayRef dilation_,
                         size_t D) {
  check_defined(input, "input");
  check_defined(weight, "weight");
  const int64_t batched = static_cast<int64_t>(D) + 2;
  GFY_CHECK(input.dim() == batched || input.dim() == batched - 1, "Expected ", batched - 1, "D (unbatched) or ", batched,
            "D (batched) input to conv_transpose", D, "d, but got input of size: ", input.sizes());
  GFY_CHECK(weight.dim() == batched, "Expected ", batched, "-dimensional weight for ", batched, "-dimensional input ",
            input.sizes(), ", but got ", weight.dim(), "-dimensional weight of size ", weight.sizes());
  GFY_CHECK(input.is_floating_point(), "\"",
            kernel_name("slow_conv_transpose" + std::to_string(D) + "d_out", input.device()),
            "\" not implemented for '", to_string(input.scalar_type()), "'");
  GFY_CHECK(input.scalar_type() == weight.scalar_type(), "expected scalar type ", to_string(input.scalar_type()),
            " but found ", to_string(weight.scalar_type()));
  GFY_CHECK(groups > 0, "non-positive groups is not supported");
  auto stride = expand_param(stride_, D, "stride"), padding = expand_param(padding_, D, "padding");
  auto output_padding = expand_param(output_padding_, D, "output_padding"), dilation = expand_param(dilation_, D, "dilation");
  for (size_t i = 0; i < D; ++i) {
    GFY_CHECK(stride[i] > 0, "non-positive stride is not supported");
    GFY_CHECK(dilation[i] > 0, "dilation should be greater than zero");
    GFY_CHECK(padding[i] >= 0, "negative padding is not supported");
    GFY_CHECK(output_padding[i] >= 0 && (output_padding[i] < stride[i] || output_padding[i] < dilation[i]),
              "output padding must be smaller than either stride or dilation, but got output_padding_height: ",
              output_padding[i], " output_padding_width: ", output_padding[D - 1], " stride_height: ", stride[i],
              " stride_width: ", stride[D - 1], " dilation_height: ", dilation[i], " dilation_width: ", dilation[D - 1]);
  }
  Tensor x = input.dim() == batched ? input : input.unsqueeze(0);
  GFY_CHECK(x.size(1) == weight.size(0), "Given transposed=1, weight of size ", weight.sizes(),
            ", expected input", x.sizes(), " to have ", weight.size(0), " channels, but got ", x.size(1),
            " channels instead");
  GFY_CHECK(weight.size(0) % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
            " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  GFY_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == weight.size(1) * groups), "Given transposed=1, weight of size ",
            weight.sizes(), ", expected bias to be 1-dimensional with ", weight.size(1) * groups,
            " elements, but got bias of size ", bias.sizes(), " instead");
  for (size_t i = 0; i < D; ++i) {
    const int64_t in = x.size(static_cast<int64_t>(2 + i)), k = weight.size(static_cast<int64_t>(2 + i));
    const int64_t out = (in - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k - 1) + output_padding[i] + 1;
    GFY_CHECK(out > 0, "Given input size per channel: (", in, "). Calculated output size per channel: (", out,
              "). Output size is too small");
  }
  Tensor y;
  if (D == 1) {
    y = conv_transpose_4d(x.unsqueeze(2), weight.unsqueeze(2), bias, {1, stride[0]}, {0, padding[0]},
                          {0, output_padding[0]}, groups, {1, dilation[0]})
            .squeeze(2);
  } else {
    y = conv_transpose_4d(x.contiguous(), weight, bias, stride, padding, output_padding, groups, dilation);
  }
  return input.dim() == batched ? y : y.squeeze(0);
}

} // namespace

Tensor conv_transpose1d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride,
                        IntArrayRef padding, IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 1);
}
Tensor conv_transpose2d(const Tensor &input, const Tensor &weight, const Tensor &bias, IntArrayRef stride,
                        IntArrayRef padding, IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 2);
}

} // namespace gfy
