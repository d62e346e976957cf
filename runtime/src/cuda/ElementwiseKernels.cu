// CUDA kernels for copies, fills, random numbers and elementwise math: each is one strided
// elementwise launch over operands already promoted and broadcast by the front-end, computing
// exactly what the CPU reference (src/cpu/ElementwiseKernels.cpp) computes per element. The
// transcendental functions are CUDA's correctly-rounded-within-few-ulp versions; the CPU uses
// its own fast exp/tanh, so the two agree to a few ulp, not bitwise.
#include "../core/ElementMath.h"
#include "../core/IntegerDivision.h"
#include "Kernels.cuh"

#include <cmath>
#include <cstring>

namespace gfy::cuda::detail {
namespace {

template <class O, class A, class F> struct UnaryApply {
  F f;
  __device__ void operator()(char **p) const { *reinterpret_cast<O *>(p[0]) = f(*reinterpret_cast<const A *>(p[1])); }
};
template <class O, class T, class F> struct BinaryApply {
  F f;
  __device__ void operator()(char **p) const {
    *reinterpret_cast<O *>(p[0]) = f(*reinterpret_cast<const T *>(p[1]), *reinterpret_cast<const T *>(p[2]));
  }
};

template <class O, class A, class F> void unary(const OpCall &c, const LaunchContext &ctx, F f) {
  const auto g = make_geometry<2>(I(c.out[0]).sizes, {&I(c.out[0]), &I(c.in[0])});
  launch_elementwise(g, UnaryApply<O, A, F>{f}, ctx.stream);
}
template <class O, class T, class F> void binary(const OpCall &c, const LaunchContext &ctx, F f) {
  const auto g = make_geometry<3>(I(c.out[0]).sizes, {&I(c.out[0]), &I(c.in[0]), &I(c.in[1])});
  launch_elementwise(g, BinaryApply<O, T, F>{f}, ctx.stream);
}

// --- functors (one per op; `T` is the compute dtype) ----------------------------------------------

/// Conversions from and to half and bfloat16 go through float, as the CPU reference's.
template <class O, class A> struct ConvertF {
  __device__ O operator()(A v) const {
    if constexpr (std::is_same_v<O, A>) return v;
    else if constexpr (is_reduced_floating_v<A>) return convert<O>(float(v));
    else if constexpr (is_reduced_floating_v<O>) return O(convert<float>(v));
    else return convert<O>(v);
  }
};
template <class T> struct AddF {
  T alpha;
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x || y;
    else return T(x + alpha * y);
  }
};
template <class T> struct SubF {
  T alpha;
  __device__ T operator()(T x, T y) const { return T(x - alpha * y); }
};
template <class T> struct MulF {
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x && y;
    else return T(x * y);
  }
};
template <class T> struct DivF {
  __device__ T operator()(T x, T y) const { return x / y; }
};
template <class T> struct PowF {
  DeviceErrorRecord *err;
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (y == T(2)) return x * x;
      return ::pow(x, y);
    } else {
      if constexpr (std::is_signed_v<T>) {
        if (y < 0) {
          if (x == 1) return T(1);
          if (x == -1) return T((y % 2) ? -1 : 1);
          report_error(err, kNegativeIntegerPower, 0, 0, 0);
          return T(0);
        }
      }
      T r = 1;
      for (T e = y; e > 0; e >>= 1, x *= x)
        if (e & 1) r *= x;
      return r;
    }
  }
};
#define GFY_CUDA_COMPARE_FUNCTOR(Name, expr)                                                       \
  template <class T> struct Name {                                                                 \
    __device__ bool operator()(T x, T y) const { return bool(expr); }                              \
  };
GFY_CUDA_COMPARE_FUNCTOR(EqF, x == y)
GFY_CUDA_COMPARE_FUNCTOR(NeF, x != y)
GFY_CUDA_COMPARE_FUNCTOR(LtF, x < y)
GFY_CUDA_COMPARE_FUNCTOR(LeF, x <= y)
GFY_CUDA_COMPARE_FUNCTOR(GtF, x > y)
GFY_CUDA_COMPARE_FUNCTOR(GeF, x >= y)
GFY_CUDA_COMPARE_FUNCTOR(LogicalAndF, (x != T(0)) && (y != T(0)))
GFY_CUDA_COMPARE_FUNCTOR(LogicalOrF, (x != T(0)) || (y != T(0)))
#undef GFY_CUDA_COMPARE_FUNCTOR
template <class T> struct BitAndF {
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x && y;
    else return T(x & y);
  }
};
template <class T> struct BitOrF {
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x || y;
    else return T(x | y);
  }
};
template <class T> struct BitXorF {
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, bool>) return x != y;
    else return T(x ^ y);
  }
};
template <class T> struct MaximumF {
  __device__ T operator()(T x, T y) const { return (x > y || is_nan(x)) ? x : y; }
};
template <class T> struct MinimumF {
  __device__ T operator()(T x, T y) const { return (x < y || is_nan(x)) ? x : y; }
};

