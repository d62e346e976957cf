#pragma once
/// \file
/// Pooling modules and functions of LibTorch 1.13, in 1-d and 2-d: `MaxPool*d` (kernel, stride
/// defaulting to the kernel, padding, dilation, ceil_mode), `AvgPool*d` (… count_include_pad,
/// divisor_override), `AdaptiveAvgPool*d` and `AdaptiveMaxPool*d` (an output size; in 2-d an
/// entry may be nullopt for "the input's size"), their `*Options`, and the `F::` forms taking
/// the same options (`MaxPool2dFuncOptions` = `MaxPool2dOptions`, ...). The max poolings also
/// have `*_with_indices` forms (`forward_with_indices` on the modules).
///
/// \code
///   gfy::nn::MaxPool2d pool(gfy::nn::MaxPool2dOptions(3).stride(2).padding(1));
///   gfy::nn::AdaptiveAvgPool2d gap(gfy::nn::AdaptiveAvgPool2dOptions({1, 1}));
///   namespace F = gfy::nn::functional;
///   auto y = F::avg_pool2d(x, F::AvgPool2dFuncOptions(2).count_include_pad(false));
/// \endcode

#include <graphify/nn/ExpandingArray.h>
#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <optional>
#include <tuple>

namespace gfy::nn {

template <size_t D> struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}
  GFY_ARG(ExpandingArray<D>, kernel_size);
  GFY_ARG(ExpandingArray<D>, stride);
  GFY_ARG(ExpandingArray<D>, padding) = 0;
  GFY_ARG(ExpandingArray<D>, dilation) = 1;
  GFY_ARG(bool, ceil_mode) = false;
};
using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;

template <size_t D> struct AvgPoolOptions {
  AvgPoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}
  GFY_ARG(ExpandingArray<D>, kernel_size);
  GFY_ARG(ExpandingArray<D>, stride);
  GFY_ARG(ExpandingArray<D>, padding) = 0;
  GFY_ARG(bool, ceil_mode) = false;
  GFY_ARG(bool, count_include_pad) = true;
  /// Ignored in 1-d, as by LibTorch's avg_pool1d.
  GFY_ARG(std::optional<int64_t>, divisor_override) = std::nullopt;
};
using AvgPool1dOptions = AvgPoolOptions<1>;
using AvgPool2dOptions = AvgPoolOptions<2>;

template <class output_size_t> struct AdaptiveMaxPoolOptions {
  AdaptiveMaxPoolOptions(output_size_t output_size) : output_size_(output_size) {}
  GFY_ARG(output_size_t, output_size);
};
using AdaptiveMaxPool1dOptions = AdaptiveMaxPoolOptions<ExpandingArray<1>>;
using AdaptiveMaxPool2dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptional<2>>;

template <class output_size_t> struct AdaptiveAvgPoolOptions {
  AdaptiveAvgPoolOptions(output_size_t output_size) : output_size_(output_size) {}
  GFY_ARG(output_size_t, output_size);
};
using AdaptiveAvgPool1dOptions = AdaptiveAvgPoolOptions<ExpandingArray<1>>;
using AdaptiveAvgPool2dOptions = AdaptiveAvgPoolOptions<ExpandingArrayWithOptional<2>>;

namespace functional {

using MaxPool1dFuncOptions = MaxPool1dOptions;
using MaxPool2dFuncOptions = MaxPool2dOptions;
using AvgPool1dFuncOptions = AvgPool1dOptions;
using AvgPool2dFuncOptions = AvgPool2dOptions;
using AdaptiveMaxPool1dFuncOptions = AdaptiveMaxPool1dOptions;
using AdaptiveMaxPool2dFuncOptions = AdaptiveMaxPool2dOptions;
using AdaptiveAvgPool1dFuncOptions = AdaptiveAvgPool1dOptions;
using AdaptiveAvgPool2dFuncOptions = AdaptiveAvgPool2dOptions;

Tensor max_pool1d(const Tensor &input, const MaxPool1dFuncOptions &options);
Tensor max_pool2d(const Tensor &input, const MaxPool2dFuncOptions &options);
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor &input, const MaxPool2dFuncOptions &options);
Tensor avg_pool1d(const Tensor &input, const AvgPool1dFuncOptions &options);
Tensor avg_pool2d(const Tensor &input, const AvgPool2dFuncOptions &options);
Tensor adaptive_max_pool1d(const Tensor &input, const AdaptiveMaxPool1dFuncOptions &options);
Tensor adaptive_max_pool2d(const Tensor &input, const AdaptiveMaxPool2dFuncOptions &options);
std::tuple<Tensor, Tensor> adaptive_max_pool1d_with_indices(const Tensor &input,
                                                            const AdaptiveMaxPool1dFuncOptions &options);
