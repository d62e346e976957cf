#pragma once
/// \file
/// Whether a tensor expression is floating-point whatever its inputs' dtypes: what a rewrite that
/// turns a host number into a 0-d tensor must know when the number is a double (a float64 0-d
/// operand promotes an integer tensor to float64, where the host number left it at the default
/// dtype, float32).
///
/// Proven from the rule packs' tags and the code, never from a name list here:
///   - a call tagged floating_output (true division, mean, softmax, sigmoid, exp, ...);
///   - a call given a floating ScalarType (`x.to(torch::kFloat)`, `x.toType(torch::kDouble)`): a
///     dtype argument decides, options or an optional dtype leave the call unknown;
///   - a call that keeps its object's dtype (keeps_dtype, same_elements, element-wise or reducing
///     calls not tagged bool_output or long_output) on a floating object;
///   - `a + b`, `a - b`, `a * b` with a floating tensor or a floating host number among them;
///   - a local (not a parameter or a field) initialised with such a value and never assigned.
/// Anything else is not known to be floating: the caller refuses rather than guesses.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

namespace graphify::rewriter {

/// Whether the tensor expression `E` of the function body `Body` is provably floating-point.
bool isProvablyFloating(const clang::Expr *E, const clang::Stmt *Body, const ApiModel &Api, clang::ASTContext &Ctx);

/// Whether `E` (a `c10::ScalarType` constant, `torch::kFloat`) names a floating-point dtype.
bool isFloatingScalarType(const clang::Expr *E, const clang::ASTContext &Ctx);

} // namespace graphify::rewriter
