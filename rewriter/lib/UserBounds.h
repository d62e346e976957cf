#pragma once
/// \file
/// Loops bounded by a value the user bounded (graphify/analyzer/StaticBounds.h), for
/// `early-exit-loop-to-masked`. A header `t < len` where `len` is read from tensor data has no
/// static trip count; with the promise `len <= 64` the loop runs `t < 64` and masks the iterations
/// past `len`, as it masks those past an early exit:
///
/// \code
///   GRAPHIFY_STATIC_BOUND(len, 64)
///   ... for (int64_t t = 0; t < len; ++t)     ->   for (int64_t t = 0; t < 64; ++t)
///                                                   active = logical_and(active, t < len')
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <optional>
#include <string>

namespace graphify::rewriter {

/// A conjunct of a loop header that a static bound turns into a static trip count.
struct BoundedTrip {
  const clang::Expr *Conjunct = nullptr; ///< `t < len`: it stays, as the mask's condition
  const clang::VarDecl *Var = nullptr;   ///< `len`
  int64_t Bound = 0;
  std::string StaticText;                ///< `t < 64`: the header's condition
};

/// The first of `Conjuncts` of the form `e < n`, `e <= n`, `n > e` or `n >= e` where `n` is a
/// variable the user bounded (through implicit conversions) and `e` neither reads it nor a tensor:
/// with the bound in its place the comparison holds whenever the original does (while the promise
/// holds), so it is a trip count that keeps every iteration the original ran. Nullopt when none is.
/// Variables declared in `Loop` (its counter) are not bounds.
std::optional<BoundedTrip> userBoundedTrip(const clang::Stmt *Loop, llvm::ArrayRef<const clang::Expr *> Conjuncts,
                                           const ApiModel &Api, clang::ASTContext &Ctx);

/// For a refusal of a loop with no static bound: how to give one to the variable on the greater
/// side of such a comparison, which has no bound (`give 'len' a static bound: ...`), or empty.
/// When the variable has a bound but the header does not compare with it directly (`t <
/// static_cast<int64_t>(len)`, `t < len - 1`), says so instead.
std::string staticBoundAdvice(const clang::Stmt *Loop, llvm::ArrayRef<const clang::Expr *> Conjuncts,
                              const clang::FunctionDecl *F, const ApiModel &Api, clang::ASTContext &Ctx);

} // namespace graphify::rewriter
