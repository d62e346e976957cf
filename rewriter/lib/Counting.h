#pragma once
/// \file
/// A counting branch: arms that only count, sum or flag on host numbers, whatever the test reads.
///
/// \code
///   for (int i = 0; i < n; ++i)
///     if (p[i] > t) ++count;      // countingIn -> "'++count' (line 2)"
///   if (hit) { found = true; total += w; }
/// \endcode
///
/// No where() of the branch applies: nothing in it is a tensor. Its graph form computes the test
/// for every element at once (a mask) and keeps the count as mask.sum(), the flag as mask.any()
/// and a sum as where(mask, x, 0).sum(), 0-d tensors; a size taken from them needs the padded
/// form.

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/ArrayRef.h>

#include <string>

namespace graphify::rewriter {

/// When every statement of `Arms` (null arms are empty) advances a host number (`++n`,
/// `n += w`) or sets one that `Cond` does not read to a constant (`found = true`; not the clamp
/// `if (x < 0) x = 0;`), none of them on a tensor: the first as "'++n' (line N)". Empty
/// otherwise, also when the arms are empty.
std::string countingIn(llvm::ArrayRef<const clang::Stmt *> Arms, const clang::Expr *Cond, const ApiModel &Api,
                       clang::ASTContext &Ctx);

} // namespace graphify::rewriter
