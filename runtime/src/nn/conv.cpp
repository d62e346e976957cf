// Conv1d / Conv2d and F::conv1d / F::conv2d: option plumbing over gfy::conv1d / gfy::conv2d.
// The module checks and the parameter initialisation are LibTorch 1.13's ConvNdImpl::reset and
// reset_parameters (torch/nn/modules/conv.h), so a model's parameter names, shapes and init
// ranges carry over unchanged.
#include <graphify/nn/Conv.h>
#include <graphify/nn/Init.h>

#include <cmath>

namespace gfy::nn {

namespace {

/// A padding option as the conv functions take it: sizes, "valid" or "same".
template <size_t D, class Fn> Tensor with_padding(const detail::conv_padding_t<D> &padding, Fn &&conv) {
  if (std::holds_alternative<enumtype::kValid>(padding)) return conv(std::string_view("valid"));
  if (std::holds_alternative<enumtype::kSame>(padding)) return conv(std::string_view("same"));
  return conv(IntArrayRef(std::get<ExpandingArray<D>>(padding)));
}

template <size_t D>
Tensor conv_nd(const Tensor &input, const Tensor &weight, const Tensor &bias, const ExpandingArray<D> &stride,
               const detail::conv_padding_t<D> &padding, const ExpandingArray<D> &dilation, int64_t groups) {
  return with_padding<D>(padding, [&](auto pad) {
    if constexpr (D == 1) return gfy::conv1d(input, weight, bias, stride, pad, dilation, groups);
    else return gfy::conv2d(input, weight, bias, stride, pad, dilation, groups);
  });
}

} // namespace

template <size_t D>
ConvNdImpl<D>::ConvNdImpl(ConvOptions<D> o, const char *name) : Module(name), options(std::move(o)) {
  reset();
}

template <size_t D> void ConvNdImpl<D>::reset() {
  const ConvOptions<D> &o = options;
  GFY_CHECK(o.in_channels() > 0 && o.groups() > 0 && o.out_channels() > 0,
            "in_channels, groups and out_channels must be a positive integer.");
  GFY_CHECK(o.in_channels() % o.groups() == 0, "in_channels must be divisible by groups");
  GFY_CHECK(o.out_channels() % o.groups() == 0, "out_channels must be divisible by groups");
  GFY_CHECK(std::holds_alternative<enumtype::kZeros>(o.padding_mode()),
            "Conv: padding_mode other than kZeros is not supported by the gfy runtime");
  if (std::holds_alternative<enumtype::kSame>(o.padding()))
    for (int64_t s : *o.stride()) GFY_CHECK(s == 1, "padding='same' is not supported for strided convolutions");
  std::vector<int64_t> shape = {o.out_channels(), o.in_channels() / o.groups()};
  for (int64_t k : *o.kernel_size()) shape.push_back(k);
  weight = register_parameter("weight", gfy::empty(shape));
  if (o.bias()) bias = register_parameter("bias", gfy::empty({o.out_channels()}));
  reset_parameters();
}

template <size_t D> void ConvNdImpl<D>::reset_parameters() {
  init::kaiming_uniform_(weight, /*a=*/std::sqrt(5.0));
  if (bias.defined()) {
    const auto [fan_in, fan_out] = init::_calculate_fan_in_and_fan_out(weight);
    const double bound = 1.0 / std::sqrt(double(fan_in));
    init::uniform_(bias, -bound, bound);
  }
}

template class ConvNdImpl<1>;
template class ConvNdImpl<2>;

Tensor Conv1dImpl::forward(const Tensor &input) {
  return conv_nd<1>(input, weight, bias, options.stride(), options.padding(), options.dilation(), options.groups());
}
Tensor Conv2dImpl::forward(const Tensor &input) {
  return conv_nd<2>(input, weight, bias, options.stride(), options.padding(), options.dilation(), options.groups());
}

namespace functional {
Tensor conv1d(const Tensor &input, const Tensor &weight, const Conv1dFuncOptions &o) {
  return conv_nd<1>(input, weight, o.bias(), o.stride(), o.padding(), o.dilation(), o.groups());
}
Tensor conv2d(const Tensor &input, const Tensor &weight, const Conv2dFuncOptions &o) {
  return conv_nd<2>(input, weight, o.bias(), o.stride(), o.padding(), o.dilation(), o.groups());
}
} // namespace functional

} // namespace gfy::nn
