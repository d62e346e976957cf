// Matrix products on cuBLAS, plus the tiny kernel that drives conditional graph nodes.
//
// cuBLAS is column-major and the runtime row-major: a row-major (M, N) product C = A B is the
// column-major product C^T = B^T A^T, and a row-major matrix read column-major *is* its
// transpose. So the call swaps the operands and passes each operand's own layout flag: a
// row-major operand is "N", a transposed view (w.t() in linear) is "T" — no copies. Integer
// products (LibTorch has no BLAS for them either) use a plain kernel with the CPU's loop order.
#include "Kernels.cuh"

#include <cublas_v2.h>

namespace gfy::cuda::detail {
namespace {

struct Mat {
  bool trans = false;
  int64_t ld = 0;
};

/// The CPU reference's blas_layout: row-major as is, or the transpose of a row-major matrix.
Mat layout(const TensorImpl &t) {
  const size_t nd = t.sizes.size();
  const int64_t rows = t.sizes[nd - 2], cols = t.sizes[nd - 1], s0 = t.strides[nd - 2], s1 = t.strides[nd - 1];
  const int64_t r = rows > 1 ? rows : 1, c = cols > 1 ? cols : 1;
  if (s1 == 1 || cols <= 1) {
    const int64_t ld = rows <= 1 ? c : s0;
    if (ld >= c) return {false, ld};
  }
  if (s0 == 1 || rows <= 1) {
    const int64_t ld = cols <= 1 ? r : s1;
    if (ld >= r) return {true, ld};
  }
  throw Error("internal error: mm operand is not BLAS-compatible");
}

template <class T> struct ScaleApply {
  T beta;
  __device__ void operator()(char **p) const { *reinterpret_cast<T *>(p[0]) = beta * *reinterpret_cast<const T *>(p[1]); }
};

template <class T>
__global__ void int_gemm_kernel(bool ta, bool tb, int64_t batch, int64_t M, int64_t N, int64_t K, T alpha, const T *A, int64_t lda,
                                int64_t sa, const T *B, int64_t ldb, int64_t sb, bool accumulate, T *C) {
  const int64_t total = batch * M * N;
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < total; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t bi = e / (M * N), i = (e / N) % M, j = e % N;
    const T *Ab = A + bi * sa;
    const T *Bb = B + bi * sb;
    T acc = 0;
    for (int64_t k = 0; k < K; ++k) {
      const T a = ta ? Ab[k * lda + i] : Ab[i * lda + k];
      const T b = tb ? Bb[j * ldb + k] : Bb[k * ldb + j];
      acc += a * b;
    }
    C[e] = accumulate ? T(C[e] + alpha * acc) : T(alpha * acc);
  }
}

template <class T> __global__ void zero_kernel(T *p, int64_t n) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) p[i] = T(0);
}

