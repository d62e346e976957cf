// Pooling on CUDA, one thread per output element, with the CPU reference's window bounds, NaN
// rule and reported indices (src/cpu/PoolKernels.cpp is the spec): x (N, C, H, W) and the
// outputs (N, C, oH, oW) are contiguous, so an output's plane is its index / (oH * oW).
#include "Kernels.cuh"

namespace gfy::cuda::detail {
namespace {

struct PoolShape {
  int64_t planes, H, W, oH, oW;
  int64_t kH, kW, sH, sW, pH, pW, dH, dW;
};

PoolShape pool_shape(const OpCall &c) {
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  PoolShape s{x.sizes[0] * x.sizes[1], x.sizes[2], x.sizes[3], y.sizes[2], y.sizes[3], 1, 1, 1, 1, 0, 0, 1, 1};
  const auto &v = c.ints;
  if (v.size() >= 6) s.kH = v[0], s.kW = v[1], s.sH = v[2], s.sW = v[3], s.pH = v[4], s.pW = v[5];
  if (v.size() >= 8) s.dH = v[6], s.dW = v[7];
  return s;
}

/// Maximum over rows [h0, h1) and columns [w0, w1) with steps (dH, dW): a NaN wins (the last
/// one met), otherwise the first strictly larger value; `at` gets ih * W + iw.
template <class T>
__device__ T window_max(const T *x, int64_t W, int64_t h0, int64_t h1, int64_t dH, int64_t w0, int64_t w1, int64_t dW,
                        int64_t &at) {
  T best = lowest_value<T>();
  at = h0 * W + w0;
  for (int64_t ih = h0; ih < h1; ih += dH)
    for (int64_t iw = w0; iw < w1; iw += dW) {
      const T v = x[ih * W + iw];
      if (v > best || is_nan(v)) {
        best = v;
        at = ih * W + iw;
      }
    }
  return best;
}

// Spelled out because gfy::min/max (the tensor reductions) hide CUDA's integer overloads here.
__device__ __forceinline__ int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
__device__ __forceinline__ int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }

__device__ __forceinline__ int64_t adaptive_start(int64_t o, int64_t in, int64_t out) { return o * in / out; }
__device__ __forceinline__ int64_t adaptive_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

#define GFY_FOR_OUTPUTS(s)                                                                         \
  const int64_t total = s.planes * s.oH * s.oW, step = int64_t(gridDim.x) * blockDim.x;            \
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step)

template <class T> __global__ void max_pool(const T *x, T *y, int64_t *idx, PoolShape s) {
  GFY_FOR_OUTPUTS(s) {
    const int64_t ow = i % s.oW, oh = i / s.oW % s.oH, plane = i / (s.oW * s.oH);
    int64_t h0 = oh * s.sH - s.pH, w0 = ow * s.sW - s.pW;
    const int64_t h1 = imin(h0 + (s.kH - 1) * s.dH + 1, s.H), w1 = imin(w0 + (s.kW - 1) * s.dW + 1, s.W);
    while (h0 < 0) h0 += s.dH;
    while (w0 < 0) w0 += s.dW;
    int64_t at;
    y[i] = window_max(x + plane * s.H * s.W, s.W, h0, h1, s.dH, w0, w1, s.dW, at);
    if (idx) idx[i] = at;
  }
}

template <class T> __global__ void avg_pool(const T *x, T *y, PoolShape s, bool count_include_pad, int64_t divisor_override) {
  GFY_FOR_OUTPUTS(s) {
    const int64_t ow = i % s.oW, oh = i / s.oW % s.oH, plane = i / (s.oW * s.oH);
    int64_t h0 = oh * s.sH - s.pH, w0 = ow * s.sW - s.pW;
    int64_t h1 = imin(h0 + s.kH, s.H + s.pH), w1 = imin(w0 + s.kW, s.W + s.pW);
    const int64_t padded_count = (h1 - h0) * (w1 - w0);
    h0 = imax(h0, 0), w0 = imax(w0, 0);
    h1 = imin(h1, s.H), w1 = imin(w1, s.W);
    if (h0 >= h1 || w0 >= w1) {
      y[i] = T(0);
      continue;
    }
    const T *xp = x + plane * s.H * s.W;
    double sum = 0;
    for (int64_t ih = h0; ih < h1; ++ih)
      for (int64_t iw = w0; iw < w1; ++iw) sum += xp[ih * s.W + iw];
    const int64_t divisor = divisor_override ? divisor_override : count_include_pad ? padded_count : (h1 - h0) * (w1 - w0);
    y[i] = static_cast<T>(sum / double(divisor));
  }
}

