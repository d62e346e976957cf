// conv2d on CUDA: a direct convolution, one thread per output element walking its window, with
// the CPU reference's accumulators (double for floating dtypes, int64 for integers). Simple rather than fast: it exists so that every
// ops.def op runs on every backend; a cuDNN or implicit-GEMM path is the place to gain speed.
// The front-end (src/core/ops_conv.cpp) hands it contiguous operands of one dtype.
#include "Kernels.cuh"

namespace gfy::cuda::detail {
namespace {

struct ConvShape {
  int64_t N, C, H, W, O, kH, kW, oH, oW, sH, sW, pH, pW, dH, dW, groups;
};

template <class T> __global__ void conv2d_direct(const T *x, const T *w, const T *b, T *y, ConvShape g) {
  // x: (N, C, H, W)  w: (O, Cg, kH, kW)  b: (O) or null  y: (N, O, oH, oW)
  const int64_t total = g.N * g.O * g.oH * g.oW, Cg = g.C / g.groups, Og = g.O / g.groups;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t ow = i % g.oW, oh = i / g.oW % g.oH, o = i / (g.oW * g.oH) % g.O, n = i / (g.oW * g.oH * g.O);
    const int64_t c0 = o / Og * Cg;
    acc_t<T> acc = b ? acc_t<T>(b[o]) : acc_t<T>(0);
    for (int64_t ci = 0; ci < Cg; ++ci)
      for (int64_t kh = 0; kh < g.kH; ++kh) {
        const int64_t ih = oh * g.sH - g.pH + kh * g.dH;
        if (ih < 0 || ih >= g.H) continue;
        for (int64_t kw = 0; kw < g.kW; ++kw) {
          const int64_t iw = ow * g.sW - g.pW + kw * g.dW;
          if (iw < 0 || iw >= g.W) continue;
          acc += acc_t<T>(x[((n * g.C + c0 + ci) * g.H + ih) * g.W + iw]) * acc_t<T>(w[((o * Cg + ci) * g.kH + kh) * g.kW + kw]);
        }
      }
    y[i] = static_cast<T>(acc);
  }
}

} // namespace

void conv2d_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &x = I(c.in[0]), &w = I(c.in[1]), &y = I(c.out[0]);
  const auto &v = c.ints; // {sH, sW, pH, pW, dH, dW}
  const ConvShape g{x.sizes[0], x.sizes[1], x.sizes[2], x.sizes[3], w.sizes[0], w.sizes[2], w.sizes[3], y.sizes[2],
                    y.sizes[3], v[0],       v[1],       v[2],       v[3],       v[4],       v[5],       c.k};
  if (y.numel == 0) return;
  GFY_DISPATCH_NUM(x.dtype, T, {
    const T *b = c.in[2].defined() ? reinterpret_cast<const T *>(I(c.in[2]).data()) : nullptr;
    conv2d_direct<T><<<grid_for(y.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(x.data()),
                                                                      reinterpret_cast<const T *>(w.data()), b,
                                                                      reinterpret_cast<T *>(y.data()), g);
    CUDA_CHECK_LAUNCH();
  })
}

} // namespace gfy::cuda::detail