// fmod / remainder / floor_divide: the CPU reference's formulas (LibTorch 1.13's); an integer
// zero divisor is reported, as the CPU throws.
template <class T> struct FmodF {
  DeviceErrorRecord *err;
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_floating_point_v<T>) {
      return ::fmod(x, y);
    } else {
      if (y == 0) {
        report_error(err, kIntegerDivisionByZero, 0, 0, 0);
        return T(0);
      }
      return gfy::detail::integer_fmod(x, y);
    }
  }
};
template <class T> struct RemainderF {
  DeviceErrorRecord *err;
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_floating_point_v<T>) {
      T m = ::fmod(x, y);
      if (m != 0 && ((y < 0) != (m < 0))) m += y;
      return m;
    } else {
      if (y == 0) {
        report_error(err, kIntegerDivisionByZero, 0, 0, 0);
        return T(0);
      }
      return gfy::detail::integer_remainder(x, y);
    }
  }
};
template <class T> struct FloorDivideF {
  DeviceErrorRecord *err;
  __device__ T operator()(T x, T y) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (y == 0) return x / y;
      const T m = ::fmod(x, y);
      T d = (x - m) / y;
      if (m != 0 && ((y < 0) != (m < 0))) d -= T(1);
      if (d == 0) return ::copysign(T(0), x / y);
      T f = ::floor(d);
      if (d - f > T(0.5)) f += T(1);
      return f;
    } else {
      if (y == 0) {
        report_error(err, kIntegerDivisionByZero, 0, 0, 0);
        return T(0);
      }
      return gfy::detail::integer_floor_divide(x, y);
    }
  }
};
template <class T> __device__ __forceinline__ T lerp_value(T a, T b, T w) {
  return (w < T(0.5) && w > T(-0.5)) ? a + w * (b - a) : b - (b - a) * (T(1) - w);
}
template <class T> struct LerpScalarF {
  T w;
  __device__ T operator()(T a, T b) const { return lerp_value(a, b, w); }
};
template <class T> struct LerpTensorApply {
  __device__ void operator()(char **p) const {
    *reinterpret_cast<T *>(p[0]) = lerp_value(*reinterpret_cast<const T *>(p[1]), *reinterpret_cast<const T *>(p[2]),
                                              *reinterpret_cast<const T *>(p[3]));
  }
};

#define GFY_CUDA_UNARY_FUNCTOR(Name, expr)                                                         \
  template <class T> struct Name {                                                                 \
    __device__ T operator()(T x) const { return T(expr); }                                         \
  };
GFY_CUDA_UNARY_FUNCTOR(NegF, -x)
GFY_CUDA_UNARY_FUNCTOR(AbsF, ::gfy::detail::is_negative(x) ? -x : x)
GFY_CUDA_UNARY_FUNCTOR(ExpF, ::exp(x))
GFY_CUDA_UNARY_FUNCTOR(LogF, ::log(x))
GFY_CUDA_UNARY_FUNCTOR(SqrtF, ::sqrt(x))
GFY_CUDA_UNARY_FUNCTOR(RsqrtF, T(1) / ::sqrt(x))
GFY_CUDA_UNARY_FUNCTOR(ReluF, (x > T(0) || is_nan(x)) ? x : T(0))
GFY_CUDA_UNARY_FUNCTOR(SigmoidF, T(1) / (T(1) + ::exp(-x)))
GFY_CUDA_UNARY_FUNCTOR(TanhF, ::tanh(x))
GFY_CUDA_UNARY_FUNCTOR(GeluErfF, T(0.5) * x * (T(1) + ::erf(x * T(0.7071067811865476))))
GFY_CUDA_UNARY_FUNCTOR(GeluTanhF, T(0.5) * x * (T(1) + ::tanh(T(0.7978845608028654) * (x + T(0.044715) * x * x * x))))
#undef GFY_CUDA_UNARY_FUNCTOR

