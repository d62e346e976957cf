// CPU reference kernels for copies, fills, random numbers and elementwise math. Every kernel
// receives operands already broadcast to the output's shape and already converted to one compute
// dtype (the front-end did it), so each is one loop_nd with a contiguous fast path.
#include "../core/ElementMath.h"
#include "../core/IntegerDivision.h"
#include "Generator.h"
#include "Kernels.h"
#include "Loops.h"

#include <graphify/core/Functions.h>

#include <limits>
#include <mutex>
#include <random>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {

const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

template <class O, class In> inline O convert(In v) {
  if constexpr (std::is_same_v<O, bool>) {
    return v != In(0);
  } else if constexpr (std::is_integral_v<O> && std::is_floating_point_v<In> && sizeof(O) < 4) {
    // Narrow integers go through int32 and keep its low bits, as x86's conversion (and so
    // LibTorch on x86) does: 300.2 -> uint8 44, -1.5 -> 255, NaN -> 0.
    return static_cast<O>(convert<int32_t>(v));
  } else if constexpr (std::is_integral_v<O> && std::is_floating_point_v<In>) {
    // A float with no value in O (NaN, infinities, out of range) is undefined in C++; give what
    // x86's truncating conversion gives, and so LibTorch on x86: the minimum of O.
    constexpr In Lo = In(std::numeric_limits<O>::min()), HiExclusive = -In(std::numeric_limits<O>::min());
    return v >= Lo && v < HiExclusive ? static_cast<O>(v) : std::numeric_limits<O>::min();
  } else {
    return static_cast<O>(v);
  }
}

/// out = f(a) elementwise; `O` and `A` may differ (conversions, predicates).
template <class O, class A, class F> void unary_loop(const Tensor &out, const Tensor &a, F f) {
  loop_nd<2, true>(I(out).sizes, {&I(out), &I(a)}, [&](char **p, const int64_t *s, int64_t n) {
    O *o = reinterpret_cast<O *>(p[0]);
    const A *x = reinterpret_cast<const A *>(p[1]);
    if (s[0] == int64_t(sizeof(O)) && s[1] == int64_t(sizeof(A))) {
      for (int64_t i = 0; i < n; ++i) o[i] = f(x[i]);
    } else if (s[0] == int64_t(sizeof(O)) && s[1] == 0) {
      const O v = f(*x);
      for (int64_t i = 0; i < n; ++i) o[i] = v;
    } else {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<O *>(p[0] + i * s[0]) = f(*reinterpret_cast<const A *>(p[1] + i * s[1]));
    }
  });
}

/// out = f(a, b) elementwise, with fast paths for dense operands and for one scalar operand.
template <class O, class T, class F> void binary_loop(const Tensor &out, const Tensor &a, const Tensor &b, F f) {
  loop_nd<3, true>(I(out).sizes, {&I(out), &I(a), &I(b)}, [&](char **p, const int64_t *s, int64_t n) {
    O *o = reinterpret_cast<O *>(p[0]);
    const T *x = reinterpret_cast<const T *>(p[1]);
    const T *y = reinterpret_cast<const T *>(p[2]);
    constexpr int64_t so = sizeof(O), st = sizeof(T);
    if (s[0] == so) {
      if (s[1] == st && s[2] == st) {
        for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
        return;
      }
      if (s[1] == st && s[2] == 0) {
        const T yv = *y;
        for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], yv);
        return;
      }
      if (s[1] == 0 && s[2] == st) {
        const T xv = *x;
        for (int64_t i = 0; i < n; ++i) o[i] = f(xv, y[i]);
        return;
      }
    }
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<O *>(p[0] + i * s[0]) =
          f(*reinterpret_cast<const T *>(p[1] + i * s[1]), *reinterpret_cast<const T *>(p[2] + i * s[2]));
  });
}

template <class T> inline bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

} // namespace

// --- copies, fills, ranges, random ---------------------------------------------------------------

