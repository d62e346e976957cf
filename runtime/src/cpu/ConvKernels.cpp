// conv2d on the CPU. The reference is the definition written as loops; the kernels the backend
// runs are matrix products, because a convolution is one once each output position's window is
// laid out as a column: tiles of output positions with a register-blocked product (ConvTiled.cpp)
// for groups with several output channels, im2col + OpenBLAS for the others (depthwise). The
// front-end (src/core/ops_conv.cpp) hands every path a contiguous input, weight and bias of one
// dtype and a contiguous output, so none deals with strides.
#include "ConvKernels.h"

#include "Kernels.h"
#include "Loops.h"
#include "Parallel.h"

#include <cblas.h>

#include <vector>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {

const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }
template <class T> const T *ptr(const Tensor &t) { return t.defined() ? reinterpret_cast<const T *>(I(t).data()) : nullptr; }

/// Floating sums in double, integer sums in int64 (wrapping, as LibTorch's integer conv).
template <class T> using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;

template <class T> void reference(const OpCall &c) {
  const ConvGeometry g = conv_geometry(c);
  const T *x = ptr<T>(c.in[0]), *w = ptr<T>(c.in[1]), *b = ptr<T>(c.in[2]);
  T *y = reinterpret_cast<T *>(I(c.out[0]).data());
  // x: (N, C, H, W)  w: (O, Cg, kH, kW)  b: (O)  y: (N, O, oH, oW)
  const int64_t Cg = g.C / g.groups, Og = g.O / g.groups;
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t o = 0; o < g.O; ++o) {
      const int64_t c0 = o / Og * Cg; // first input channel of o's group
      for (int64_t oh = 0; oh < g.oH; ++oh)
        for (int64_t ow = 0; ow < g.oW; ++ow) {
          acc_t<T> acc = b ? acc_t<T>(b[o]) : acc_t<T>(0);
          for (int64_t ci = 0; ci < Cg; ++ci)
            for (int64_t kh = 0; kh < g.kH; ++kh) {
              const int64_t ih = oh * g.sH - g.pH + kh * g.dH;
              if (ih < 0 || ih >= g.H) continue;
              for (int64_t kw = 0; kw < g.kW; ++kw) {
                const int64_t iw = ow * g.sW - g.pW + kw * g.dW;
                if (iw < 0 || iw >= g.W) continue;
                acc += acc_t<T>(x[((n * g.C + c0 + ci) * g.H + ih) * g.W + iw]) *
                       acc_t<T>(w[((o * Cg + ci) * g.kH + kh) * g.kW + kw]);
              }
            }
          y[((n * g.O + o) * g.oH + oh) * g.oW + ow] = static_cast<T>(acc);
        }
    }
}

/// cols: (Cg * kH * kW, oH * oW); row (ci, kh, kw) holds, for every output position, the input
/// element that the kernel tap (kh, kw) of channel ci meets there (0 in the padding).
template <class T> void im2col(const T *x, const ConvGeometry &g, int64_t Cg, T *cols) {
  const int64_t rows = Cg * g.kH * g.kW, P = g.oH * g.oW;
  parallel_for(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(P, 1)), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t kw = r % g.kW, kh = r / g.kW % g.kH, ci = r / (g.kW * g.kH);
      const T *xc = x + ci * g.H * g.W;
      T *row = cols + r * P;
      for (int64_t oh = 0; oh < g.oH; ++oh) {
        const int64_t ih = oh * g.sH - g.pH + kh * g.dH;
        T *out = row + oh * g.oW;
        if (ih < 0 || ih >= g.H) {
          for (int64_t ow = 0; ow < g.oW; ++ow) out[ow] = T(0);
          continue;
        }
        const T *xr = xc + ih * g.W;
        for (int64_t ow = 0; ow < g.oW; ++ow) {
          const int64_t iw = ow * g.sW - g.pW + kw * g.dW;
          out[ow] = iw >= 0 && iw < g.W ? xr[iw] : T(0);
        }
      }
    }
  });
}

/// C (M, N) = A (M, K) @ B (K, N) + beta * C, all row-major and dense.
template <class T> void gemm(int64_t M, int64_t N, int64_t K, const T *A, const T *B, T beta, T *C) {
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(M), int(N), int(K), 1.f, A, int(K), B, int(N), beta, C,
                int(N));
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(M), int(N), int(K), 1.0, A, int(K), B, int(N), beta, C,
                int(N));
}

template <class T> void fast(const OpCall &c) {
  const ConvGeometry g = conv_geometry(c);
  const T *x = ptr<T>(c.in[0]), *w = ptr<T>(c.in[1]), *b = ptr<T>(c.in[2]);
  T *y = reinterpret_cast<T *>(I(c.out[0]).data());
  const int64_t Cg = g.C / g.groups, Og = g.O / g.groups, K = Cg * g.kH * g.kW, P = g.oH * g.oW;
  if (y == nullptr || g.N * g.O * P == 0) return;
  const bool direct = g.kH == 1 && g.kW == 1 && g.sH == 1 && g.sW == 1 && g.pH == 0 && g.pW == 0;
  // A host scratch buffer, not a tensor: replay must not allocate tensors, and this one only
  // grows to the largest convolution the thread has run.
  thread_local std::vector<T> cols;
  if (!direct && cols.size() < size_t(K * P)) cols.resize(size_t(K * P));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T *xg = x + (n * g.C + grp * Cg) * g.H * g.W; // xg: (Cg, H, W)
      T *yg = y + (n * g.O + grp * Og) * P;               // yg: (Og, oH * oW)
      if (b)
        for (int64_t o = 0; o < Og; ++o)
          for (int64_t p = 0; p < P; ++p) yg[o * P + p] = b[grp * Og + o];
      if (K == 0) {
        if (!b)
          for (int64_t i = 0; i < Og * P; ++i) yg[i] = T(0);
        continue;
      }
      if (!direct) im2col(xg, g, Cg, cols.data());
      gemm<T>(Og, P, K, w + grp * Og * K, direct ? xg : cols.data(), b ? T(1) : T(0), yg);
    }
}

} // namespace

void conv2d_reference(const OpCall &c) {
  dispatch_num(I(c.in[0]).dtype, [&]<class T>() { reference<T>(c); });
}
void conv2d_im2col(const OpCall &c) {
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() { fast<T>(c); });
}

// Integer convolutions (which LibTorch also computes) have no fast path: they take the reference loop.
void conv2d_kernel(OpCall &c) {
  if (!isFloatingType(I(c.in[0]).dtype)) conv2d_reference(c);
  else if (conv2d_tiled_suits(conv_geometry(c))) conv2d_tiled(c);
  else conv2d_im2col(c);
}
GFY_CPU_ISA_END
} // namespace gfy::cpu