template <class T> struct LogicalNotF {
  __device__ bool operator()(T x) const { return x == T(0); }
};
template <class T> struct BitNotF {
  __device__ T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) return !x;
    else return T(~x);
  }
};
template <class T> struct ClampF {
  bool has_lo, has_hi;
  T lo, hi;
  __device__ T operator()(T x) const {
    if (is_nan(x)) return x;
    if (has_lo && x < lo) x = lo;
    if (has_hi && x > hi) x = hi;
    return x;
  }
};

template <class T> struct WhereApply {
  __device__ void operator()(char **p) const {
    *reinterpret_cast<T *>(p[0]) =
        *reinterpret_cast<const bool *>(p[1]) ? *reinterpret_cast<const T *>(p[2]) : *reinterpret_cast<const T *>(p[3]);
  }
};
template <class T> struct MaskedFillApply {
  const T *value;
  __device__ void operator()(char **p) const {
    if (*reinterpret_cast<const bool *>(p[1])) *reinterpret_cast<T *>(p[0]) = *value;
  }
};
template <class T> struct FillApply {
  T v;
  __device__ void operator()(char **p) const { *reinterpret_cast<T *>(p[0]) = v; }
};

// --- random numbers: counter based (splitmix64 of seed and element counter) ------------------------

__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
__device__ __forceinline__ uint64_t random_bits(uint64_t seed, uint64_t counter) {
  return mix64(mix64(seed + 0x9e3779b97f4a7c15ULL) ^ (counter * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL));
}
__device__ __forceinline__ double random_unit(uint64_t seed, uint64_t counter) {
  return double(random_bits(seed, counter) >> 11) * 0x1.0p-53;
}

template <class T>
__global__ void uniform_kernel_impl(T *d, int64_t n, double lo, double hi, uint64_t seed, const unsigned long long *offset) {
  const uint64_t base = *offset;
  const double span = hi - lo;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    T v = static_cast<T>(lo + random_unit(seed, base + uint64_t(i)) * span);
    if (span > 0 && v >= static_cast<T>(hi)) v = ::nextafter(static_cast<T>(hi), static_cast<T>(lo));
    d[i] = v;
  }
}
template <class T>
__global__ void normal_kernel_impl(T *d, int64_t n, double mean, double std, uint64_t seed, const unsigned long long *offset) {
  const uint64_t base = *offset;
  const int64_t pairs = (n + 1) / 2;
  for (int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; j < pairs; j += int64_t(gridDim.x) * blockDim.x) {
    const double u1 = (double(random_bits(seed, base + uint64_t(2 * j)) >> 11) + 1.0) * 0x1.0p-53;
    const double u2 = random_unit(seed, base + uint64_t(2 * j + 1));
    const double r = ::sqrt(-2.0 * ::log(u1)), th = 2.0 * 3.14159265358979323846 * u2;
    d[2 * j] = static_cast<T>(mean + std * r * ::cos(th));
    if (2 * j + 1 < n) d[2 * j + 1] = static_cast<T>(mean + std * r * ::sin(th));
  }
}
template <class T>
__global__ void randint_kernel_impl(T *d, int64_t n, int64_t lo, uint64_t range, uint64_t seed, const unsigned long long *offset) {
  const uint64_t base = *offset;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    d[i] = static_cast<T>(lo + int64_t(random_bits(seed, base + uint64_t(i)) % range));
}
/// Stream-ordered after the draw, so the next draw (eager or in a later replay) starts past it.
__global__ void advance_offset_kernel(unsigned long long *offset, unsigned long long n) { *offset += n; }

void advance_offset(const LaunchContext &ctx, int64_t n) {
  advance_offset_kernel<<<1, 1, 0, ctx.stream>>>(ctx.offset, (unsigned long long)(n + 1) & ~1ULL);
  CUDA_CHECK_LAUNCH();
}

template <class T> __global__ void arange_kernel_impl(T *d, int64_t n, double start, double step) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    d[i] = convert<T>(start + double(i) * step); // -3 as uint8 is 253, as on the CPU
}

__global__ void small_copy_kernel(unsigned char *dst, const SmallCopy src, int n) {
  const int i = threadIdx.x;
  if (i < n) dst[i] = src.bytes[i];
}

} // namespace

void launch_small_copy(cudaStream_t s, void *dst, const SmallCopy &src, size_t n) {
  small_copy_kernel<<<1, SmallCopy::kMax, 0, s>>>(static_cast<unsigned char *>(dst), src, int(n));
  CUDA_CHECK_LAUNCH();
}

