#pragma once
// The CPU implementations of ops.def's conv2d: the readable reference (a direct loop over each
// output element's window) and the two fast paths that conv2d_kernel chooses between (tiles of
// output positions with a register-blocked product, ConvTiled.cpp; im2col + one GEMM per image
// and group). Each is an entry of the level's KernelTable, so that
// tests/runtime/test_conv_fast_path.cpp can check each fast path against the reference on strides,
// paddings, dilations and groups: the kernels are compiled once per instruction-set level
// (IsaRegion.h), and code outside the kernel sources calls them through the table in use.
#include "IsaRegion.h"

#include <graphify/core/Backend.h>

namespace gfy::cpu {

/// The sizes of one conv2d call, read from its OpCall (see ops.def).
struct ConvGeometry {
  int64_t N, C, H, W;    ///< input (N, C, H, W)
  int64_t O, kH, kW;     ///< weight (O, C / groups, kH, kW)
  int64_t oH, oW;        ///< output (N, O, oH, oW)
  int64_t sH, sW, pH, pW, dH, dW, groups;
};
inline ConvGeometry conv_geometry(const OpCall &call) {
  const TensorImpl &x = *call.in[0].unsafeGetTensorImpl(), &w = *call.in[1].unsafeGetTensorImpl();
  const TensorImpl &y = *call.out[0].unsafeGetTensorImpl();
  const auto &v = call.ints; // {sH, sW, pH, pW, dH, dW}
  return ConvGeometry{x.sizes[0], x.sizes[1], x.sizes[2], x.sizes[3], w.sizes[0], w.sizes[2], w.sizes[3],
                      y.sizes[2], y.sizes[3], v[0],       v[1],       v[2],       v[3],       v[4],
                      v[5],       call.k};
}

/// What conv2d_tiled applies to each output value v = conv + bias of output channel o before it
/// stores it: v = v * scale[o] + shift[o] when scale is set (a batch norm with given statistics,
/// as batch_norm_affine gives it), then relu when asked; the same bits as the separate kernels.
/// scale and shift are (O) of the call's dtype.
struct ConvEpilogue {
  const void *scale = nullptr, *shift = nullptr;
  bool relu = false;
};

GFY_CPU_ISA_BEGIN
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
/// Whether conv2d_tiled is the faster path for this call: groups with at least a few output
/// channels (how many depends on the level's register file).
bool conv2d_tiled_suits(const ConvGeometry &g);
/// conv2d_tiled followed by a batch norm with given statistics (and a relu when asked) in its
/// epilogue, as a captured graph fuses them: the call's inputs 3 to 6 are the batch norm's mean,
/// var, weight and bias (weight and bias may be undefined).
void conv2d_batch_norm(const OpCall &call, double eps, bool relu);
GFY_CPU_ISA_END

} // namespace gfy::cpu
