#pragma once
// The two CPU implementations of ops.def's conv2d: the readable reference (a direct loop over each
// output element's window) and the fast path that conv2d_kernel runs (im2col + one GEMM per image
// and group). Both are declared here so that tests/runtime/test_conv_fast_path.cpp can check
// the fast path against the reference on strides, paddings, dilations and groups.
#include <graphify/core/Backend.h>

namespace gfy::cpu {

/// The sizes of one conv2d call, read from its OpCall (see ops.def).
struct ConvGeometry {
  int64_t N, C, H, W;    ///< input (N, C, H, W)
  int64_t O, kH, kW;     ///< weight (O, C / groups, kH, kW)
  int64_t oH, oW;        ///< output (N, O, oH, oW)
  int64_t sH, sW, pH, pW, dH, dW, groups;
};
ConvGeometry conv_geometry(const OpCall &call);

/// out[n, o, i, j] = bias[o] + sum over the window of group(o) of x * w, as plain loops.
void conv2d_reference(const OpCall &call);
/// The same through im2col and OpenBLAS (s/dgemm), floating dtypes only; a 1x1 stride-1
/// unpadded convolution skips im2col (the image already is the column matrix).
void conv2d_im2col(const OpCall &call);

} // namespace gfy::cpu
