#pragma once
// Private helpers of the CPU reference backend: the strided N-d loop every elementwise and
// reduction kernel is written on, dtype dispatch, and vectorizable float math.
//
// Invariant kept by loop_nd: every operand has been given the iteration shape (broadcast operands
// as stride-0 views), so a kernel never does broadcasting arithmetic itself. The innermost
// (coalesced) dimension is handed to the kernel as a run of `n` elements with byte strides, so
// kernels write one plain loop for the contiguous case, which the compiler vectorizes.

#include <graphify/core/Backend.h>

#include "IsaRegion.h"
#include "Parallel.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN

constexpr int kMaxDims = 25;

/// Elementwise loops at least this large are split across the intra-op pool.
constexpr int64_t kParallelThreshold = 1 << 16;

/// Calls inner(ptrs, byte_strides, n) for each innermost run of the iteration `shape`.
/// `ops[k]` must have `shape` as its sizes (use expanded views for broadcasting). With
/// `Parallel`, large loops are split across threads along the outermost dimension, unless
/// operand 0 (the output) has stride 0 there (a reduction: its elements are shared).
template <int N, bool Parallel = false, class Inner>
void loop_nd(IntArrayRef shape, const std::array<const TensorImpl *, N> &ops, Inner &&inner) {
  const int nd = int(shape.size());
  int64_t size[kMaxDims];
  int64_t st[N][kMaxDims];
  int d = 0;
  int64_t total = 1;
  for (int i = 0; i < nd; ++i) {
    if (shape[i] == 0) return;
    total *= shape[i];
    if (shape[i] == 1) continue;
    size[d] = shape[i];
    for (int k = 0; k < N; ++k) st[k][d] = ops[k]->strides[i] * int64_t(element_size(ops[k]->dtype));
    ++d;
  }
  // Merge dimension j into the previous one when every operand is dense across the pair, so
  // that contiguous tensors become one long run whatever their rank.
  int w = 0;
  for (int j = 1; j < d; ++j) {
    bool merge = true;
    for (int k = 0; k < N; ++k) merge = merge && st[k][w] == st[k][j] * size[j];
    if (merge) {
      size[w] *= size[j];
      for (int k = 0; k < N; ++k) st[k][w] = st[k][j];
    } else {
      ++w;
      size[w] = size[j];
      for (int k = 0; k < N; ++k) st[k][w] = st[k][j];
    }
  }
  d = d == 0 ? 0 : w + 1;
  std::array<char *, N> base;
  for (int k = 0; k < N; ++k) base[k] = ops[k]->data();
  if (d == 0) {
    int64_t zero[N] = {};
    inner(base.data(), zero, int64_t(1));
    return;
  }
  int64_t inner_strides[N];
  for (int k = 0; k < N; ++k) inner_strides[k] = st[k][d - 1];
  // Runs the odometer over outer dims, with dimension 0 restricted to [b0, e0) when d > 1, or
  // the single run restricted to [b0, e0) when d == 1.
  auto run_range = [&](int64_t b0, int64_t e0) {
    std::array<char *, N> p = base;
    for (int k = 0; k < N; ++k) p[k] += b0 * st[k][0];
    if (d == 1) {
      inner(p.data(), inner_strides, e0 - b0);
      return;
    }
    const int64_t n = size[d - 1];
    const int outer = d - 1;
    int64_t counter[kMaxDims] = {};
    counter[0] = b0;
    while (true) {
      inner(p.data(), inner_strides, n);
      // Stepping a dimension adds its stride, wrapping subtracts its extent: no per-element
      // index multiplications.
      int j = outer - 1;
      for (; j >= 0; --j) {
        const int64_t limit = j == 0 ? e0 : size[j];
        if (++counter[j] < limit) {
          for (int k = 0; k < N; ++k) p[k] += st[k][j];
          break;
        }
        if (j == 0) return;
        counter[j] = 0;
        for (int k = 0; k < N; ++k) p[k] -= st[k][j] * (size[j] - 1);
      }
      if (j < 0) return;
    }
  };
  if constexpr (Parallel) {
    if (total >= kParallelThreshold && st[0][0] != 0) {
      const int64_t per = total / size[0];
      parallel_for(size[0], std::max<int64_t>(1, (kParallelThreshold / 4) / std::max<int64_t>(per, 1)), run_range);
      return;
    }
  }
  run_range(0, size[0]);
}

/// Runs f.template operator()<T>() for the C++ type of `t`.
template <class F> void dispatch_all(ScalarType t, F &&f) {
  switch (t) {
  case ScalarType::Bool: f.template operator()<bool>(); return;
  case ScalarType::Byte: f.template operator()<uint8_t>(); return;
  case ScalarType::Char: f.template operator()<int8_t>(); return;
  case ScalarType::Short: f.template operator()<int16_t>(); return;
  case ScalarType::Int: f.template operator()<int32_t>(); return;
  case ScalarType::Long: f.template operator()<int64_t>(); return;
  case ScalarType::Float: f.template operator()<float>(); return;
  case ScalarType::Double: f.template operator()<double>(); return;
  default: throw Error(std::string("CPU kernel not implemented for dtype ") + to_string(t));
  }
}
/// dispatch_all and the 16-bit floating storage types, which only conversions handle.
template <class F> void dispatch_storage(ScalarType t, F &&f) {
  switch (t) {
  case ScalarType::Half: f.template operator()<Half>(); return;
  case ScalarType::BFloat16: f.template operator()<BFloat16>(); return;
  default: dispatch_all(t, f);
  }
}
template <class F> void dispatch_num(ScalarType t, F &&f) {
  switch (t) {
  case ScalarType::Byte: f.template operator()<uint8_t>(); return;
  case ScalarType::Char: f.template operator()<int8_t>(); return;
  case ScalarType::Short: f.template operator()<int16_t>(); return;
  case ScalarType::Int: f.template operator()<int32_t>(); return;
  case ScalarType::Long: f.template operator()<int64_t>(); return;
  case ScalarType::Float: f.template operator()<float>(); return;
  case ScalarType::Double: f.template operator()<double>(); return;
  default: throw Error(std::string("CPU kernel not implemented for dtype ") + to_string(t));
  }
}
template <class F> void dispatch_float(ScalarType t, F &&f) {
  switch (t) {
  case ScalarType::Float: f.template operator()<float>(); return;
  case ScalarType::Double: f.template operator()<double>(); return;
  default: throw Error(std::string("CPU kernel not implemented for dtype ") + to_string(t));
  }
}