/// Conversions from and to half and bfloat16 go through float, as LibTorch's do.
template <class O, class A> inline O convert_storage(A v) {
  if constexpr (std::is_same_v<O, A>) return v;
  else if constexpr (is_reduced_floating_v<A>) return convert<O>(float(v));
  else if constexpr (is_reduced_floating_v<O>) return O(convert<float>(v));
  else return convert<O>(v);
}

void copy_kernel(OpCall &c) {
  const Tensor &out = c.out[0], &in = c.in[0];
  dispatch_storage(I(out).dtype, [&]<class O>() {
    // A lambda, not the function's address: through a pointer the conversion is an indirect call
    // per element (the copy of a strided view ran at ~1 GB/s); inlined, same-type copies vectorize.
    dispatch_storage(I(in).dtype, [&]<class A>() {
      unary_loop<O, A>(out, in, [](A v) { return convert_storage<O, A>(v); });
    });
  });
}

void fill_kernel(OpCall &c) {
  const TensorImpl &o = I(c.out[0]);
  dispatch_all(o.dtype, [&]<class T>() {
    const T v = c.flag ? convert<T>(c.k) : convert<T>(c.alpha);
    loop_nd<1>(o.sizes, {&o}, [&](char **p, const int64_t *s, int64_t n) {
      if (s[0] == int64_t(sizeof(T))) {
        T *d = reinterpret_cast<T *>(p[0]);
        for (int64_t i = 0; i < n; ++i) d[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T *>(p[0] + i * s[0]) = v;
      }
    });
  });
}

void arange_kernel(OpCall &c) {
  const TensorImpl &o = I(c.out[0]); // out: (n), contiguous
  dispatch_num(o.dtype, [&]<class T>() {
    T *d = reinterpret_cast<T *>(o.data());
    for (int64_t i = 0; i < o.numel; ++i) d[i] = static_cast<T>(c.alpha + double(i) * c.beta);
  });
}

void uniform_kernel(OpCall &c) {
  const TensorImpl &o = I(c.out[0]); // out: contiguous
  auto &gen = detail::generator();
  dispatch_float(o.dtype, [&]<class T>() {
    T *d = reinterpret_cast<T *>(o.data());
    const double lo = c.alpha, span = c.beta - c.alpha;
    for (int64_t i = 0; i < o.numel; ++i) {
      const double u = double(gen() >> 11) * 0x1.0p-53;
      T v = static_cast<T>(lo + u * span);
      // Rounding to float can reach the excluded upper bound; keep the interval half-open.
      if (span > 0 && v >= static_cast<T>(c.beta)) v = std::nextafter(static_cast<T>(c.beta), static_cast<T>(lo));
      d[i] = v;
    }
  });
}

void normal_kernel(OpCall &c) {
  const TensorImpl &o = I(c.out[0]);
  auto &gen = detail::generator();
  dispatch_float(o.dtype, [&]<class T>() {
    T *d = reinterpret_cast<T *>(o.data());
    // Box-Muller, two values per pair of uniforms.
    for (int64_t i = 0; i < o.numel; i += 2) {
      const double u1 = (double(gen() >> 11) + 1.0) * 0x1.0p-53, u2 = double(gen() >> 11) * 0x1.0p-53;
      const double r = std::sqrt(-2.0 * std::log(u1)), th = 2.0 * M_PI * u2;
      d[i] = static_cast<T>(c.alpha + c.beta * r * std::cos(th));
      if (i + 1 < o.numel) d[i + 1] = static_cast<T>(c.alpha + c.beta * r * std::sin(th));
    }
  });
}

void randint_kernel(OpCall &c) {
  const TensorImpl &o = I(c.out[0]);
  auto &gen = detail::generator();
  const int64_t lo = int64_t(c.alpha);
  const uint64_t range = uint64_t(int64_t(c.beta) - lo);
  dispatch_num(o.dtype, [&]<class T>() {
    T *d = reinterpret_cast<T *>(o.data());
    for (int64_t i = 0; i < o.numel; ++i) d[i] = static_cast<T>(lo + int64_t(gen() % range));
  });
}

// --- binary ------------------------------------------------------------------------------------

void add_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](bool x, bool y) { return x || y; });
    } else if (c.alpha == 1.0) {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return T(x + y); });
    } else {
      const T al = static_cast<T>(c.alpha);
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [al](T x, T y) { return T(x + al * y); });
    }
  });
}

