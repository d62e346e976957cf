// The per-element functions of ops.def's map rows (GFY_MAP_OP): one function object per op,
// callable on the host and on the device, so the CPU kernel, the CUDA kernel and anything else
// that computes the op element by element compute the same thing. Everything else about a map op
// is generated from its ops.def row (see the comment there); adding one is its row and its
// derivative row in ops.def, its function here, a differential case against LibTorch and its
// name in docs/compat.md.
//
// `T` is the compute dtype (for the floating functions float or double: the front-end has
// promoted the inputs); what `operator()` returns is the output's type (bool for predicates). `sample_lo`
// and `sample_hi` say where the function is smooth and well conditioned; the generated tests
// draw their inputs there (and the backend-consistency rows also outside, where the result is
// NaN or infinite on every backend alike).
#pragma once

#include <cmath>
#include <type_traits>

#if defined(__CUDACC__)
#define GFY_ELEMENT_FN __host__ __device__
#else
#define GFY_ELEMENT_FN
#endif

// libm on the host; on the device CUDA's overloads of the same names (float calls the float
// version on both).
#if defined(__CUDA_ARCH__)
#define GFY_LIBM(fn) ::fn
#else
#define GFY_LIBM(fn) std::fn
#endif

namespace gfy::elem {

/// Inputs drawn from [-2, 2): the default for functions defined on every real.
struct AnyReal {
  static constexpr double sample_lo = -2, sample_hi = 2;
};

/// A unary function that is libm's function of the same name.
#define GFY_LIBM_UNARY(name, lo, hi)                                                               \
  struct name {                                                                                    \
    static constexpr double sample_lo = lo, sample_hi = hi;                                        \
    template <class T> GFY_ELEMENT_FN T operator()(T x) const { return GFY_LIBM(name)(x); }        \
  };
GFY_LIBM_UNARY(sin, -2, 2)
GFY_LIBM_UNARY(cos, -2, 2)
GFY_LIBM_UNARY(tan, -1, 1)
GFY_LIBM_UNARY(asin, -0.8, 0.8)
GFY_LIBM_UNARY(acos, -0.8, 0.8)
GFY_LIBM_UNARY(atan, -2, 2)
GFY_LIBM_UNARY(sinh, -2, 2)
GFY_LIBM_UNARY(cosh, -2, 2)
GFY_LIBM_UNARY(asinh, -2, 2)
GFY_LIBM_UNARY(acosh, 1.5, 3)
GFY_LIBM_UNARY(atanh, -0.8, 0.8)
GFY_LIBM_UNARY(erf, -2, 2)
GFY_LIBM_UNARY(erfc, -2, 2)
GFY_LIBM_UNARY(log1p, 0, 2)
GFY_LIBM_UNARY(expm1, -2, 2)
GFY_LIBM_UNARY(log2, 0.5, 3)
GFY_LIBM_UNARY(log10, 0.5, 3)
GFY_LIBM_UNARY(exp2, -2, 2)
#undef GFY_LIBM_UNARY

/// sin(pi x) / (pi x), and 1 at 0; the product rounded to T first, as LibTorch computes it.
struct sinc : AnyReal {
  template <class T> GFY_ELEMENT_FN T operator()(T x) const {
    if (x == T(0)) return T(1);
    const T product = T(3.14159265358979323846) * x;
    return GFY_LIBM(sin)(product) / product;
  }
};

/// atan2(y, x): the angle of (x, y).
struct atan2 : AnyReal {
  template <class T> GFY_ELEMENT_FN T operator()(T y, T x) const { return GFY_LIBM(atan2)(y, x); }
};
/// sqrt(x^2 + y^2) without undue overflow or underflow.
struct hypot : AnyReal {
  template <class T> GFY_ELEMENT_FN T operator()(T x, T y) const { return GFY_LIBM(hypot)(x, y); }
};

/// Predicates (promotion to_bool): any dtype in, bool out. Integers and bool are finite, never
/// NaN and (unsigned, bool) never negative.
struct isnan : AnyReal {
  template <class T> GFY_ELEMENT_FN bool operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) return x != x;
    else return false;
  }
};
struct isposinf : AnyReal {
  template <class T> GFY_ELEMENT_FN bool operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) return x > T(0) && GFY_LIBM(isinf)(x);
    else return false;
  }
};
struct isneginf : AnyReal {
  template <class T> GFY_ELEMENT_FN bool operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) return x < T(0) && GFY_LIBM(isinf)(x);
    else return false;
  }
};
/// The sign bit: true for -0.0 and -inf, and for a NaN whose sign bit is set.
struct signbit : AnyReal {
  template <class T> GFY_ELEMENT_FN bool operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) return GFY_LIBM(signbit)(x);
    else if constexpr (std::is_signed_v<T>) return x < T(0);
    else return false;
  }
};

} // namespace gfy::elem
