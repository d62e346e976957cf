// ConvTranspose1d / ConvTranspose2d and F::conv_transpose*: option plumbing over
// gfy::conv_transpose1d / conv_transpose2d. The checks, the parameter shapes and the
// initialisation follow LibTorch 1.13's ConvNdImpl for transposed convolutions, and
// forward(input, output_size) derives the output padding as its _output_padding does.
#include <graphify/nn/ConvTranspose.h>
#include <graphify/nn/Init.h>

#include <cmath>

namespace gfy::nn {

template <size_t D>
ConvTransposeNdImpl<D>::ConvTransposeNdImpl(ConvTransposeOptions<D> o, const char *name)
    : Module(name), options(std::move(o)) {
  reset();
}

template <size_t D> void ConvTransposeNdImpl<D>::reset() {
  const ConvTransposeOptions<D> &o = options;
  GFY_CHECK(o.in_channels() > 0 && o.groups() > 0 && o.out_channels() > 0,
            "in_channels, groups and out_channels must be a positive integer.");
  GFY_CHECK(o.in_channels() % o.groups() == 0, "in_channels must be divisible by groups");
  GFY_CHECK(o.out_channels() % o.groups() == 0, "out_channels must be divisible by groups");
  GFY_CHECK(std::holds_alternative<enumtype::kZeros>(o.padding_mode()),
            "ConvTranspose",  D, "d: Only `zeros` padding mode is supported for ConvTranspose", D, "d");
  std::vector<int64_t> shape = {o.in_channels(), o.out_channels() / o.groups()};
  for (int64_t k : *o.kernel_size()) shape.push_back(k);
  weight = register_parameter("weight", gfy::empty(shape));
  if (o.bias()) bias = register_parameter("bias", gfy::empty({o.out_channels()}));
  reset_parameters();
}

template <size_t D> void ConvTransposeNdImpl<D>::reset_parameters() {
  init::kaiming_uniform_(weight, /*a=*/std::sqrt(5.0));
  if (bias.defined()) {
    const auto [fan_in, fan_out] = init::_calculate_fan_in_and_fan_out(weight);
    const double bound = 1.0 / std::sqrt(double(fan_in));
    init::uniform_(bias, -bound, bound);
  }
}

template <size_t D>
Tensor ConvTransposeNdImpl<D>::forward(const Tensor &input, const std::optional<std::vector<int64_t>> &output_size) {
  const ConvTransposeOptions<D> &o = options;
  std::vector<int64_t> output_padding(o.output_padding()->begin(), o.output_padding()->end());
  if (output_size) {
    // The output padding that turns the smallest output size into the requested one.
    std::vector<int64_t> size = *output_size;
    const int64_t k = input.dim() - static_cast<int64_t>(D);
    if (static_cast<int64_t>(size.size()) == k + static_cast<int64_t>(D)) size.erase(size.begin(), size.begin() + k);
    GFY_CHECK(size.size() == D, "ConvTranspose", D, "d: output_size must have ", D, " or ", D + size_t(k),
              " elements (got ", output_size->size(), ")");
    for (size_t d = 0; d < D; ++d) {
      const int64_t in = input.size(k + static_cast<int64_t>(d));
      const int64_t min_size = (in - 1) * (*o.stride())[d] - 2 * (*o.padding())[d] +
                               (*o.dilation())[d] * ((*o.kernel_size())[d] - 1) + 1;
      const int64_t max_size = min_size + (*o.stride())[d] - 1;
      GFY_CHECK(size[d] >= min_size && size[d] <= max_size, "requested an output size of ", size[d],
                ", but valid sizes range from ", min_size, " to ", max_size, " (for an input of ", in, ")");
      output_padding[d] = size[d] - min_size;
    }
  }
  if constexpr (D == 1)
    return gfy::conv_transpose1d(input, weight, bias, o.stride(), o.padding(), output_padding, o.groups(), o.dilation());
  else
    return gfy::conv_transpose2d(input, weight, bias, o.stride(), o.padding(), output_padding, o.groups(), o.dilation());
}

template class ConvTransposeNdImpl<1>;
template class ConvTransposeNdImpl<2>;

namespace functional {
Tensor conv_transpose1d(const Tensor &input, const Tensor &weight, const ConvTranspose1dFuncOptions &o) {
  return gfy::conv_transpose1d(input, weight, o.bias(), o.stride(), o.padding(), o.output_padding(), o.groups(),
                               o.dilation());
}
Tensor conv_transpose2d(const Tensor &input, const Tensor &weight, const ConvTranspose2dFuncOptions &o) {
  return gfy::conv_transpose2d(input, weight, o.bias(), o.stride(), o.padding(), o.output_padding(), o.groups(),
                               o.dilation());
}
} // namespace functional

} // namespace gfy::nn