// --- op entry points ---------------------------------------------------------------------------------

void copy_cuda(OpCall &c, const LaunchContext &ctx) {
  const ScalarType ot = I(c.out[0]).dtype, it = I(c.in[0]).dtype;
  GFY_DISPATCH_STORAGE(ot, O, GFY_DISPATCH_STORAGE(it, A, unary<O, A>(c, ctx, ConvertF<O, A>{})))
}

void fill_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &o = I(c.out[0]);
  GFY_DISPATCH_ALL(o.dtype, T, {
    const T v = c.flag ? convert<T>(c.k) : convert<T>(c.alpha);
    launch_elementwise(make_geometry<1>(o.sizes, {&o}), FillApply<T>{v}, ctx.stream);
  })
}

void arange_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &o = I(c.out[0]); // out: (n), contiguous
  if (o.numel == 0) return;
  GFY_DISPATCH_NUM(o.dtype, T, {
    arange_kernel_impl<T><<<grid_for(o.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<T *>(o.data()), o.numel, c.alpha, c.beta);
    CUDA_CHECK_LAUNCH();
  })
}

void uniform_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &o = I(c.out[0]); // out: contiguous
  if (o.numel == 0) return;
  GFY_DISPATCH_FLOAT(o.dtype, T, {
    uniform_kernel_impl<T><<<grid_for(o.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<T *>(o.data()), o.numel, c.alpha, c.beta, ctx.seed, ctx.offset);
    CUDA_CHECK_LAUNCH();
  })
  advance_offset(ctx, o.numel);
}

void normal_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &o = I(c.out[0]);
  if (o.numel == 0) return;
  GFY_DISPATCH_FLOAT(o.dtype, T, {
    normal_kernel_impl<T><<<grid_for((o.numel + 1) / 2), kThreads, 0, ctx.stream>>>(reinterpret_cast<T *>(o.data()), o.numel, c.alpha, c.beta, ctx.seed, ctx.offset);
    CUDA_CHECK_LAUNCH();
  })
  advance_offset(ctx, o.numel);
}

void randint_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &o = I(c.out[0]);
  if (o.numel == 0) return;
  const int64_t lo = int64_t(c.alpha);
  const uint64_t range = uint64_t(int64_t(c.beta) - lo);
  GFY_DISPATCH_NUM(o.dtype, T, {
    randint_kernel_impl<T><<<grid_for(o.numel), kThreads, 0, ctx.stream>>>(reinterpret_cast<T *>(o.data()), o.numel, lo, range, ctx.seed, ctx.offset);
    CUDA_CHECK_LAUNCH();
  })
  advance_offset(ctx, o.numel);
}

void add_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_ALL(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, AddF<T>{static_cast<T>(c.alpha)}))
}
void sub_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_NUM(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, SubF<T>{static_cast<T>(c.alpha)}))
}
void mul_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_ALL(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, MulF<T>{})) }
void div_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_FLOAT(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, DivF<T>{})) }
void pow_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_NUM(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, PowF<T>{ctx.error}))
}

#define GFY_CUDA_COMPARE(name, F)                                                                  \
  void name##_cuda(OpCall &c, const LaunchContext &ctx) {                                          \
    GFY_DISPATCH_ALL(I(c.in[0]).dtype, T, binary<bool, T>(c, ctx, F<T>{}))                         \
  }
GFY_CUDA_COMPARE(eq, EqF)
GFY_CUDA_COMPARE(ne, NeF)
GFY_CUDA_COMPARE(lt, LtF)
GFY_CUDA_COMPARE(le, LeF)
GFY_CUDA_COMPARE(gt, GtF)
GFY_CUDA_COMPARE(ge, GeF)
GFY_CUDA_COMPARE(logical_and, LogicalAndF)
GFY_CUDA_COMPARE(logical_or, LogicalOrF)
#undef GFY_CUDA_COMPARE

void bitwise_and_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_INT(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, BitAndF<T>{}))
}
void bitwise_or_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_INT(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, BitOrF<T>{}))
}
void bitwise_xor_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_INT(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, BitXorF<T>{}))
}
void fmod_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_NUM(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, FmodF<T>{ctx.error}))
}
void remainder_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_NUM(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, RemainderF<T>{ctx.error}))
}
void floor_divide_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_NUM(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, FloorDivideF<T>{ctx.error}))
}
void maximum_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_ALL(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, MaximumF<T>{})) }
void minimum_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_ALL(I(c.out[0]).dtype, T, binary<T, T>(c, ctx, MinimumF<T>{})) }