void sub_kernel(OpCall &c) {
  dispatch_num(I(c.out[0]).dtype, [&]<class T>() {
    const T al = static_cast<T>(c.alpha);
    if (c.alpha == 1.0) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return T(x - y); });
    else binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [al](T x, T y) { return T(x - al * y); });
  });
}

void mul_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](bool x, bool y) { return x && y; });
    else binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return T(x * y); });
  });
}

void div_kernel(OpCall &c) {
  dispatch_float(I(c.out[0]).dtype, [&]<class T>() { binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return x / y; }); });
}

void pow_kernel(OpCall &c) {
  dispatch_num(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) {
        if (y == T(2)) return x * x;
        return std::pow(x, y);
      });
    } else {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) {
        if (y < 0) {
          if (x == 1) return T(1);
          if (x == -1) return T((y % 2) ? -1 : 1);
          throw Error("Integers to negative integer powers are not allowed.");
        }
        T r = 1;
        for (T e = y; e > 0; e >>= 1, x *= x)
          if (e & 1) r *= x;
        return r;
      });
    }
  });
}

#define GFY_COMPARE_KERNEL(name, expr)                                                             \
  void name##_kernel(OpCall &c) {                                                                  \
    dispatch_all(I(c.in[0]).dtype, [&]<class T>() {                                                \
      binary_loop<bool, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return bool(expr); });       \
    });                                                                                            \
  }
GFY_COMPARE_KERNEL(eq, x == y)
GFY_COMPARE_KERNEL(ne, x != y)
GFY_COMPARE_KERNEL(lt, x < y)
GFY_COMPARE_KERNEL(le, x <= y)
GFY_COMPARE_KERNEL(gt, x > y)
GFY_COMPARE_KERNEL(ge, x >= y)
GFY_COMPARE_KERNEL(logical_and, (x != T(0)) && (y != T(0)))
GFY_COMPARE_KERNEL(logical_or, (x != T(0)) || (y != T(0)))
#undef GFY_COMPARE_KERNEL

void bitwise_and_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](bool x, bool y) { return x && y; });
    else if constexpr (std::is_integral_v<T>) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return T(x & y); });
  });
}
void bitwise_or_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](bool x, bool y) { return x || y; });
    else if constexpr (std::is_integral_v<T>) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return T(x | y); });
  });
}
void bitwise_xor_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](bool x, bool y) { return x != y; });
    else if constexpr (std::is_integral_v<T>) binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return T(x ^ y); });
  });
}

void maximum_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return (x > y || is_nan(x)) ? x : y; });
  });
}
void minimum_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return (x < y || is_nan(x)) ? x : y; });
  });
}


// Integer fmod/remainder/floor_divide throw on a zero divisor as LibTorch does ("ZeroDivisionError");
// floating ones follow IEEE (NaN or +-inf). The formulas are LibTorch 1.13's, so signed zeros and
// infinite operands come out the same.
void fmod_kernel(OpCall &c) {
  dispatch_num(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) { return std::fmod(x, y); });
    } else {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) {
        if (y == 0) throw Error("ZeroDivisionError");
        return gfy::detail::integer_fmod(x, y);
      });
    }
  });
}
void remainder_kernel(OpCall &c) {
  dispatch_num(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) {
        T m = std::fmod(x, y);
        if (m != 0 && ((y < 0) != (m < 0))) m += y;
        return m;
      });
    } else {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) {
        if (y == 0) throw Error("ZeroDivisionError");
        return gfy::detail::integer_remainder(x, y);
      });
    }
  });
}
void floor_divide_kernel(OpCall &c) {
  dispatch_num(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T>) {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) {
        if (y == 0) return x / y;
        // (x - fmod(x, y)) / y is exact up to rounding; the correction and the final rounding
        // step keep a quotient such as 0.3 / 0.1 from landing one below the true floor.
        const T m = std::fmod(x, y);
        T d = (x - m) / y;
        if (m != 0 && ((y < 0) != (m < 0))) d -= T(1);
        if (d == 0) return std::copysign(T(0), x / y);
        T f = std::floor(d);
        if (d - f > T(0.5)) f += T(1);
        return f;
      });
    } else {
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [](T x, T y) {
        if (y == 0) throw Error("ZeroDivisionError");
        return gfy::detail::integer_floor_divide(x, y);
      });
    }
  });
}

