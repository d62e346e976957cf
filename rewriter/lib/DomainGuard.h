#pragma once
/// \file
/// Gradient-safe where() arms. where(c, f(x), other) evaluates f(x) everywhere; where `c` does
/// not select it and x lies outside f's domain (sqrt of a negative, log of 0, division by 0),
/// the value is discarded but the gradient is not: 0 * inf = NaN reaches x (the double-where
/// problem). Guarding the input, where(c, f(where(c, x, safe)), other), keeps every selected
/// value (the guard returns x where c holds) and gives the unselected positions a finite
/// derivative at `safe`. Which ops, which inputs and which safe value come from the rule packs
/// (tag domain_restricted, `domain_args`, `safe_value`).
///
/// \code
///   guardedArmText(Arm, "x.min() > 0", /*TakenWhenTrue=*/true, Api, Ctx)
///     // "x.sqrt()"  ->  "torch::where(x.min() > 0, x, 1).sqrt()"
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace graphify::rewriter {

/// The source text of `Arm` with the tensor inputs of its domain-restricted calls guarded by
/// `Cond` (kept where `Cond` is true for an arm taken when it is true, where it is false
/// otherwise). Constant and host inputs are left alone: they are the same on both sides.
std::string guardedArmText(const clang::Expr *Arm, llvm::StringRef Cond, bool TakenWhenTrue, const ApiModel &Api,
                           clang::ASTContext &Ctx);

/// Whether guardedArmText would guard anything in `Arm` (callers then compute the condition once
/// into a local instead of repeating it in every guard).
bool armNeedsGuards(const clang::Expr *Arm, const ApiModel &Api, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
