#include "graphify/validate/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace graphify::validate {

bool closeEnough(double A, double E, const Tolerance &Tol) {
  if (std::isnan(A) || std::isnan(E))
    return std::isnan(A) && std::isnan(E);
  if (std::isinf(A) || std::isinf(E))
    return A == E;
  return std::fabs(A - E) <= Tol.AbsTol + Tol.RelTol * std::fabs(E);
}

static std::string shapeText(const HostTensor &T) {
  std::string S = "[";
  for (size_t I = 0; I < T.Shape.size(); ++I)
    S += (I ? "," : "") + std::to_string(T.Shape[I]);
  return S + "]";
}

/// Row-major multi-index of flat element `Flat`, e.g. `[1,2]`.
static std::string indexText(const HostTensor &T, int64_t Flat) {
  std::vector<int64_t> Idx(T.Shape.size());
  for (size_t D = T.Shape.size(); D-- > 0;) {
    Idx[D] = T.Shape[D] ? Flat % T.Shape[D] : 0;
    Flat = T.Shape[D] ? Flat / T.Shape[D] : 0;
  }
  std::string S = "[";
  for (size_t I = 0; I < Idx.size(); ++I)
    S += (I ? "," : "") + std::to_string(Idx[I]);
  return S + "]";
}

static std::string valueText(const HostTensor &T, int64_t I) {
  char Buf[40];
  if (isFloating(T.Type) && std::isnan(T.valueAsDouble(I)))
    return "nan"; // printf spells a NaN with its sign bit ("-nan"), which means nothing here
  if (isFloating(T.Type))
    std::snprintf(Buf, sizeof Buf, "%.9g", T.valueAsDouble(I));
  else
    std::snprintf(Buf, sizeof Buf, "%lld", static_cast<long long>(T.intAt(I)));
  return Buf;
}

/// The first element of `A` that differs from `E` (same dtype and shape), or -1. Typed loops over
/// the payloads: this runs over every element of every output of every trial.
template <class T> static int64_t firstFloatDifference(const HostTensor &A, const HostTensor &E, const Tolerance &Tol) {
  const int64_t N = E.numel();
  for (int64_t I = 0; I < N; ++I) {
    T X, Y;
    std::memcpy(&X, A.bytes().data() + I * sizeof(T), sizeof(T));
    std::memcpy(&Y, E.bytes().data() + I * sizeof(T), sizeof(T));
    if (!closeEnough(X, Y, Tol))
      return I;
  }
  return -1;
}

static int64_t firstDifference(const HostTensor &A, const HostTensor &E, const Tolerance &Tol) {
  if (E.Type == DType::F32)
    return firstFloatDifference<float>(A, E, Tol);
  if (E.Type == DType::F64)
    return firstFloatDifference<double>(A, E, Tol);
  // Integers and bools compare exactly: byte for byte, then the element that differs.
  if (A.bytes() == E.bytes())
    return -1;
  const int64_t N = E.numel();
  for (int64_t I = 0; I < N; ++I)
    if (A.intAt(I) != E.intAt(I))
      return I;
  return -1;
}

Comparison compareValues(const HostTensor &A, const HostTensor &E, const Tolerance &Tol) {
  if (A.Undefined || E.Undefined) {
    if (A.Undefined && E.Undefined)
      return {};
    return {false, A.Undefined ? "undefined tensor, expected a defined one" : "defined tensor, expected an undefined one"};
  }
  if (A.IsScalar != E.IsScalar)
    return {false, A.IsScalar ? "a scalar, expected a tensor" : "a tensor, expected a scalar"};
  if (A.Type != E.Type)
    return {false, std::string("dtype ") + dtypeName(A.Type) + ", expected " + dtypeName(E.Type)};
  if (A.Shape != E.Shape)
    return {false, "shape " + shapeText(A) + ", expected " + shapeText(E)};
  if (int64_t I = firstDifference(A, E, Tol); I >= 0)
    return {false, "element " + indexText(E, I) + " is " + valueText(A, I) + ", expected " + valueText(E, I)};
  return {};
}

Comparison compareTrial(const TrialOutputs &A, const TrialOutputs &E, const Tolerance &Tol) {
  if (!A.Ok || !E.Ok) {
    if (!A.Ok && !E.Ok)
      return {false, "both raised: '" + A.Error + "'"};
    return {false, !A.Ok ? "raised '" + A.Error + "'" : "expected an exception ('" + E.Error + "')"};
  }
  if (A.Values.size() != E.Values.size())
    return {false, std::to_string(A.Values.size()) + " outputs, expected " + std::to_string(E.Values.size())};
  for (size_t I = 0; I < E.Values.size(); ++I) {
    Comparison C = compareValues(A.Values[I], E.Values[I], Tol);
    if (!C.Equal) {
      if (E.Values.size() > 1)
        C.Reason = "output " + std::to_string(I) + ": " + C.Reason;
      return C;
    }
  }
  return {};
}

Comparison compareGradientTrial(const TrialGradients &A, const TrialGradients &E, const Tolerance &Tol) {
  if (!A.Ok || !E.Ok) {
    if (!A.Ok && !E.Ok)
      return {false, "both raised: '" + A.Error + "'"};
    return {false, !A.Ok ? "raised '" + A.Error + "'" : "expected an exception ('" + E.Error + "')"};
  }
  for (size_t I = 0; I < std::max(A.Gradients.size(), E.Gradients.size()); ++I) {
    if (I >= A.Gradients.size())
      return {false, "no gradient w.r.t. " + E.Gradients[I].Target};
    if (I >= E.Gradients.size())
      return {false, "a gradient w.r.t. " + A.Gradients[I].Target + ", which the original does not have"};
    if (A.Gradients[I].Target != E.Gradients[I].Target)
      return {false, "a gradient w.r.t. " + A.Gradients[I].Target + ", expected one w.r.t. " + E.Gradients[I].Target};
    Comparison C = compareValues(A.Gradients[I].Value, E.Gradients[I].Value, Tol);
    if (!C.Equal)
      return {false, "the gradient w.r.t. " + E.Gradients[I].Target + ": " + C.Reason};
  }
  return {};
}

} // namespace graphify::validate