// --- unary -------------------------------------------------------------------------------------

#define GFY_UNARY_KERNEL(name, dispatcher, expr)                                                   \
  void name##_kernel(OpCall &c) {                                                                  \
    dispatcher(I(c.out[0]).dtype, [&]<class T>() { unary_loop<T, T>(c.out[0], c.in[0], [](T x) GFY_LAMBDA_INLINE { return T(expr); }); }); \
  }
GFY_UNARY_KERNEL(neg, dispatch_num, -x)
GFY_UNARY_KERNEL(abs, dispatch_num, x < 0 ? -x : x)
GFY_UNARY_KERNEL(exp, dispatch_float, exp_fast(x))
GFY_UNARY_KERNEL(log, dispatch_float, std::log(x))
GFY_UNARY_KERNEL(sqrt, dispatch_float, std::sqrt(x))
GFY_UNARY_KERNEL(rsqrt, dispatch_float, T(1) / std::sqrt(x))
GFY_UNARY_KERNEL(relu, dispatch_num, relu_fn(x))
GFY_UNARY_KERNEL(sigmoid, dispatch_float, sigmoid_fn(x))
GFY_UNARY_KERNEL(tanh, dispatch_float, tanh_fn(x))
#undef GFY_UNARY_KERNEL

// --- maps (ops.def's GFY_MAP_OP rows) -----------------------------------------------------------
// One loop over the op's per-element function (core/ElementMath.h), which the CUDA kernel shares.
// They call libm: accuracy first (exp_fast above is for the hot exp/sigmoid/tanh of LSTM gates
// only). Domain errors give NaN, poles +-inf, as in LibTorch.

template <OpId Op, class F> void map_unary(OpCall &c, F f) {
  dispatch_for<Op>(I(c.in[0]).dtype, [&]<class T>() { unary_loop<std::invoke_result_t<F, T>, T>(c.out[0], c.in[0], f); });
}
template <OpId Op, class F> void map_binary(OpCall &c, F f) {
  dispatch_for<Op>(I(c.in[0]).dtype, [&]<class T>() {
    binary_loop<std::invoke_result_t<F, T, T>, T>(c.out[0], c.in[0], c.in[1], f);
  });
}
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits)                                          \
  void name##_kernel(OpCall &c) { map_##kind<OpId::name>(c, elem::name{}); }
#include <graphify/ops.def>
#undef GFY_MAP_OP
#undef GFY_OP

void gelu_kernel(OpCall &c) {
  dispatch_float(I(c.out[0]).dtype, [&]<class T>() {
    if (c.flag) {
      unary_loop<T, T>(c.out[0], c.in[0], [](T x) {
        const T k = T(0.7978845608028654), inner = k * (x + T(0.044715) * x * x * x);
        return T(0.5) * x * (T(1) + tanh_fn(inner));
      });
    } else {
      unary_loop<T, T>(c.out[0], c.in[0], [](T x) { return T(0.5) * x * (T(1) + std::erf(x * T(0.7071067811865476))); });
    }
  });
}

void logical_not_kernel(OpCall &c) {
  dispatch_all(I(c.in[0]).dtype, [&]<class T>() { unary_loop<bool, T>(c.out[0], c.in[0], [](T x) { return x == T(0); }); });
}
void bitwise_not_kernel(OpCall &c) {
  dispatch_all(I(c.out[0]).dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) unary_loop<T, T>(c.out[0], c.in[0], [](bool x) { return !x; });
    else if constexpr (std::is_integral_v<T>) unary_loop<T, T>(c.out[0], c.in[0], [](T x) { return T(~x); });
  });
}