/// Runs f.template operator()<T>() for the C++ type of `t`, over the dtype set ops.def declares
/// for `Op` (only those types are instantiated; another dtype throws, as the dispatchers above).
template <OpId Op, class F> void dispatch_for(ScalarType t, F &&f) {
  using namespace gfy::detail::ops_def;
  constexpr DtypeSet set = op_dtype_set(Op);
  if constexpr (set == FLT) dispatch_float(t, f);
  else if constexpr (set == NUM) dispatch_num(t, f);
  else if constexpr (set == INT) {
    dispatch_all(t, [&]<class T>() {
      if constexpr (std::is_floating_point_v<T>) throw Error(std::string("CPU kernel not implemented for dtype ") + to_string(t));
      else f.template operator()<T>();
    });
  } else dispatch_all(t, f);
}

/// How a (rows x cols) matrix with element strides (s0, s1) can be passed to BLAS without a
/// copy: row-major as is (trans = false) or as the transpose of a row-major matrix
/// (trans = true), with leading dimension `ld`. False when neither works.
inline bool blas_layout(int64_t rows, int64_t cols, int64_t s0, int64_t s1, bool &trans, int64_t &ld) {
  const int64_t r = rows > 1 ? rows : 1, c = cols > 1 ? cols : 1;
  if (s1 == 1 || cols <= 1) {
    ld = rows <= 1 ? c : s0;
    if (ld >= c) {
      trans = false;
      return true;
    }
  }
  if (s0 == 1 || rows <= 1) {
    ld = cols <= 1 ? r : s1;
    if (ld >= r) {
      trans = true;
      return true;
    }
  }
  return false;
}

// --- vectorizable float math -----------------------------------------------------------------
// glibc's expf/tanhf are scalar calls; these branch-free versions let the compiler vectorize the
// gate loops of an LSTM. Relative error is a few ulp over the clamped range.

#define GFY_ALWAYS_INLINE inline __attribute__((always_inline))
/// For kernel lambdas: inlined into the loop, so that the loop vectorizes.
#define GFY_LAMBDA_INLINE __attribute__((always_inline))

GFY_ALWAYS_INLINE float exp_fast(float in) {
  // Cephes-style: exp(x) = 2^n * p(r), r = x - n ln2, clamped so the bit trick stays in range;
  // the range ends and NaN are patched back with selects (vectorizable blends).
  float x = in > 88.3762626647949f ? 88.3762626647949f : in;
  x = x < -87.3365447504f ? -87.3365447504f : x;
  x = in != in ? 0.0f : x; // NaN would reach the int conversion below (undefined); patched back at the end
  // n = round(x / ln2) by the 1.5 * 2^23 trick: branch-free and vectorizable (floorf is a libm
  // call unless -ffast-math).
  float fx = x * 1.44269504088896341f;
  fx = (fx + 12582912.0f) - 12582912.0f;
  float r = x - fx * 0.693359375f;
  r = r + fx * 2.12194440e-4f;
  float r2 = r * r;
  float y = 1.9875691500E-4f;
  y = y * r + 1.3981999507E-3f;
  y = y * r + 8.3334519073E-3f;
  y = y * r + 4.1665795894E-2f;
  y = y * r + 1.6666665459E-1f;
  y = y * r + 5.0000001201E-1f;
  y = y * r2 + r + 1.0f;
  int32_t n = int32_t(fx) + 127;
  int32_t bits = n << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  float res = y * scale;
  res = in > 88.7228391f ? __builtin_inff() : res;
  res = in < -103.972084f ? 0.0f : res;
  res = in != in ? in : res;
  return res;
}
GFY_ALWAYS_INLINE double exp_fast(double x) { return std::exp(x); }

/// relu that propagates NaN, as LibTorch (`x > 0` is false for NaN).
template <class T> GFY_ALWAYS_INLINE T relu_fn(T x) { return (x > T(0) || x != x) ? x : T(0); }
template <class T> GFY_ALWAYS_INLINE T sigmoid_fn(T x) {
  if constexpr (std::is_same_v<T, float>) return 1.0f / (1.0f + exp_fast(-x));
  else return T(1) / (T(1) + std::exp(-x));
}
template <class T> GFY_ALWAYS_INLINE T tanh_fn(T x) {
  if constexpr (std::is_same_v<T, float>) {
    // tanh(x) = 1 - 2 / (exp(2x) + 1); near 0 that cancels, so use the odd series there.
    float big = 1.0f - 2.0f / (exp_fast(2.0f * x) + 1.0f);
    float x2 = x * x;
    float small = x * (1.0f + x2 * (-0.333333333f + x2 * (0.133333333f + x2 * -0.0539682540f)));
    return __builtin_fabsf(x) < 0.05f ? small : big;
  } else {
    return std::tanh(x);
  }
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
