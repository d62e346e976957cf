#pragma once
// Batch norm with given statistics is a per-channel affine map. Its CPU kernel
// (ReduceKernels.cpp) and the convolution epilogue that a captured graph fuses into a conv2d
// (ConvTiled.cpp's conv2d_batch_norm, which graph/FuseConvEpilogues.cpp runs) both take the map
// from here, compiled at the same level, so they compute the same bits.
#include "IsaRegion.h"

#include <cmath>
#include <cstdint>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN

/// scale[c] = weight[c] / sqrt(var[c] + eps), shift[c] = bias[c] - mean[c] * scale[c] (weight 1,
/// bias 0 where null), so that out = x * scale + shift: LibTorch's CPU form, so the rounding is
/// the same.
/// \code
///   batch_norm_affine<float>(C, mean, var, weight, nullptr, 1e-5, scale, shift);
/// \endcode
template <class T>
void batch_norm_affine(int64_t C, const T *mean, const T *var, const T *weight, const T *bias, double eps, T *scale,
                       T *shift) {
  for (int64_t ch = 0; ch < C; ++ch) {
    const T invstd = T(1) / std::sqrt(var[ch] + static_cast<T>(eps));
    scale[ch] = weight ? invstd * weight[ch] : invstd;
    shift[ch] = (bias ? bias[ch] : T(0)) - mean[ch] * scale[ch];
  }
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