void clamp_kernel(OpCall &c) {
  dispatch_num(I(c.out[0]).dtype, [&]<class T>() {
    const bool has_lo = c.flag, has_hi = c.flag2;
    const T lo = static_cast<T>(c.alpha), hi = static_cast<T>(c.beta);
    unary_loop<T, T>(c.out[0], c.in[0], [=](T x) {
      if (is_nan(x)) return x;
      if (has_lo && x < lo) x = lo;
      if (has_hi && x > hi) x = hi;
      return x;
    });
  });
}

// --- ternary -----------------------------------------------------------------------------------

void where_kernel(OpCall &c) {
  const Tensor &out = c.out[0];
  dispatch_all(I(out).dtype, [&]<class T>() {
    loop_nd<4, true>(I(out).sizes, {&I(out), &I(c.in[0]), &I(c.in[1]), &I(c.in[2])},
               [&](char **p, const int64_t *s, int64_t n) {
                 constexpr int64_t st = sizeof(T);
                 if (s[0] == st && s[1] == 1 && s[2] == st && s[3] == st) {
                   T *o = reinterpret_cast<T *>(p[0]);
                   const bool *m = reinterpret_cast<const bool *>(p[1]);
                   const T *a = reinterpret_cast<const T *>(p[2]), *b = reinterpret_cast<const T *>(p[3]);
                   for (int64_t i = 0; i < n; ++i) o[i] = m[i] ? a[i] : b[i];
                   return;
                 }
                 for (int64_t i = 0; i < n; ++i)
                   *reinterpret_cast<T *>(p[0] + i * s[0]) = *reinterpret_cast<const bool *>(p[1] + i * s[1])
                                                                 ? *reinterpret_cast<const T *>(p[2] + i * s[2])
                                                                 : *reinterpret_cast<const T *>(p[3] + i * s[3]);
               });
  });
}

void masked_fill_kernel(OpCall &c) {
  const Tensor &out = c.out[0];
  dispatch_all(I(out).dtype, [&]<class T>() {
    const T v = *reinterpret_cast<const T *>(I(c.in[2]).data());
    loop_nd<2>(I(out).sizes, {&I(out), &I(c.in[1])}, [&](char **p, const int64_t *s, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        if (*reinterpret_cast<const bool *>(p[1] + i * s[1])) *reinterpret_cast<T *>(p[0] + i * s[0]) = v;
    });
  });
}

void lerp_kernel(OpCall &c) {
  // LibTorch's formula: from whichever end is nearer the weight, so that w = 0 gives in0 and
  // w = 1 gives in1 exactly.
  auto lerp = []<class T>(T a, T b, T w) GFY_LAMBDA_INLINE {
    return (w < T(0.5) && w > T(-0.5)) ? a + w * (b - a) : b - (b - a) * (T(1) - w);
  };
  dispatch_float(I(c.out[0]).dtype, [&]<class T>() {
    if (!c.flag) {
      const T w = static_cast<T>(c.alpha);
      binary_loop<T, T>(c.out[0], c.in[0], c.in[1], [=](T a, T b) { return lerp(a, b, w); });
      return;
    }
    loop_nd<4, true>(I(c.out[0]).sizes, {&I(c.out[0]), &I(c.in[0]), &I(c.in[1]), &I(c.in[2])},
                     [&](char **p, const int64_t *s, int64_t n) {
                       for (int64_t i = 0; i < n; ++i)
                         *reinterpret_cast<T *>(p[0] + i * s[0]) =
                             lerp(*reinterpret_cast<const T *>(p[1] + i * s[1]), *reinterpret_cast<const T *>(p[2] + i * s[2]),
                                  *reinterpret_cast<const T *>(p[3] + i * s[3]));
                     });
  });
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
