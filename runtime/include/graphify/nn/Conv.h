#pragma once
/// \file
/// Convolution modules and functions of LibTorch 1.13: `Conv1d`, `Conv2d` with
/// `Conv1dOptions`/`Conv2dOptions` (`ConvOptions<D>`: in/out channels, kernel size, stride,
/// padding as sizes or `kValid`/`kSame`, dilation, groups, bias), their parameters `weight`
/// (out, in / groups, k...) and `bias` (out), initialised as LibTorch does (kaiming_uniform with
/// a = sqrt(5), so U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for both), and `F::conv1d`/`F::conv2d`
/// with `Conv1dFuncOptions`/`Conv2dFuncOptions`. Only `padding_mode(kZeros)` is supported.
///
/// \code
///   gfy::nn::Conv2d conv(gfy::nn::Conv2dOptions(3, 16, 3).stride(2).padding(1).bias(false));
///   auto y = conv(x);                                   // x (N, 3, H, W) -> (N, 16, H/2, W/2)
///   namespace F = gfy::nn::functional;
///   auto z = F::conv2d(x, w, F::Conv2dFuncOptions().padding(gfy::kSame));
/// \endcode

#include <graphify/nn/ExpandingArray.h>
#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <variant>

namespace gfy {

/// The padding tags of LibTorch's `torch::enumtype` used by convolutions.
namespace enumtype {
struct kZeros {};
struct kReflect {};
struct kReplicate {};
struct kCircular {};
struct kValid {};
struct kSame {};
} // namespace enumtype
inline constexpr enumtype::kZeros kZeros{};
inline constexpr enumtype::kReflect kReflect{};
inline constexpr enumtype::kReplicate kReplicate{};
inline constexpr enumtype::kCircular kCircular{};
inline constexpr enumtype::kValid kValid{};
inline constexpr enumtype::kSame kSame{};

namespace nn {

namespace detail {
using conv_padding_mode_t = std::variant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;
/// Explicit sizes, or "valid" (none) / "same" (keep the size; stride 1 only).
template <size_t D> using conv_padding_t = std::variant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;
} // namespace detail

template <size_t D> struct ConvOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  using padding_t = detail::conv_padding_t<D>;
  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  GFY_ARG(int64_t, in_channels);
  GFY_ARG(int64_t, out_channels);
  GFY_ARG(ExpandingArray<D>, kernel_size);
  GFY_ARG(ExpandingArray<D>, stride) = 1;
  GFY_ARG(padding_t, padding) = ExpandingArray<D>(0);
  GFY_ARG(ExpandingArray<D>, dilation) = 1;
  GFY_ARG(int64_t, groups) = 1;
  GFY_ARG(bool, bias) = true;
  /// Only kZeros is supported; the others throw when the module is built.
  GFY_ARG(padding_mode_t, padding_mode) = kZeros;

public:
  /// `padding({1, 2})`: a braced list does not pick a variant alternative by itself (as LibTorch).
  ConvOptions &padding(std::initializer_list<int64_t> il) { return padding(padding_t(ExpandingArray<D>(il))); }
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;

/// The shared body of Conv1d and Conv2d: options, parameters, LibTorch's checks and init.
template <size_t D> class ConvNdImpl : public Module {
public:
  explicit ConvNdImpl(ConvOptions<D> options, const char *name);
  /// Checks the options, registers weight and bias and initialises them (run by the constructor).
  void reset();
  /// kaiming_uniform(a = sqrt(5)) on the weight, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) on the bias.
  void reset_parameters();
  ConvOptions<D> options;
  Tensor weight, bias;
};

/// input (N, C_in, L) or (C_in, L) -> (N, C_out, L_out).
class Conv1dImpl : public ConvNdImpl<1> {
public:
  Conv1dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<1> kernel_size)
      : Conv1dImpl(Conv1dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv1dImpl(Conv1dOptions options) : ConvNdImpl<1>(std::move(options), "Conv1d") {}
  Tensor forward(const Tensor &input);
};
GFY_MODULE(Conv1d);

/// input (N, C_in, H, W) or (C_in, H, W) -> (N, C_out, H_out, W_out).
class Conv2dImpl : public ConvNdImpl<2> {
public:
  Conv2dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<2> kernel_size)
      : Conv2dImpl(Conv2dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv2dImpl(Conv2dOptions options) : ConvNdImpl<2>(std::move(options), "Conv2d") {}
  Tensor forward(const Tensor &input);
};
GFY_MODULE(Conv2d);

namespace functional {
template <size_t D> struct ConvFuncOptions {
  using padding_t = detail::conv_padding_t<D>;
  GFY_ARG(Tensor, bias) = {};
  GFY_ARG(ExpandingArray<D>, stride) = 1;
  GFY_ARG(padding_t, padding) = ExpandingArray<D>(0);
  GFY_ARG(ExpandingArray<D>, dilation) = 1;
  GFY_ARG(int64_t, groups) = 1;

public:
  ConvFuncOptions &padding(std::initializer_list<int64_t> il) { return padding(padding_t(ExpandingArray<D>(il))); }
};
using Conv1dFuncOptions = ConvFuncOptions<1>;
using Conv2dFuncOptions = ConvFuncOptions<2>;

Tensor conv1d(const Tensor &input, const Tensor &weight, const Conv1dFuncOptions &options = {});
Tensor conv2d(const Tensor &input, const Tensor &weight, const Conv2dFuncOptions &options = {});
} // namespace functional

} // namespace nn
} // namespace gfy
