// Front-ends of 2-d upsampling (nearest, bilinear) of a 4-d (N, C, H, W) input to a given size.
// The scale factors, when the caller had them, travel with the call: LibTorch maps output
// positions through 1 / scale rather than in / out, and the two differ when the size was rounded
// (F::interpolate with scale_factor 1.5 on 5 pixels). Checks follow LibTorch 1.13's
// upsample_2d_common_check.
#include "OpsCommon.h"

namespace gfy {
using namespace detail;

namespace {

Tensor upsample2d(OpId op, const Tensor &input, IntArrayRef output_size, std::optional<double> scales_h,
                  std::optional<double> scales_w, bool align_corners) {
  check_defined(input, "self");
  GFY_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ", output_size.size());
  GFY_CHECK(input.dim() == 4, "It is expected input_size equals to 4, but got size ", input.dim());
  const int64_t H = input.size(2), W = input.size(3), oH = output_size[0], oW = output_size[1];
  GFY_CHECK(H > 0 && W > 0 && oH > 0 && oW > 0, "Input and output sizes should be greater than 0, but got input (H: ", H,
            ", W: ", W, ") output (H: ", oH, ", W: ", oW, ")");
  GFY_CHECK(input.numel() != 0 || input.size(1) != 0,
            "Non-empty 4D data tensor expected but got a tensor with sizes ", input.sizes());
  const ScalarType t = input.scalar_type();
  Tensor x = input.contiguous();
  Tensor out = make_tensor({x.size(0), x.size(1), oH, oW}, t, x.device()); // out: (N, C, oH, oW)
  OpCall c;
  c.op = op;
  c.in = {x};
  c.out = {out};
  c.alpha = scales_h.value_or(0);
  c.beta = scales_w.value_or(0);
  c.flag = align_corners;
  run(std::move(c), t);
  return out;
}

} // namespace

Tensor upsample_nearest2d(const Tensor &input, IntArrayRef output_size, std::optional<double> scales_h,
                          std::optional<double> scales_w) {
  return upsample2d(OpId::upsample_nearest2d, input, output_size, scales_h, scales_w, false);
}

Tensor upsample_bilinear2d(const Tensor &input, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample2d(OpId::upsample_bilinear2d, input, output_size, scales_h, scales_w, align_corners);
}

} // namespace gfy
