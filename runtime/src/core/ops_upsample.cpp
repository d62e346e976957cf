// Front-ends of 2-d upsampling (nearest, bilinear) of a 4-d (N, C, H, W) input to a given size,
// and of 1-d nearest upsampling of a 3-d (N, C, W) input through the same kernel.
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

// The 1-d form runs the 2-d kernel with H = 1 (rows map to themselves), after LibTorch 1.13's
// upsample_1d_common_check.
Tensor upsample_nearest1d(const Tensor &input, IntArrayRef output_size, std::optional<double> scales) {
  check_defined(input, "self");
  GFY_CHECK(output_size.size() == 1, "It is expected output_size equals to 1, but got size ", output_size.size());
  GFY_CHECK(input.dim() == 3, "It is expected input_size equals to 3, but got size ", input.dim());
  const int64_t W = input.size(2), oW = output_size[0];
  GFY_CHECK(W > 0 && oW > 0, "Input and output sizes should be greater than 0, but got input (W: ", W,
            ") and output (W: ", oW, ")");
  GFY_CHECK(input.numel() != 0 || input.size(1) != 0,
            "Non-empty 3D data tensor expected but got a tensor with sizes ", input.sizes());
  // LibTorch's 1-d kernel names its index helper for an integer input.
  GFY_CHECK(input.is_floating_point(), "\"compute_indices_weights_nearest\" not implemented for '",
            to_string(input.scalar_type()), "'");
  return upsample2d(OpId::upsample_nearest2d, input.unsqueeze(2), {1, oW}, std::nullopt, scales, false).squeeze(2);
}

Tensor upsample_bilinear2d(const Tensor &input, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample2d(OpId::upsample_bilinear2d, input, output_size, scales_h, scales_w, align_corners);
}

} // namespace gfy
