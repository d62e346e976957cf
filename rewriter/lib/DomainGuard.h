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
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace graphify::rewriter {

/// One condition on the path to an arm: the arm runs where `Cond` is `TakenWhenTrue`.
struct PathCondition {
  std::string Cond;
  bool TakenWhenTrue = true;
};

/// A replacement of `Length` characters at `Begin` (offsets into the expression's text).
struct TextEdit {
  unsigned Begin = 0;
  unsigned Length = 0;
  std::string Text;
};

/// The source text of `Arm` with the tensor inputs of its domain-restricted calls guarded by
/// `Cond` (kept where `Cond` is true for an arm taken when it is true, where it is false
/// otherwise). Constant and host inputs are left alone: they are the same on both sides.
std::string guardedArmText(const clang::Expr *Arm, llvm::StringRef Cond, bool TakenWhenTrue, const ApiModel &Api,
                           clang::ASTContext &Ctx);

/// The same under every condition of `Path` (outermost first, each guard nested inside the
/// previous one's), with `Renames` applied to the text as well (identifiers, which no guard
/// boundary splits).
std::string guardedText(const clang::Expr *X, llvm::ArrayRef<PathCondition> Path, llvm::ArrayRef<TextEdit> Renames,
                        const ApiModel &Api, clang::ASTContext &Ctx);

/// Whether guardedArmText would guard anything in `S` (callers then compute the condition once
/// into a local instead of repeating it in every guard).
bool armNeedsGuards(const clang::Stmt *S, const ApiModel &Api, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
