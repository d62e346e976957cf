#pragma once
/// \file
/// A local that holds a value-dependent result used exactly once (`auto i = m.nonzero();`
/// `x.index_put_({i}, v);`, `auto p = x.masked_select(m); return p.mean();`). Rewrites that
/// compute the use from the local's inputs instead remove its declaration; that is exact only
/// when nothing between the declaration and the use can change those inputs.
///
/// \code
///   auto Decl = singleUseLocal(V, Use, Body, Api, Ctx, "its nonzero()");
///   if (!Decl) return Decl.takeError();      // "'i' is used elsewhere, so its nonzero() ..."
///   auto Remove = removeDeclaration(*Decl, Ctx);
/// \endcode

#include "ApiModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>
#include <clang/Tooling/Transformer/RewriteRule.h>
#include <llvm/Support/Error.h>

namespace graphify::rewriter {

/// The declaration of `V` when `V` is declared on its own, in the block of `Use`, used only by
/// `Use`, never reassigned, and every statement between the two is free of side effects; else
/// a refusal naming what blocks it. `What` names the value in messages ("its nonzero()").
llvm::Expected<const clang::DeclStmt *> singleUseLocal(const clang::VarDecl *V, const clang::Stmt *Use,
                                                       const clang::Stmt *Body, const ApiModel &Api,
                                                       clang::ASTContext &Ctx, llvm::StringRef What);

/// The edit removing a declaration (its whole line when it is alone on it).
clang::transformer::Edit removeDeclaration(const clang::DeclStmt *DS, clang::ASTContext &Ctx);

/// `E` without trailing calls that keep its elements (tagged `same_elements`: squeeze, view,
/// contiguous, to, ...), so `m.nonzero().squeeze(1)` is seen as `m.nonzero()`.
const clang::Expr *throughSameElements(const clang::Expr *E, const ApiModel &Api);

} // namespace graphify::rewriter
