// F::interpolate and Upsample, following LibTorch 1.13's functional/upsampling.h: the output
// size is `size`, or floor(input size * scale factor); the scale factors are passed on to the
// kernels (they decide the source positions) unless recompute_scale_factor is true. 1-d modes run
// the 2-d kernels with a height of one, which leaves the values unchanged (an identity row).
#include <graphify/nn/Pooling.h>
#include <graphify/nn/Upsampling.h>

#include <cmath>

namespace gfy::nn {
namespace functional {

namespace {

/// LibTorch's _interp_output_size.
std::vector<int64_t> output_size(const Tensor &input, int64_t dims, const InterpolateFuncOptions &o) {
  GFY_CHECK(o.size() || o.scale_factor(), "either size or scale_factor should be defined");
  GFY_CHECK(!(o.size() && o.scale_factor()), "only one of size or scale_factor should be defined");
  if (o.scale_factor())
    GFY_CHECK(int64_t(o.scale_factor()->size()) == dims, "scale_factor shape must match input shape. Input is ", dims,
              "D, scale_factor size is ", int64_t(o.scale_factor()->size()));
  if (o.size()) {
    GFY_CHECK(int64_t(o.size()->size()) == dims, "size shape must match input shape. Input is ", dims,
              "D, size is ", int64_t(o.size()->size()));
    return *o.size();
  }
  std::vector<int64_t> out;
  for (int64_t i = 0; i < dims; ++i)
    out.push_back(int64_t(std::floor(double(input.size(i + 2)) * (*o.scale_factor())[size_t(i)])));
  return out;
}

template <class Mode> bool is(const InterpolateFuncOptions &o) { return std::holds_alternative<Mode>(o.mode()); }

} // namespace

Tensor interpolate(const Tensor &input, const InterpolateFuncOptions &o) {
  GFY_CHECK(input.defined(), "interpolate: input is undefined");
  const bool linear = is<enumtype::kLinear>(o) || is<enumtype::kBilinear>(o) || is<enumtype::kBicubic>(o) ||
                      is<enumtype::kTrilinear>(o);
  GFY_CHECK(linear || !o.align_corners(),
            "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear");
  const bool align_corners = o.align_corners().value_or(false);
  GFY_CHECK(!o.antialias(), "interpolate: antialias is not supported by the gfy runtime");
  GFY_CHECK(input.dim() == 3 || input.dim() == 4, "Input Error: Only 3D and 4D input Tensors are supported by the gfy "
                                                  "runtime's interpolate (got ",
            input.dim(), "D)");
  const int64_t dims = input.dim() - 2;
  const std::vector<int64_t> size = output_size(input, dims, o);
  // The scale factors reach the kernels unless the caller asked to recompute them from the size.
  std::optional<double> scale_h, scale_w;
  if (o.scale_factor() && !o.recompute_scale_factor().value_or(false)) {
    scale_w = o.scale_factor()->back();
    if (dims == 2) scale_h = o.scale_factor()->front();
  }
  if (is<enumtype::kArea>(o))
    return dims == 1 ? gfy::adaptive_avg_pool1d(input, size) : gfy::adaptive_avg_pool2d(input, size);
  // 3-d (N, C, L) inputs as (N, C, 1, L) with an output height of one.
  const Tensor x = dims == 1 ? input.unsqueeze(2) : input;
  const std::vector<int64_t> size2 = dims == 1 ? std::vector<int64_t>{1, size[0]} : size;
  Tensor out;
  if (is<enumtype::kNearest>(o)) {
    out = gfy::upsample_nearest2d(x, size2, scale_h, scale_w);
  } else if ((dims == 1 && is<enumtype::kLinear>(o)) || (dims == 2 && is<enumtype::kBilinear>(o))) {
    out = gfy::upsample_bilinear2d(x, size2, align_corners, scale_h, scale_w);
  } else if (is<enumtype::kBilinear>(o)) {
    throw Error("Got 3D input, but bilinear mode needs 4D input");
  } else if (is<enumtype::kLinear>(o)) {
    throw Error("Got 4D input, but linear mode needs 3D input");
  } else {
    throw Error("interpolate: this mode (bicubic, trilinear, nearest-exact) is not supported by the gfy runtime");
  }
  return dims == 1 ? out.squeeze(2) : out;
}

} // namespace functional

Tensor UpsampleImpl::forward(const Tensor &input) {
  functional::InterpolateFuncOptions o;
  o.size(options.size()).scale_factor(options.scale_factor()).align_corners(options.align_corners());
  std::visit([&](auto mode) { o.mode(mode); }, options.mode());
  return functional::interpolate(input, o);
}

} // namespace gfy::nn
