#pragma once
/// \file
/// The 16-bit floating element types, as c10::Half and c10::BFloat16: IEEE binary16 (5 exponent
/// bits, 10 of mantissa) and bfloat16 (float's 8 exponent bits, 7 of mantissa). They are storage
/// types: a value converts to float for arithmetic and back with round-to-nearest-even, as
/// LibTorch's CPU kernels compute in float (their "opmath" type) and round the result once.
///
/// \code
///   gfy::Half h = 0.1f;               // rounds to 0.0999755859375
///   float f = h * 2;                  // arithmetic is float's
///   gfy::Tensor t = gfy::ones({2}, gfy::kHalf);
/// \endcode

#include <cstdint>
#include <cstring>
#include <ostream>

// The CUDA kernels convert with the same functions.
#ifndef GFY_HOST_DEVICE
#if defined(__CUDACC__)
#define GFY_HOST_DEVICE __host__ __device__
#else
#define GFY_HOST_DEVICE
#endif
#endif

namespace gfy {
namespace detail {

GFY_HOST_DEVICE inline uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}
GFY_HOST_DEVICE inline float bits_float(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

/// `q` (the kept bits) rounded to nearest, ties to even, by the `shift` bits dropped from `m`.
GFY_HOST_DEVICE inline uint32_t round_shift_even(uint32_t m, int shift) {
  const uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  return q + (rem > half || (rem == half && (q & 1u)));
}

GFY_HOST_DEVICE inline uint16_t half_from_float(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000u, mag = x & 0x7fffffffu;
  if (mag >= 0x7f800000u) return uint16_t(sign | (mag > 0x7f800000u ? 0x7e00u : 0x7c00u)); // NaN, inf
  if (mag >= 0x477ff000u) return uint16_t(sign | 0x7c00u); // 65520 and above round to infinity
  const int exp = int(mag >> 23);
  if (exp < 113) { // below 2^-14: a subnormal half, in units of 2^-24
    const int shift = 126 - exp;
    if (shift > 24) return uint16_t(sign);
    return uint16_t(sign | round_shift_even((mag & 0x7fffffu) | 0x800000u, shift));
  }
  // A carry out of the mantissa moves into the exponent, which is the right encoding.
  return uint16_t(sign | round_shift_even((uint32_t(exp - 112) << 23) | (mag & 0x7fffffu), 13));
}

GFY_HOST_DEVICE inline float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 31) return bits_float(sign | 0x7f800000u | (mant << 13));
  if (exp != 0) return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
  if (mant == 0) return bits_float(sign);
  int e = 0; // a subnormal: normalise the mantissa
  while (!(mant & 0x400u)) {
    mant <<= 1;
    ++e;
  }
  return bits_float(sign | (uint32_t(113 - e) << 23) | ((mant & 0x3ffu) << 13));
}

GFY_HOST_DEVICE inline uint16_t bfloat16_from_float(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t(((x >> 16) & 0x8000u) | 0x7fc0u); // NaN
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
GFY_HOST_DEVICE inline float bfloat16_to_float(uint16_t b) { return bits_float(uint32_t(b) << 16); }

} // namespace detail

/// IEEE binary16 (c10::Half).
struct alignas(2) Half {
  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return {}; }

  uint16_t x = 0;
  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  GFY_HOST_DEVICE Half(float v) : x(detail::half_from_float(v)) {}
  GFY_HOST_DEVICE operator float() const { return detail::half_to_float(x); }
};

/// bfloat16 (c10::BFloat16): float's range with 8 bits of precision.
struct alignas(2) BFloat16 {
  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return {}; }

  uint16_t x = 0;
  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  GFY_HOST_DEVICE BFloat16(float v) : x(detail::bfloat16_from_float(v)) {}
  GFY_HOST_DEVICE operator float() const { return detail::bfloat16_to_float(x); }
};

/// Printed as the float they hold, as c10's.
inline std::ostream &operator<<(std::ostream &os, Half h) { return os << float(h); }
inline std::ostream &operator<<(std::ostream &os, BFloat16 b) { return os << float(b); }

/// Whether T is one of the 16-bit floating storage types.
template <class T> inline constexpr bool is_reduced_floating_v = false;
template <> inline constexpr bool is_reduced_floating_v<Half> = true;
template <> inline constexpr bool is_reduced_floating_v<BFloat16> = true;

} // namespace gfy