void gemm(cublasHandle_t h, cublasOperation_t oa, cublasOperation_t ob, int m, int n, int k, const float *alpha, const float *A,
          int lda, long long sa, const float *B, int ldb, long long sb, const float *beta, float *C, int ldc, long long sc, int batch) {
  if (batch == 1) CUBLAS_CHECK(cublasSgemm(h, oa, ob, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
  else CUBLAS_CHECK(cublasSgemmStridedBatched(h, oa, ob, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch));
}
void gemm(cublasHandle_t h, cublasOperation_t oa, cublasOperation_t ob, int m, int n, int k, const double *alpha, const double *A,
          int lda, long long sa, const double *B, int ldb, long long sb, const double *beta, double *C, int ldc, long long sc, int batch) {
  if (batch == 1) CUBLAS_CHECK(cublasDgemm(h, oa, ob, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
  else CUBLAS_CHECK(cublasDgemmStridedBatched(h, oa, ob, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch));
}

__global__ void set_conditional_kernel(unsigned long long h_then, unsigned long long h_else, const void *pred, int dtype) {
  bool p = false;
  switch (dtype) {
  case int(ScalarType::Bool): p = *static_cast<const bool *>(pred); break;
  case int(ScalarType::Byte): p = *static_cast<const uint8_t *>(pred) != 0; break;
  case int(ScalarType::Char): p = *static_cast<const int8_t *>(pred) != 0; break;
  case int(ScalarType::Short): p = *static_cast<const int16_t *>(pred) != 0; break;
  case int(ScalarType::Int): p = *static_cast<const int32_t *>(pred) != 0; break;
  case int(ScalarType::Long): p = *static_cast<const int64_t *>(pred) != 0; break;
  case int(ScalarType::Float): p = *static_cast<const float *>(pred) != 0.0f; break;
  default: p = *static_cast<const double *>(pred) != 0.0; break;
  }
#if CUDART_VERSION >= 12030
  cudaGraphSetConditional(h_then, p ? 1u : 0u);
  if (h_else != 0) cudaGraphSetConditional(h_else, p ? 0u : 1u);
#else
  (void)h_then, (void)h_else, (void)p; // never launched: conditional nodes need CUDA 12.3+ headers
#endif
}

} // namespace

void launch_set_conditional(cudaStream_t s, unsigned long long h_then, unsigned long long h_else, const void *pred, ScalarType dtype) {
  set_conditional_kernel<<<1, 1, 0, s>>>(h_then, h_else, pred, int(dtype));
  CUDA_CHECK_LAUNCH();
}

namespace {
template <class T> void mm_typed(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &a = I(c.in[0]), &b = I(c.in[1]), &out = I(c.out[0]);
  // a: ([B,] M, K)  b: ([B,] K, N)  out: ([B,] M, N) contiguous  in[2]: bias broadcast to out
  const bool batched = a.sizes.size() == 3;
  const int64_t batch = batched ? a.sizes[0] : 1;
  const size_t r = batched ? 1 : 0;
  const int64_t M = a.sizes[r], K = a.sizes[r + 1], N = b.sizes[r + 1];
  const Mat la = layout(a), lb = layout(b);
  const bool has_bias = c.in.size() > 2 && c.beta != 0.0;
  T *C = reinterpret_cast<T *>(out.data());
  if (has_bias) {
    // out = beta * bias first; the product then accumulates into it.
    const auto g = make_geometry<2>(out.sizes, {&out, &I(c.in[2])});
    launch_elementwise(g, ScaleApply<T>{static_cast<T>(c.beta)}, ctx.stream);
  }
  if (M == 0 || N == 0) return;
  if (K == 0) {
    if (!has_bias) {
      zero_kernel<T><<<grid_for(out.numel), kThreads, 0, ctx.stream>>>(C, out.numel);
      CUDA_CHECK_LAUNCH();
    }
    return;
  }
  const T *A = reinterpret_cast<const T *>(a.data());
  const T *B = reinterpret_cast<const T *>(b.data());
  const int64_t sa = batched ? a.strides[0] : 0, sb = batched ? b.strides[0] : 0;
  if constexpr (std::is_floating_point_v<T>) {
    GFY_CHECK(M <= INT32_MAX && N <= INT32_MAX && K <= INT32_MAX && batch <= INT32_MAX && la.ld <= INT32_MAX && lb.ld <= INT32_MAX,
              "mm: matrix dimensions exceed cuBLAS's 32-bit limits");
    const T alpha = static_cast<T>(c.alpha), beta = has_bias ? T(1) : T(0);
    gemm(ctx.blas, lb.trans ? CUBLAS_OP_T : CUBLAS_OP_N, la.trans ? CUBLAS_OP_T : CUBLAS_OP_N, int(N), int(M), int(K), &alpha, B,
         int(lb.ld), sb, A, int(la.ld), sa, &beta, C, int(N), M * N, int(batch));
  } else {
    int_gemm_kernel<T><<<grid_for(batch * M * N), kThreads, 0, ctx.stream>>>(la.trans, lb.trans, batch, M, N, K, static_cast<T>(c.alpha),
                                                                              A, la.ld, sa, B, lb.ld, sb, has_bias, C);
    CUDA_CHECK_LAUNCH();
  }
}
} // namespace

void mm_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_NUM(I(c.out[0]).dtype, T, mm_typed<T>(c, ctx)) }

} // namespace gfy::cuda::detail
