// F:: pooling over the gfy:: pooling functions: each reads its *FuncOptions and forwards. An
// adaptive 2-d output size entry that is nullopt takes the input's size in that dim, as
// LibTorch's _list_with_default.
#include <graphify/nn/Pooling.h>

namespace gfy::nn::functional {

namespace {
std::vector<int64_t> with_input_sizes(const ExpandingArrayWithOptional<2> &size, const Tensor &input) {
  GFY_CHECK(input.defined(), "adaptive pooling: input is undefined");
  GFY_CHECK(input.dim() > 2, "Input dimension should be at least 3");
  std::vector<int64_t> out;
  for (size_t i = 0; i < 2; ++i) out.push_back((*size)[i].value_or(input.size(input.dim() - 2 + int64_t(i))));
  return out;
}
} // namespace

Tensor max_pool1d(const Tensor &input, const MaxPool1dFuncOptions &o) {
  return gfy::max_pool1d(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(), o.ceil_mode());
}
Tensor max_pool2d(const Tensor &input, const MaxPool2dFuncOptions &o) {
  return gfy::max_pool2d(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(), o.ceil_mode());
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor &input, const MaxPool2dFuncOptions &o) {
  return gfy::max_pool2d_with_indices(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(), o.ceil_mode());
}
Tensor avg_pool1d(const Tensor &input, const AvgPool1dFuncOptions &o) {
  return gfy::avg_pool1d(input, o.kernel_size(), o.stride(), o.padding(), o.ceil_mode(), o.count_include_pad());
}
Tensor avg_pool2d(const Tensor &input, const AvgPool2dFuncOptions &o) {
  return gfy::avg_pool2d(input, o.kernel_size(), o.stride(), o.padding(), o.ceil_mode(), o.count_include_pad(),
                         o.divisor_override());
}
Tensor adaptive_max_pool1d(const Tensor &input, const AdaptiveMaxPool1dFuncOptions &o) {
  return std::get<0>(gfy::adaptive_max_pool1d(input, o.output_size()));
}
Tensor adaptive_max_pool2d(const Tensor &input, const AdaptiveMaxPool2dFuncOptions &o) {
  return std::get<0>(adaptive_max_pool2d_with_indices(input, o));
}
std::tuple<Tensor, Tensor> adaptive_max_pool1d_with_indices(const Tensor &input, const AdaptiveMaxPool1dFuncOptions &o) {
  return gfy::adaptive_max_pool1d(input, o.output_size());
}
std::tuple<Tensor, Tensor> adaptive_max_pool2d_with_indices(const Tensor &input, const AdaptiveMaxPool2dFuncOptions &o) {
  return gfy::adaptive_max_pool2d(input, with_input_sizes(o.output_size(), input));
}
Tensor adaptive_avg_pool1d(const Tensor &input, const AdaptiveAvgPool1dFuncOptions &o) {
  return gfy::adaptive_avg_pool1d(input, o.output_size());
}
Tensor adaptive_avg_pool2d(const Tensor &input, const AdaptiveAvgPool2dFuncOptions &o) {
  return gfy::adaptive_avg_pool2d(input, with_input_sizes(o.output_size(), input));
}

} // namespace gfy::nn::functional