std::tuple<Tensor, Tensor> adaptive_max_pool2d_with_indices(const Tensor &input,
                                                            const AdaptiveMaxPool2dFuncOptions &options);
Tensor adaptive_avg_pool1d(const Tensor &input, const AdaptiveAvgPool1dFuncOptions &options);
Tensor adaptive_avg_pool2d(const Tensor &input, const AdaptiveAvgPool2dFuncOptions &options);

} // namespace functional

/// Declares `Name##Impl`, a parameter-free module holding `Options` whose forward is `F::fn`,
/// constructible from the options or from their one required argument (`Arg`).
#define GFY_POOL_MODULE(Name, Options, Arg, fn)                                                    \
  class Name##Impl : public Module {                                                               \
  public:                                                                                          \
    explicit Name##Impl(Arg arg) : Name##Impl(Options(arg)) {}                                     \
    explicit Name##Impl(const Options &options) : Module(#Name), options(options) {}               \
    Tensor forward(const Tensor &input) { return functional::fn(input, options); }                 \
    Options options;                                                                               \
  };                                                                                               \
  GFY_MODULE(Name)

GFY_POOL_MODULE(AvgPool1d, AvgPool1dOptions, ExpandingArray<1>, avg_pool1d);
GFY_POOL_MODULE(AvgPool2d, AvgPool2dOptions, ExpandingArray<2>, avg_pool2d);
GFY_POOL_MODULE(AdaptiveAvgPool1d, AdaptiveAvgPool1dOptions, ExpandingArray<1>, adaptive_avg_pool1d);
GFY_POOL_MODULE(AdaptiveAvgPool2d, AdaptiveAvgPool2dOptions, ExpandingArrayWithOptional<2>, adaptive_avg_pool2d);
GFY_POOL_MODULE(MaxPool1d, MaxPool1dOptions, ExpandingArray<1>, max_pool1d);
GFY_POOL_MODULE(AdaptiveMaxPool1d, AdaptiveMaxPool1dOptions, ExpandingArray<1>, adaptive_max_pool1d);

#undef GFY_POOL_MODULE

/// The 2-d max poolings also give the positions of the maxima (ih * W + iw, long).
class MaxPool2dImpl : public Module {
public:
  explicit MaxPool2dImpl(ExpandingArray<2> kernel_size) : MaxPool2dImpl(MaxPool2dOptions(kernel_size)) {}
  explicit MaxPool2dImpl(const MaxPool2dOptions &options) : Module("MaxPool2d"), options(options) {}
  Tensor forward(const Tensor &input) { return functional::max_pool2d(input, options); }
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor &input) {
    return functional::max_pool2d_with_indices(input, options);
  }
  MaxPool2dOptions options;
};
GFY_MODULE(MaxPool2d);

class AdaptiveMaxPool2dImpl : public Module {
public:
  explicit AdaptiveMaxPool2dImpl(ExpandingArrayWithOptional<2> output_size)
      : AdaptiveMaxPool2dImpl(AdaptiveMaxPool2dOptions(output_size)) {}
  explicit AdaptiveMaxPool2dImpl(const AdaptiveMaxPool2dOptions &options)
      : Module("AdaptiveMaxPool2d"), options(options) {}
  Tensor forward(const Tensor &input) { return functional::adaptive_max_pool2d(input, options); }
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor &input) {
    return functional::adaptive_max_pool2d_with_indices(input, options);
  }
  AdaptiveMaxPool2dOptions options;
};
GFY_MODULE(AdaptiveMaxPool2d);

} // namespace gfy::nn