template <class T> __global__ void adaptive_avg_pool(const T *x, T *y, PoolShape s) {
  GFY_FOR_OUTPUTS(s) {
    const int64_t ow = i % s.oW, oh = i / s.oW % s.oH, plane = i / (s.oW * s.oH);
    const int64_t h0 = adaptive_start(oh, s.H, s.oH), h1 = adaptive_end(oh, s.H, s.oH);
    const int64_t w0 = adaptive_start(ow, s.W, s.oW), w1 = adaptive_end(ow, s.W, s.oW);
    const T *xp = x + plane * s.H * s.W;
    double sum = 0;
    for (int64_t ih = h0; ih < h1; ++ih)
      for (int64_t iw = w0; iw < w1; ++iw) sum += xp[ih * s.W + iw];
    y[i] = static_cast<T>(sum / double((h1 - h0) * (w1 - w0)));
  }
}

template <class T> __global__ void adaptive_max_pool(const T *x, T *y, int64_t *idx, PoolShape s) {
  GFY_FOR_OUTPUTS(s) {
    const int64_t ow = i % s.oW, oh = i / s.oW % s.oH, plane = i / (s.oW * s.oH);
    const int64_t h0 = adaptive_start(oh, s.H, s.oH), h1 = adaptive_end(oh, s.H, s.oH);
    const int64_t w0 = adaptive_start(ow, s.W, s.oW), w1 = adaptive_end(ow, s.W, s.oW);
    int64_t at;
    y[i] = window_max(x + plane * s.H * s.W, s.W, h0, h1, int64_t(1), w0, w1, int64_t(1), at);
    idx[i] = at;
  }
}

#undef GFY_FOR_OUTPUTS

int64_t *indices_of(const OpCall &c) {
  return c.out.size() > 1 && c.out[1].defined() ? reinterpret_cast<int64_t *>(I(c.out[1]).data()) : nullptr;
}

} // namespace

void max_pool2d_cuda(OpCall &c, const LaunchContext &ctx) {
  const PoolShape s = pool_shape(c);
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  if (y.numel == 0) return;
  GFY_DISPATCH_FLOAT(x.dtype, T, {
    max_pool<T><<<grid_for(y.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(x.data()),
                                                                 reinterpret_cast<T *>(y.data()), indices_of(c), s);
    CUDA_CHECK_LAUNCH();
  })
}

void avg_pool2d_cuda(OpCall &c, const LaunchContext &ctx) {
  const PoolShape s = pool_shape(c);
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  if (y.numel == 0) return;
  GFY_DISPATCH_FLOAT(x.dtype, T, {
    avg_pool<T><<<grid_for(y.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(x.data()),
                                                                 reinterpret_cast<T *>(y.data()), s, c.flag, c.k);
    CUDA_CHECK_LAUNCH();
  })
}

void adaptive_avg_pool2d_cuda(OpCall &c, const LaunchContext &ctx) {
  const PoolShape s = pool_shape(c);
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  if (y.numel == 0) return;
  GFY_DISPATCH_FLOAT(x.dtype, T, {
    adaptive_avg_pool<T><<<grid_for(y.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(x.data()),
                                                                          reinterpret_cast<T *>(y.data()), s);
    CUDA_CHECK_LAUNCH();
  })
}

void adaptive_max_pool2d_cuda(OpCall &c, const LaunchContext &ctx) {
  const PoolShape s = pool_shape(c);
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  if (y.numel == 0) return;
  GFY_DISPATCH_FLOAT(x.dtype, T, {
    adaptive_max_pool<T><<<grid_for(y.numel), kThreads, 0, ctx.stream>>>(
        reinterpret_cast<const T *>(x.data()), reinterpret_cast<T *>(y.data()), indices_of(c), s);
    CUDA_CHECK_LAUNCH();
  })
}

} // namespace gfy::cuda::detail
