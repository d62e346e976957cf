// div with a rounding mode (LibTorch's `div(a, b, rounding_mode)`): composed from the ops that
// already carry each rounding, so every backend and the capture tape get it without a kernel.
#include "OpsCommon.h"

#include <string_view>

namespace gfy {

namespace {

enum class Rounding { None, Trunc, Floor };

Rounding roundingOf(std::optional<std::string_view> mode) {
  if (!mode)
    return Rounding::None;
  if (*mode == "trunc")
    return Rounding::Trunc;
  if (*mode == "floor")
    return Rounding::Floor;
  throw Error(detail::str_cat("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode, "'"));
}

/// Integers: a - fmod(a, b) is a multiple of b no larger than |a| (no overflow), so the floor of
/// its quotient is the truncated quotient; fmod throws on an integer zero divisor, as LibTorch's
/// integer division does. Floats: the true quotient truncated, as LibTorch computes it.
template <class B> Tensor truncDivide(const Tensor &a, const B &b, ScalarType common) {
  if (isIntegralType(common, /*include_bool=*/true))
    return floor_divide(a - fmod(a, b), b);
  return trunc(div(a, b));
}

template <class B> Tensor roundedDivide(const Tensor &a, const B &b, std::optional<std::string_view> mode) {
  switch (roundingOf(mode)) {
  case Rounding::None:
    return div(a, b);
  case Rounding::Floor:
    return floor_divide(a, b);
  case Rounding::Trunc:
    break;
  }
  detail::check_defined(a, "self");
  return truncDivide(a, b, result_type(a, b));
}

} // namespace

Tensor div(const Tensor &a, const Tensor &b, std::optional<std::string_view> rounding_mode) {
  return roundedDivide(a, b, rounding_mode);
}
Tensor div(const Tensor &a, const Scalar &b, std::optional<std::string_view> rounding_mode) {
  return roundedDivide(a, b, rounding_mode);
}

} // namespace gfy
