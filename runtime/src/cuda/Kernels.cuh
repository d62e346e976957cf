#pragma once
// Device-side helpers shared by the CUDA kernels: the strided N-operand geometry (the CUDA
// counterpart of the CPU reference's loop_nd), dtype dispatch, launch sizing and the data-error
// record. Kernels receive operands already broadcast to the iteration shape (stride-0 views), as
// on the CPU, so no kernel does broadcasting arithmetic itself.
#include "CudaBackend.h"

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gfy::cuda::detail {

constexpr int kMaxDims = 25;
constexpr int kThreads = 256;

inline const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

/// Iteration space of an elementwise kernel over N operands after dropping size-1 dimensions and
/// merging dimensions that are dense across all operands (byte strides). Passed by value as a
/// kernel parameter (about 1 KB for N = 4).
template <int N> struct Geometry {
  int nd = 0;
  int64_t numel = 1;
  int64_t sizes[kMaxDims];
  int64_t strides[N][kMaxDims];
  char *base[N];
};

template <int N> Geometry<N> make_geometry(IntArrayRef shape, const std::array<const TensorImpl *, N> &ops) {
  Geometry<N> g;
  int d = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    g.numel *= shape[i];
    if (shape[i] == 1) continue;
    g.sizes[d] = shape[i];
    for (int k = 0; k < N; ++k) g.strides[k][d] = ops[k]->strides[i] * int64_t(element_size(ops[k]->dtype));
    ++d;
  }
  int w = 0;
  for (int j = 1; j < d; ++j) {
    bool merge = true;
    for (int k = 0; k < N; ++k) merge = merge && g.strides[k][w] == g.strides[k][j] * g.sizes[j];
    if (merge) {
      g.sizes[w] *= g.sizes[j];
    } else {
      ++w;
      g.sizes[w] = g.sizes[j];
    }
    for (int k = 0; k < N; ++k) g.strides[k][w] = g.strides[k][j];
  }
  g.nd = d == 0 ? 0 : w + 1;
  for (int k = 0; k < N; ++k) g.base[k] = ops[k]->data();
  return g;
}

/// Byte addresses of element `linear` (row-major over the iteration shape) for every operand.
template <int N> __device__ __forceinline__ void element_ptrs(const Geometry<N> &g, int64_t linear, char *p[N]) {
  for (int k = 0; k < N; ++k) p[k] = g.base[k];
  if (g.nd == 1) {
    for (int k = 0; k < N; ++k) p[k] += linear * g.strides[k][0];
    return;
  }
  for (int d = g.nd - 1; d >= 0; --d) {
    const int64_t i = linear % g.sizes[d];
    linear /= g.sizes[d];
    for (int k = 0; k < N; ++k) p[k] += i * g.strides[k][d];
  }
}

/// Runs f(p) for every element, p[k] pointing at operand k's element.
template <int N, class F> __global__ void elementwise_kernel(const Geometry<N> g, F f) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < g.numel; i += step) {
    char *p[N];
    element_ptrs<N>(g, i, p);
    f(p);
  }
}

inline unsigned grid_for(int64_t n, int threads = kThreads) {
  const int64_t blocks = (n + threads - 1) / threads;
  return unsigned(blocks < 1 ? 1 : blocks > 65535 * 4 ? 65535 * 4 : blocks);
}

template <int N, class F> void launch_elementwise(const Geometry<N> &g, F f, cudaStream_t s) {
  if (g.numel == 0) return;
  elementwise_kernel<N, F><<<grid_for(g.numel), kThreads, 0, s>>>(g, f);
  CUDA_CHECK_LAUNCH();
}

/// Records a data error (first one wins) for the host to raise at the next synchronisation.
__device__ __forceinline__ void report_error(DeviceErrorRecord *e, int code, int dim, long long value, long long size) {
  if (atomicCAS(e->claim, 0, 1) == 0) {
    volatile DeviceErrorRecord *v = e;
    v->dim = dim;
    v->value = value;
    v->size = size;
    __threadfence_system();
    v->code = code; // written last: the host reads `code` first
  }
}

/// Wraps a negative index and checks it; reports and returns -1 when out of range.
__device__ __forceinline__ int64_t checked_index(int64_t v, int64_t size, int dim, DeviceErrorRecord *e) {
  if (v < -size || v >= size) {
    report_error(e, kIndexOutOfRange, dim, v, size);
    return -1;
  }
  return v < 0 ? v + size : v;
}

template <class T> __device__ __forceinline__ bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

template <class O, class In> __host__ __device__ __forceinline__ O convert(In v) {
  if constexpr (std::is_same_v<O, bool>) return v != In(0);
  // Narrow integers from floats go through int32 and keep its low bits, as the CPU reference
  // (and x86) does: 300.2 -> uint8 44, -1.5 -> 255.
  else if constexpr (std::is_integral_v<O> && std::is_floating_point_v<In> && sizeof(O) < 4)
    return static_cast<O>(static_cast<int32_t>(v));
  else return static_cast<O>(v);
}

/// Accumulator type, as the CPU reference: double for floating types, int64 for integers.
template <class T> using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;

