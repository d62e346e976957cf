// Upsampling on the CPU: nearest and bilinear resampling of each (H, W) plane of a contiguous
// (N, C, H, W) input to (oH, oW). Which input position an output position reads is LibTorch
// 1.13's rule (aten/src/ATen/native/UpSample.h), computed in the input's dtype as LibTorch
// does, because nearest neighbours flip at exact halves: a given scale factor s maps output i to
// input i / s, otherwise the ratio in / out is used; bilinear centres pixels (i + 0.5) unless
// align_corners maps the corner pixels onto each other.
#include "Kernels.h"
#include "Loops.h"
#include "Parallel.h"

#include <cmath>
#include <vector>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {

const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

/// Input per output step: 1 / scale when a scale factor was given (> 0), else in / out.
template <class T> T input_per_output(double scale, int64_t in, int64_t out) {
  return scale > 0 ? static_cast<T>(1.0 / scale) : static_cast<T>(in) / static_cast<T>(out);
}

/// Nearest input index of output index `o` (LibTorch's nearest_idx, float arithmetic).
int64_t nearest_index(int64_t o, int64_t in, int64_t out, double scale) {
  if (out == in) return o;
  if (out == 2 * in) return o >> 1;
  const float step = input_per_output<float>(scale, in, out);
  return std::min(static_cast<int64_t>(std::floor(float(o) * step)), in - 1);
}

/// The two input indices an output index interpolates between, and their weights.
template <class T> struct Taps {
  int64_t i0, i1;
  T w0, w1;
};
template <class T> Taps<T> linear_taps(int64_t o, int64_t in, int64_t out, bool align_corners, double scale) {
  T step;
  if (align_corners) step = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  else step = input_per_output<T>(scale, in, out);
  T src = align_corners ? step * T(o) : step * (T(o) + T(0.5)) - T(0.5);
  if (src < T(0)) src = T(0);
  const int64_t i0 = static_cast<int64_t>(src);
  const T w1 = std::min(std::max(src - T(i0), T(0)), T(1));
  return Taps<T>{i0, i0 + (i0 < in - 1 ? 1 : 0), T(1) - w1, w1};
}

/// in0 (planes, H, W) and out0 (planes, oH, oW) as one plane count and four sizes.
struct Resample {
  int64_t planes, H, W, oH, oW;
};
Resample resample_of(const OpCall &c) {
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  return Resample{x.sizes[0] * x.sizes[1], x.sizes[2], x.sizes[3], y.sizes[2], y.sizes[3]};
}

template <class Body> void for_planes(const Resample &r, Body &&body) {
  parallel_for(r.planes, std::max<int64_t>(1, kParallelThreshold / std::max<int64_t>(1, r.oH * r.oW)),
               [&](int64_t b, int64_t e) {
                 for (int64_t i = b; i < e; ++i) body(i);
               });
}

} // namespace

void upsample_nearest2d_kernel(OpCall &c) {
  const Resample r = resample_of(c);
  // Column indices are the same for every row and plane: computed once.
  std::vector<int64_t> col(size_t(r.oW));
  for (int64_t ow = 0; ow < r.oW; ++ow) col[size_t(ow)] = nearest_index(ow, r.W, r.oW, c.beta);
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(I(c.in[0]).data()); // x: (planes, H, W)
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());            // y: (planes, oH, oW)
    for_planes(r, [&](int64_t i) {
      for (int64_t oh = 0; oh < r.oH; ++oh) {
        const T *xr = x + (i * r.H + nearest_index(oh, r.H, r.oH, c.alpha)) * r.W;
        T *yr = y + (i * r.oH + oh) * r.oW;
        for (int64_t ow = 0; ow < r.oW; ++ow) yr[ow] = xr[col[size_t(ow)]];
      }
    });
  });
}

void upsample_bilinear2d_kernel(OpCall &c) {
  const Resample r = resample_of(c);
  const bool align_corners = c.flag;
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() {
    std::vector<Taps<T>> cols(size_t(r.oW));
    for (int64_t ow = 0; ow < r.oW; ++ow) cols[size_t(ow)] = linear_taps<T>(ow, r.W, r.oW, align_corners, c.beta);
    const T *x = reinterpret_cast<const T *>(I(c.in[0]).data()); // x: (planes, H, W)
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());            // y: (planes, oH, oW)
    for_planes(r, [&](int64_t i) {
      const T *xp = x + i * r.H * r.W;
      for (int64_t oh = 0; oh < r.oH; ++oh) {
        const Taps<T> h = linear_taps<T>(oh, r.H, r.oH, align_corners, c.alpha);
        const T *top = xp + h.i0 * r.W, *bottom = xp + h.i1 * r.W;
        T *yr = y + (i * r.oH + oh) * r.oW;
        for (int64_t ow = 0; ow < r.oW; ++ow) {
          const Taps<T> &w = cols[size_t(ow)];
          yr[ow] = h.w0 * (w.w0 * top[w.i0] + w.w1 * top[w.i1]) + h.w1 * (w.w0 * bottom[w.i0] + w.w1 * bottom[w.i1]);
        }
      }
    });
  });
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
