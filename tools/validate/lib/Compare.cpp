#include "graphify/validate/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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
  if (isFloating(T.Type) && std::isnan(T.Floats[I]))
    return "nan"; // printf spells a NaN with its sign bit ("-nan"), which means nothing here
  if (isFloating(T.Type))
    std::snprintf(Buf, sizeof Buf, "%.9g", T.Floats[I]);
  else
    std::snprintf(Buf, sizeof Buf, "%lld", static_cast<long long>(T.Ints[I]));
  return Buf;
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
  int64_t N = E.numel();
  for (int64_t I = 0; I < N; ++I) {
    bool Same = isFloating(E.Type) ? closeEnough(A.Floats[I], E.Floats[I], Tol) : A.Ints[I] == E.Ints[I];
    if (!Same)
      return {false, "element " + indexText(E, I) + " is " + valueText(A, I) + ", expected " + valueText(E, I)};
  }
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