#define GFY_CUDA_UNARY(name, DISPATCH, F)                                                          \
  void name##_cuda(OpCall &c, const LaunchContext &ctx) { DISPATCH(I(c.out[0]).dtype, T, unary<T, T>(c, ctx, F<T>{})) }
GFY_CUDA_UNARY(neg, GFY_DISPATCH_NUM, NegF)
GFY_CUDA_UNARY(abs, GFY_DISPATCH_NUM, AbsF)
GFY_CUDA_UNARY(exp, GFY_DISPATCH_FLOAT, ExpF)
GFY_CUDA_UNARY(log, GFY_DISPATCH_FLOAT, LogF)
GFY_CUDA_UNARY(sqrt, GFY_DISPATCH_FLOAT, SqrtF)
GFY_CUDA_UNARY(rsqrt, GFY_DISPATCH_FLOAT, RsqrtF)
GFY_CUDA_UNARY(relu, GFY_DISPATCH_NUM, ReluF)
GFY_CUDA_UNARY(sigmoid, GFY_DISPATCH_FLOAT, SigmoidF)
GFY_CUDA_UNARY(tanh, GFY_DISPATCH_FLOAT, TanhF)
GFY_CUDA_UNARY(bitwise_not, GFY_DISPATCH_INT, BitNotF)
#undef GFY_CUDA_UNARY

#define GFY_MAP_RESULT_unary(F, T) decltype(F{}(T{}))
#define GFY_MAP_RESULT_binary(F, T) decltype(F{}(T{}, T{}))
// Maps (ops.def's GFY_MAP_OP rows): one launch of the op's per-element function
// (core/ElementMath.h), the one the CPU reference runs.
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits)                                          \
  void name##_cuda(OpCall &c, const LaunchContext &ctx) {                                          \
    using F = ::gfy::elem::name;                                                                   \
    GFY_DISPATCH_##dtypes(I(c.in[0]).dtype, T, kind<GFY_MAP_RESULT_##kind(F, T), T>(c, ctx, F{}))   \
  }
#include <graphify/ops.def>
#undef GFY_MAP_OP
#undef GFY_OP
#undef GFY_MAP_RESULT_binary
#undef GFY_MAP_RESULT_unary

void gelu_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_FLOAT(I(c.out[0]).dtype, T, {
    if (c.flag) unary<T, T>(c, ctx, GeluTanhF<T>{});
    else unary<T, T>(c, ctx, GeluErfF<T>{});
  })
}
void logical_not_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_ALL(I(c.in[0]).dtype, T, unary<bool, T>(c, ctx, LogicalNotF<T>{}))
}

void clamp_cuda(OpCall &c, const LaunchContext &ctx) {
  GFY_DISPATCH_NUM(I(c.out[0]).dtype, T,
                   unary<T, T>(c, ctx, ClampF<T>{c.flag, c.flag2, static_cast<T>(c.alpha), static_cast<T>(c.beta)}))
}

void where_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &out = I(c.out[0]);
  const auto g = make_geometry<4>(out.sizes, {&out, &I(c.in[0]), &I(c.in[1]), &I(c.in[2])});
  GFY_DISPATCH_ALL(out.dtype, T, launch_elementwise(g, WhereApply<T>{}, ctx.stream))
}

void lerp_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &out = I(c.out[0]);
  GFY_DISPATCH_FLOAT(out.dtype, T, {
    if (c.flag)
      launch_elementwise(make_geometry<4>(out.sizes, {&out, &I(c.in[0]), &I(c.in[1]), &I(c.in[2])}), LerpTensorApply<T>{},
                         ctx.stream);
    else binary<T, T>(c, ctx, LerpScalarF<T>{static_cast<T>(c.alpha)});
  })
}

void masked_fill_cuda(OpCall &c, const LaunchContext &ctx) {
  // in2 is the 0-d fill value on the device: read by the kernel, so a replay picks up a value
  // written into it after capture.
  const TensorImpl &out = I(c.out[0]);
  const auto g = make_geometry<2>(out.sizes, {&out, &I(c.in[1])});
  GFY_DISPATCH_ALL(out.dtype, T,
                   launch_elementwise(g, MaskedFillApply<T>{reinterpret_cast<const T *>(I(c.in[2]).data())}, ctx.stream))
}

} // namespace gfy::cuda::detail
