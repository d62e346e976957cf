// Pooling on the CPU: max and average over fixed windows (kernel, stride, padding, dilation) and
// over adaptive windows (output size given, window bounds derived from it). Every kernel reads a
// contiguous (N, C, H, W) input as N * C independent planes and writes a contiguous
// (N, C, oH, oW) output; the planes are split over the intra-op pool. Window bounds, the
// treatment of padding and NaN, and the index reported for a maximum follow LibTorch 1.13's CPU
// kernels, since indices are observable (adaptive_max_pool2d returns them).
#include "Kernels.h"
#include "Loops.h"
#include "Parallel.h"

#include <cmath>
#include <limits>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {

const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

/// The planes and sizes of a pooling call: in0 (N, C, H, W), out0 (N, C, oH, oW).
struct Planes {
  int64_t planes, H, W, oH, oW;
};
Planes planes_of(const OpCall &c) {
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  return Planes{x.sizes[0] * x.sizes[1], x.sizes[2], x.sizes[3], y.sizes[2], y.sizes[3]};
}

/// Runs body(plane) for every plane, a few planes per task.
template <class Body> void for_planes(const Planes &p, Body &&body) {
  const int64_t work = std::max<int64_t>(1, p.oH * p.oW * 8);
  parallel_for(p.planes, std::max<int64_t>(1, kParallelThreshold / work), [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) body(i);
  });
}

/// The maximum of x over rows [h0, h1) and columns [w0, w1) stepping (dH, dW): a NaN wins (the
/// last one met), otherwise the first strictly larger value. Returns (value, ih * W + iw).
template <class T>
std::pair<T, int64_t> window_max(const T *x, int64_t W, int64_t h0, int64_t h1, int64_t dH, int64_t w0, int64_t w1,
                                 int64_t dW) {
  T best = -std::numeric_limits<T>::infinity();
  int64_t at = h0 * W + w0;
  for (int64_t ih = h0; ih < h1; ih += dH)
    for (int64_t iw = w0; iw < w1; iw += dW) {
      const T v = x[ih * W + iw];
      if (v > best || std::isnan(v)) {
        best = v;
        at = ih * W + iw;
      }
    }
  return {best, at};
}

/// First and one-past-last input index of adaptive window `o` of `out` over `in`:
/// [floor(o * in / out), ceil((o + 1) * in / out)).
int64_t adaptive_start(int64_t o, int64_t in, int64_t out) { return o * in / out; }
int64_t adaptive_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

} // namespace

void max_pool2d_kernel(OpCall &c) {
  const Planes p = planes_of(c);
  const auto &v = c.ints; // {kH, kW, sH, sW, pH, pW, dH, dW}
  const int64_t kH = v[0], kW = v[1], sH = v[2], sW = v[3], pH = v[4], pW = v[5], dH = v[6], dW = v[7];
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(I(c.in[0]).data()); // x: (planes, H, W)
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());            // y: (planes, oH, oW)
    int64_t *idx = c.out.size() > 1 && c.out[1].defined() ? reinterpret_cast<int64_t *>(I(c.out[1]).data()) : nullptr;
    for_planes(p, [&](int64_t i) {
      const T *xp = x + i * p.H * p.W;
      for (int64_t oh = 0; oh < p.oH; ++oh)
        for (int64_t ow = 0; ow < p.oW; ++ow) {
          int64_t h0 = oh * sH - pH, w0 = ow * sW - pW;
          const int64_t h1 = std::min(h0 + (kH - 1) * dH + 1, p.H), w1 = std::min(w0 + (kW - 1) * dW + 1, p.W);
          while (h0 < 0) h0 += dH; // the first tap inside the image
          while (w0 < 0) w0 += dW;
          const auto [m, at] = window_max(xp, p.W, h0, h1, dH, w0, w1, dW);
          const int64_t o = (i * p.oH + oh) * p.oW + ow;
          y[o] = m;
          if (idx) idx[o] = at;
        }
    });
  });
}

void avg_pool2d_kernel(OpCall &c) {
  const Planes p = planes_of(c);
  const auto &v = c.ints; // {kH, kW, sH, sW, pH, pW}
  const int64_t kH = v[0], kW = v[1], sH = v[2], sW = v[3], pH = v[4], pW = v[5];
  const bool count_include_pad = c.flag;
  const int64_t divisor_override = c.k;
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(I(c.in[0]).data()); // x: (planes, H, W)
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());            // y: (planes, oH, oW)
    for_planes(p, [&](int64_t i) {
      const T *xp = x + i * p.H * p.W;
      for (int64_t oh = 0; oh < p.oH; ++oh)
        for (int64_t ow = 0; ow < p.oW; ++ow) {
          // The window clipped to the padded image gives count_include_pad's divisor; clipped
          // to the image it gives the elements summed.
          int64_t h0 = oh * sH - pH, w0 = ow * sW - pW;
          int64_t h1 = std::min(h0 + kH, p.H + pH), w1 = std::min(w0 + kW, p.W + pW);
          const int64_t padded_count = (h1 - h0) * (w1 - w0);
          h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
          h1 = std::min(h1, p.H), w1 = std::min(w1, p.W);
          T &out = y[(i * p.oH + oh) * p.oW + ow];
          if (h0 >= h1 || w0 >= w1) {
            out = T(0);
            continue;
          }
          double sum = 0;
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw) sum += xp[ih * p.W + iw];
          const int64_t divisor =
              divisor_override ? divisor_override : count_include_pad ? padded_count : (h1 - h0) * (w1 - w0);
          out = static_cast<T>(sum / double(divisor));
        }
    });
  });
}

void adaptive_avg_pool2d_kernel(OpCall &c) {
  const Planes p = planes_of(c);
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(I(c.in[0]).data()); // x: (planes, H, W)
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());            // y: (planes, oH, oW)
    for_planes(p, [&](int64_t i) {
      const T *xp = x + i * p.H * p.W;
      for (int64_t oh = 0; oh < p.oH; ++oh) {
        const int64_t h0 = adaptive_start(oh, p.H, p.oH), h1 = adaptive_end(oh, p.H, p.oH);
        for (int64_t ow = 0; ow < p.oW; ++ow) {
          const int64_t w0 = adaptive_start(ow, p.W, p.oW), w1 = adaptive_end(ow, p.W, p.oW);
          double sum = 0;
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw) sum += xp[ih * p.W + iw];
          y[(i * p.oH + oh) * p.oW + ow] = static_cast<T>(sum / double((h1 - h0) * (w1 - w0)));
        }
      }
    });
  });
}

void adaptive_max_pool2d_kernel(OpCall &c) {
  const Planes p = planes_of(c);
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(I(c.in[0]).data());   // x: (planes, H, W)
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());              // y: (planes, oH, oW)
    int64_t *idx = reinterpret_cast<int64_t *>(I(c.out[1]).data()); // idx: (planes, oH, oW)
    for_planes(p, [&](int64_t i) {
      const T *xp = x + i * p.H * p.W;
      for (int64_t oh = 0; oh < p.oH; ++oh) {
        const int64_t h0 = adaptive_start(oh, p.H, p.oH), h1 = adaptive_end(oh, p.H, p.oH);
        for (int64_t ow = 0; ow < p.oW; ++ow) {
          const int64_t w0 = adaptive_start(ow, p.W, p.oW), w1 = adaptive_end(ow, p.W, p.oW);
          const auto [m, at] = window_max(xp, p.W, h0, h1, 1, w0, w1, 1);
          y[(i * p.oH + oh) * p.oW + ow] = m;
          idx[(i * p.oH + oh) * p.oW + ow] = at;
        }
      }
    });
  });
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
