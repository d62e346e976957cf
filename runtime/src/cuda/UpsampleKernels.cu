// Upsampling on CUDA, one thread per output element, with the CPU reference's source-index rules
// (src/cpu/UpsampleKernels.cpp is the spec, LibTorch 1.13's UpSample.h the origin): the same
// float arithmetic for nearest, the input's dtype for bilinear, so both backends pick the same
// neighbours at exact halves.
#include "Kernels.cuh"

namespace gfy::cuda::detail {
namespace {

struct Resample {
  int64_t planes, H, W, oH, oW;
  double scale_h, scale_w; ///< the given scale factors, 0 when absent
  bool align_corners;
};

template <class T> __device__ T input_per_output(double scale, int64_t in, int64_t out) {
  return scale > 0 ? static_cast<T>(1.0 / scale) : static_cast<T>(in) / static_cast<T>(out);
}

__device__ int64_t nearest_index(int64_t o, int64_t in, int64_t out, double scale) {
  if (out == in) return o;
  if (out == 2 * in) return o >> 1;
  const float step = input_per_output<float>(scale, in, out);
  const int64_t i = static_cast<int64_t>(floorf(float(o) * step));
  return i < in - 1 ? i : in - 1;
}

template <class T> __device__ void linear_taps(int64_t o, int64_t in, int64_t out, bool align_corners, double scale,
                                               int64_t &i0, int64_t &i1, T &w0, T &w1) {
  T step;
  if (align_corners) step = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  else step = input_per_output<T>(scale, in, out);
  T src = align_corners ? step * T(o) : step * (T(o) + T(0.5)) - T(0.5);
  if (src < T(0)) src = T(0);
  i0 = static_cast<int64_t>(src);
  T l = src - T(i0);
  l = l < T(0) ? T(0) : l > T(1) ? T(1) : l;
  i1 = i0 + (i0 < in - 1 ? 1 : 0);
  w1 = l;
  w0 = T(1) - l;
}

template <class T> __global__ void nearest(const T *x, T *y, Resample r) {
  const int64_t total = r.planes * r.oH * r.oW, step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t ow = i % r.oW, oh = i / r.oW % r.oH, plane = i / (r.oW * r.oH);
    const int64_t ih = nearest_index(oh, r.H, r.oH, r.scale_h), iw = nearest_index(ow, r.W, r.oW, r.scale_w);
    y[i] = x[(plane * r.H + ih) * r.W + iw];
  }
}

template <class T> __global__ void bilinear(const T *x, T *y, Resample r) {
  const int64_t total = r.planes * r.oH * r.oW, step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t ow = i % r.oW, oh = i / r.oW % r.oH, plane = i / (r.oW * r.oH);
    int64_t h0, h1, w0, w1;
    T hw0, hw1, ww0, ww1;
    linear_taps<T>(oh, r.H, r.oH, r.align_corners, r.scale_h, h0, h1, hw0, hw1);
    linear_taps<T>(ow, r.W, r.oW, r.align_corners, r.scale_w, w0, w1, ww0, ww1);
    const T *top = x + (plane * r.H + h0) * r.W, *bottom = x + (plane * r.H + h1) * r.W;
    y[i] = hw0 * (ww0 * top[w0] + ww1 * top[w1]) + hw1 * (ww0 * bottom[w0] + ww1 * bottom[w1]);
  }
}

Resample resample_of(const OpCall &c) {
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  return Resample{x.sizes[0] * x.sizes[1], x.sizes[2], x.sizes[3], y.sizes[2], y.sizes[3], c.alpha, c.beta, c.flag};
}

} // namespace

void upsample_nearest2d_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  if (y.numel == 0) return;
  GFY_DISPATCH_FLOAT(x.dtype, T, {
    nearest<T><<<grid_for(y.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(x.data()),
                                                                reinterpret_cast<T *>(y.data()), resample_of(c));
    CUDA_CHECK_LAUNCH();
  })
}

void upsample_bilinear2d_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &x = I(c.in[0]), &y = I(c.out[0]);
  if (y.numel == 0) return;
  GFY_DISPATCH_FLOAT(x.dtype, T, {
    bilinear<T><<<grid_for(y.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(x.data()),
                                                                 reinterpret_cast<T *>(y.data()), resample_of(c));
    CUDA_CHECK_LAUNCH();
  })
}

} // namespace gfy::cuda::detail
