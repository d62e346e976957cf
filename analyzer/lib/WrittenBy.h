#pragma once
/// \file
/// What a statement writes, as the flow checks that trust a flag or a state ask it: the left side
/// of an assignment (built-in, compound or an overloaded `operator=`), or the operand of an
/// increment, a decrement or an address-of (`&ws_` handed to `cudaMalloc` may be written through).
///
/// \code
///   if (const Expr *Target = writtenBy(S)) ... Target->IgnoreParenImpCasts()
/// \endcode

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

namespace graphify {

/// The expression `S` itself writes, or null (its children are not searched).
inline const clang::Expr *writtenBy(const clang::Stmt *S) {
  using namespace clang;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return BO->getLHS();
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(S); UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
    return UO->getSubExpr();
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(S); Op && Op->isAssignmentOp() && Op->getNumArgs() > 0)
    return Op->getArg(0);
  return nullptr;
}

} // namespace graphify
