#pragma once
// The CPU implementations of ops.def's conv2d: the readable reference (a direct loop over each
// output element's window) and the two fast paths that conv2d_kernel chooses between (tiles of
// output positions with a register-blocked product, ConvTiled.cpp; im2col + one GEMM per image
// and group). All are declared here so that tests/runtime/test_conv_fast_path.cpp can check
// each fast path against the reference on strides, paddings, dilations and groups.
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

/// What conv2d_tiled applies to each output value v = conv + bias of output channel o before it
/// stores it: v = v * scale[o] + shift[o] when scale is set (a batch norm with given statistics,
/// as batch_norm_affine gives it), then relu when asked; the same bits as the separate kernels.
/// scale and shift are (O) of the call's dtype.
struct ConvEpilogue {
  const void *scale = nullptr, *shift = nullptr;
  bool relu = false;
};

/// out[n, o, i, j] = bias[o] + sum over the window of group(o) of x * w, as plain loops.
void conv2d_reference(const OpCall &call);
/// The same through im2col and OpenBLAS (s/dgemm), floating dtypes only; a 1x1 stride-1
/// unpadded convolution skips im2col (the image already is the column matrix).
void conv2d_im2col(const OpCall &call);
/// The same as tiles of output positions, each multiplied by blocks of output channels held in
/// registers, reading its windows from a zero-padded copy of the image (or from a small im2col
/// panel when output rows are narrower than a vector); floating dtypes only. `epilogue` is
/// applied to each value as it is stored.
void conv2d_tiled(const OpCall &call, const ConvEpilogue &epilogue = {});
/// Whether conv2d_tiled is the faster path for this call: groups with at least a few output channels.
bool conv2d_tiled_suits(const ConvGeometry &g);

} // namespace gfy::cpu
