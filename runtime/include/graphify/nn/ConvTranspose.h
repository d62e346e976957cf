#pragma once
/// \file
/// Transposed convolution modules and functions of LibTorch 1.13: `ConvTranspose1d`,
/// `ConvTranspose2d` with `ConvTranspose1dOptions`/`ConvTranspose2dOptions` (in/out channels,
/// kernel size, stride, padding, output_padding, groups, bias, dilation), parameters `weight`
/// (in, out / groups, k...) and `bias` (out) initialised as LibTorch does, `forward(input,
/// output_size)`, and `F::conv_transpose1d`/`F::conv_transpose2d`. Only `padding_mode(kZeros)`.
///
/// \code
///   gfy::nn::ConvTranspose2d up(gfy::nn::ConvTranspose2dOptions(64, 32, 2).stride(2));
///   auto y = up(x);                                     // x (N, 64, H, W) -> (N, 32, 2H, 2W)
/// \endcode

#include <graphify/nn/Conv.h>

namespace gfy::nn {

template <size_t D> struct ConvTransposeOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  ConvTransposeOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  GFY_ARG(int64_t, in_channels);
  GFY_ARG(int64_t, out_channels);
  GFY_ARG(ExpandingArray<D>, kernel_size);
  GFY_ARG(ExpandingArray<D>, stride) = 1;
  GFY_ARG(ExpandingArray<D>, padding) = 0;
  GFY_ARG(ExpandingArray<D>, output_padding) = 0;
  GFY_ARG(int64_t, groups) = 1;
  GFY_ARG(bool, bias) = true;
  GFY_ARG(ExpandingArray<D>, dilation) = 1;
  /// Only kZeros is supported; the others throw when the module is built.
  GFY_ARG(padding_mode_t, padding_mode) = kZeros;
};
using ConvTranspose1dOptions = ConvTransposeOptions<1>;
using ConvTranspose2dOptions = ConvTransposeOptions<2>;

/// The shared body of ConvTranspose1d and ConvTranspose2d.
template <size_t D> class ConvTransposeNdImpl : public Module {
public:
  explicit ConvTransposeNdImpl(ConvTransposeOptions<D> options, const char *name);
  void reset();
  /// kaiming_uniform(a = sqrt(5)) on the weight, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) on the bias,
  /// fan_in = out / groups * prod(kernel) (the weight's dim 1, as LibTorch computes it).
  void reset_parameters();
  /// input (N, C_in, ...) or unbatched; `output_size` picks the output padding that reaches it.
  Tensor forward(const Tensor &input, const std::optional<std::vector<int64_t>> &output_size = std::nullopt);
  ConvTransposeOptions<D> options;
  Tensor weight, bias;
};

class ConvTranspose1dImpl : public ConvTransposeNdImpl<1> {
public:
  ConvTranspose1dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<1> kernel_size)
      : ConvTranspose1dImpl(ConvTranspose1dOptions(input_channels, output_channels, kernel_size)) {}
  explicit ConvTranspose1dImpl(ConvTranspose1dOptions options)
      : ConvTransposeNdImpl<1>(std::move(options), "ConvTranspose1d") {}
};
GFY_MODULE(ConvTranspose1d);

class ConvTranspose2dImpl : public ConvTransposeNdImpl<2> {
public:
  ConvTranspose2dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<2> kernel_size)
      : ConvTranspose2dImpl(ConvTranspose2dOptions(input_channels, output_channels, kernel_size)) {}
  explicit ConvTranspose2dImpl(ConvTranspose2dOptions options)
      : ConvTransposeNdImpl<2>(std::move(options), "ConvTranspose2d") {}
};
GFY_MODULE(ConvTranspose2d);

namespace functional {
template <size_t D> struct ConvTransposeFuncOptions {
  GFY_ARG(Tensor, bias) = {};
  GFY_ARG(ExpandingArray<D>, stride) = 1;
  GFY_ARG(ExpandingArray<D>, padding) = 0;
  GFY_ARG(ExpandingArray<D>, output_padding) = 0;
  GFY_ARG(int64_t, groups) = 1;
  GFY_ARG(ExpandingArray<D>, dilation) = 1;
};
using ConvTranspose1dFuncOptions = ConvTransposeFuncOptions<1>;
using ConvTranspose2dFuncOptions = ConvTransposeFuncOptions<2>;

Tensor conv_transpose1d(const Tensor &input, const Tensor &weight, const ConvTranspose1dFuncOptions &options = {});
Tensor conv_transpose2d(const Tensor &input, const Tensor &weight, const ConvTranspose2dFuncOptions &options = {});
} // namespace functional

} // namespace gfy::nn
