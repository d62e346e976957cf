#pragma once
/// \file
/// Output comparison with LibTorch's allclose rule, plus the things allclose assumes: equal
/// shapes, equal dtypes, NaN equal to NaN (a rewrite that keeps 0/0 as 0/0 is equivalent), and
/// infinities equal only to the same infinity. Integers and bools compare exactly. Gradients
/// follow the same rules, so a NaN gradient on one side only is a difference.
///
/// \code
///   graphify::validate::Comparison C = graphify::validate::compareTrial(Original, Rewritten, {});
///   if (!C.Equal) llvm::errs() << C.Reason << "\n";
/// \endcode

#include "graphify/validate/Values.h"

#include <string>

namespace graphify::validate {

/// |a - b| <= AbsTol + RelTol * |b| (b is the reference, as allclose).
struct Tolerance {
  double RelTol = 1e-5;
  double AbsTol = 1e-6;
};

/// The verdict and, when not equal, the first difference in words.
struct Comparison {
  bool Equal = true;
  std::string Reason;
};

/// Whether two floating values agree under `Tol` (NaN == NaN).
bool closeEnough(double Actual, double Expected, const Tolerance &Tol);
/// Compares one output value; `Reason` names the first differing element by its index.
Comparison compareValues(const HostTensor &Actual, const HostTensor &Expected, const Tolerance &Tol);
/// Compares whole trials: both must have succeeded with the same number of outputs.
Comparison compareTrial(const TrialOutputs &Actual, const TrialOutputs &Expected, const Tolerance &Tol);
/// Compares the gradients of one trial: both backward passes must have succeeded, w.r.t. the same
/// targets in the same order; `Reason` names the first differing gradient by its target and the
/// element by its index (`the gradient w.r.t. input 'x': element [2] is nan, expected 0.5`).
Comparison compareGradientTrial(const TrialGradients &Actual, const TrialGradients &Expected, const Tolerance &Tol);

} // namespace graphify::validate
