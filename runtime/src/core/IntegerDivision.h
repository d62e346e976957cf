// Integer fmod / remainder / floor_divide with LibTorch's results, shared by the CPU and CUDA
// kernels. The caller has already rejected a zero divisor. A divisor of -1 is answered without
// dividing: the minimum of a signed type divided by -1 overflows, which traps on x86 (SIGFPE)
// and is undefined elsewhere; LibTorch returns the wrapped quotient (the minimum itself) and a
// zero remainder.
#pragma once

#include <type_traits>

#if defined(__CUDACC__)
#define GFY_HOST_DEVICE __host__ __device__
#else
#define GFY_HOST_DEVICE
#endif

namespace gfy::detail {

template <class T> GFY_HOST_DEVICE constexpr bool is_minus_one(T y) {
  if constexpr (std::is_signed_v<T>) return y == T(-1);
  else return false;
}

/// x < 0, written so that unsigned types (uint8) do not compare with zero pointlessly.
template <class T> GFY_HOST_DEVICE constexpr bool is_negative(T x) {
  if constexpr (std::is_signed_v<T>) return x < T(0);
  else return false;
}

/// -x with two's-complement wrap-around (the minimum stays the minimum).
template <class T> GFY_HOST_DEVICE constexpr T wrapping_negate(T x) {
  using U = std::make_unsigned_t<T>;
  return T(U(0) - U(x));
}

/// C's truncated remainder, as std::fmod on integers.
template <class T> GFY_HOST_DEVICE constexpr T integer_fmod(T x, T y) { return is_minus_one(y) ? T(0) : T(x % y); }

/// Python's remainder: the sign of the divisor.
template <class T> GFY_HOST_DEVICE constexpr T integer_remainder(T x, T y) {
  const T r = integer_fmod(x, y);
  return (r != 0 && (is_negative(r) != is_negative(y))) ? T(r + y) : r;
}

/// Floor of x / y.
template <class T> GFY_HOST_DEVICE constexpr T integer_floor_divide(T x, T y) {
  if (is_minus_one(y)) return wrapping_negate(x);
  const T q = T(x / y);
  return (is_negative(x) != is_negative(y)) && T(x % y) != 0 ? T(q - 1) : q;
}

} // namespace gfy::detail
