// Matrix products on OpenBLAS. Operands arrive either row-major or as transposed views (the
// front-end copied anything else), so a transposed weight (`w.t()` in linear) is passed as a
// BLAS transpose flag instead of being copied.
#include "Kernels.h"
#include "Loops.h"

#include <cblas.h>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {
const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

struct Mat {
  bool trans;
  int64_t ld;
};
Mat layout(const TensorImpl &t) {
  const size_t nd = t.sizes.size();
  Mat m{false, 0};
  if (!blas_layout(t.sizes[nd - 2], t.sizes[nd - 1], t.strides[nd - 2], t.strides[nd - 1], m.trans, m.ld))
    throw Error("internal error: mm operand is not BLAS-compatible");
  return m;
}

template <class T>
void gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,
          T beta, T *C, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, int(M), int(N), int(K),
                alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, int(M), int(N), int(K),
                alpha, A, int(lda), B, int(ldb), beta, C, int(ldc));
  } else {
    // Integer products: the plain reference loop (LibTorch also has no BLAS for these).
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        T acc = 0;
        for (int64_t k = 0; k < K; ++k) {
          const T a = ta ? A[k * lda + i] : A[i * lda + k];
          const T b = tb ? B[j * ldb + k] : B[k * ldb + j];
          acc += a * b;
        }
        C[i * ldc + j] = beta == T(0) ? T(alpha * acc) : T(beta * C[i * ldc + j] + alpha * acc);
      }
  }
}
} // namespace

void mm_kernel(OpCall &c) {
  const TensorImpl &a = I(c.in[0]), &b = I(c.in[1]), &out = I(c.out[0]);
  // a: ([B,] M, K)  b: ([B,] K, N)  in[2]: bias broadcast to out
  // out: ([B,] M, N) contiguous, or 2-d with unit column stride and a row stride >= N (the graph's
  // batched products keep each step's rows inside one larger buffer: BLAS's ldc)
  const bool batched = a.sizes.size() == 3;
  const int64_t batch = batched ? a.sizes[0] : 1;
  const size_t r = batched ? 1 : 0;
  const int64_t M = a.sizes[r], K = a.sizes[r + 1], N = b.sizes[r + 1];
  const Mat la = layout(a), lb = layout(b);
  const bool has_bias = c.in.size() > 2 && c.beta != 0.0;
  const int64_t ldc = batched || M <= 1 ? N : out.strides[0];
  dispatch_num(out.dtype, [&]<class T>() {
    T *C = reinterpret_cast<T *>(out.data());
    const TensorImpl *bias_impl = has_bias ? &I(c.in[2]) : nullptr;
    // A bias that is the output itself with beta = 1 means "accumulate into out" (what the
    // graph's fusion pass emits for a sum of products): nothing to copy.
    const bool accumulate = has_bias && c.beta == 1.0 && bias_impl->data() == out.data() &&
                            bias_impl->strides == out.strides && bias_impl->sizes == out.sizes;
    if (has_bias && !accumulate) {
      // out = beta * bias first, then the GEMM accumulates into it.
      const TensorImpl &bias = *bias_impl;
      const T beta = static_cast<T>(c.beta);
      loop_nd<2>(out.sizes, {&out, &bias}, [&](char **p, const int64_t *s, int64_t n) {
        for (int64_t i = 0; i < n; ++i)
          *reinterpret_cast<T *>(p[0] + i * s[0]) = beta * *reinterpret_cast<const T *>(p[1] + i * s[1]);
      });
    }
    if (M == 0 || N == 0) return;
    if (K == 0) {
      if (!has_bias)
        for (int64_t i = 0; i < batch * M; ++i)
          for (int64_t j = 0; j < N; ++j) C[i * ldc + j] = T(0);
      return;
    }
    const T *A = reinterpret_cast<const T *>(a.data());
    const T *B = reinterpret_cast<const T *>(b.data());
    for (int64_t bi = 0; bi < batch; ++bi) {
      const T *Ab = A + (batched ? bi * a.strides[0] : 0);
      const T *Bb = B + (batched ? bi * b.strides[0] : 0);
      gemm<T>(la.trans, lb.trans, M, N, K, static_cast<T>(c.alpha), Ab, la.ld, Bb, lb.ld, has_bias ? T(1) : T(0),
              C + bi * M * N, ldc);
    }
  });
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