template <class T> __host__ __device__ constexpr T lowest_value() {
  if constexpr (std::is_same_v<T, bool>) return false;
  else if constexpr (std::is_same_v<T, float>) return -__builtin_huge_valf();
  else if constexpr (std::is_same_v<T, double>) return -__builtin_huge_val();
  else return std::numeric_limits<T>::lowest(); // each integer type's own: INT64_MIN truncated to int8 is 0
}
template <class T> __host__ __device__ constexpr T highest_value() {
  if constexpr (std::is_same_v<T, bool>) return true;
  else if constexpr (std::is_same_v<T, float>) return __builtin_huge_valf();
  else if constexpr (std::is_same_v<T, double>) return __builtin_huge_val();
  else return std::numeric_limits<T>::max(); // INT64_MAX truncated to int8 or int16 is -1
}

/// (outer, n, inner) view of a contiguous tensor around `dim`, as the CPU reference's Lanes.
struct Lanes {
  int64_t outer = 1, n = 1, inner = 1;
};
inline Lanes lanes(const TensorImpl &t, int64_t dim) {
  Lanes l;
  for (int64_t i = 0; i < int64_t(t.sizes.size()); ++i) {
    if (i < dim) l.outer *= t.sizes[size_t(i)];
    else if (i == dim) l.n = t.sizes[size_t(i)];
    else l.inner *= t.sizes[size_t(i)];
  }
  return l;
}

} // namespace gfy::cuda::detail

// Dtype dispatch for kernel wrappers: binds `T` to the C++ type of `dtype` and runs the body.
// (Macros rather than generic lambdas: nvcc's extended __device__ lambdas may not be defined
// inside another lambda.)
#define GFY_CUDA_CASE(st, cpp, T, ...)                                                             \
  case ::gfy::ScalarType::st: {                                                                    \
    using T = cpp;                                                                                 \
    __VA_ARGS__;                                                                                   \
    break;                                                                                         \
  }
#define GFY_CUDA_UNSUPPORTED(dtype)                                                                \
  default:                                                                                         \
    throw ::gfy::Error(std::string("CUDA kernel not implemented for dtype ") + ::gfy::to_string(dtype))
#define GFY_DISPATCH_ALL(dtype, T, ...)                                                            \
  switch (dtype) {                                                                                 \
    GFY_CUDA_CASE(Bool, bool, T, __VA_ARGS__)                                                      \
    GFY_CUDA_CASE(Byte, uint8_t, T, __VA_ARGS__)                                                   \
    GFY_CUDA_CASE(Char, int8_t, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Short, int16_t, T, __VA_ARGS__)                                                  \
    GFY_CUDA_CASE(Int, int32_t, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Long, int64_t, T, __VA_ARGS__)                                                   \
    GFY_CUDA_CASE(Float, float, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Double, double, T, __VA_ARGS__)                                                  \
    GFY_CUDA_UNSUPPORTED(dtype);                                                                   \
  }
/// GFY_DISPATCH_ALL and the 16-bit floating storage types, which only conversions handle.
#define GFY_DISPATCH_STORAGE(dtype, T, ...)                                                        \
  switch (dtype) {                                                                                 \
    GFY_CUDA_CASE(Half, ::gfy::Half, T, __VA_ARGS__)                                               \
    GFY_CUDA_CASE(BFloat16, ::gfy::BFloat16, T, __VA_ARGS__)                                       \
  default:                                                                                         \
    GFY_DISPATCH_ALL(dtype, T, __VA_ARGS__)                                                        \
  }
#define GFY_DISPATCH_NUM(dtype, T, ...)                                                            \
  switch (dtype) {                                                                                 \
    GFY_CUDA_CASE(Byte, uint8_t, T, __VA_ARGS__)                                                   \
    GFY_CUDA_CASE(Char, int8_t, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Short, int16_t, T, __VA_ARGS__)                                                  \
    GFY_CUDA_CASE(Int, int32_t, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Long, int64_t, T, __VA_ARGS__)                                                   \
    GFY_CUDA_CASE(Float, float, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Double, double, T, __VA_ARGS__)                                                  \
    GFY_CUDA_UNSUPPORTED(dtype);                                                                   \
  }
#define GFY_DISPATCH_FLOAT(dtype, T, ...)                                                          \
  switch (dtype) {                                                                                 \
    GFY_CUDA_CASE(Float, float, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Double, double, T, __VA_ARGS__)                                                  \
    GFY_CUDA_UNSUPPORTED(dtype);                                                                   \
  }
// The sets by their ops.def names, for kernels generated from its rows (GFY_DISPATCH_##dtypes).
#define GFY_DISPATCH_FLT(dtype, T, ...) GFY_DISPATCH_FLOAT(dtype, T, __VA_ARGS__)
#define GFY_DISPATCH_IDX(dtype, T, ...) GFY_DISPATCH_ALL(dtype, T, __VA_ARGS__)
#define GFY_DISPATCH_INT(dtype, T, ...)                                                            \
  switch (dtype) {                                                                                 \
    GFY_CUDA_CASE(Bool, bool, T, __VA_ARGS__)                                                      \
    GFY_CUDA_CASE(Byte, uint8_t, T, __VA_ARGS__)                                                   \
    GFY_CUDA_CASE(Char, int8_t, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Short, int16_t, T, __VA_ARGS__)                                                  \
    GFY_CUDA_CASE(Int, int32_t, T, __VA_ARGS__)                                                    \
    GFY_CUDA_CASE(Long, int64_t, T, __VA_ARGS__)                                                   \
    GFY_CUDA_UNSUPPORTED(dtype);                                                                   \
  }
