#include "SettledParameters.h"

#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/ExprCXX.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// `P` is a tensor taken by non-const lvalue reference: the caller's variable itself.
bool sharedWithCaller(const ParmVarDecl *P, const ApiModel &Api) {
  const QualType T = P->getType();
  return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified() && Api.isTensor(T);
}

} // namespace

bool readsOnlyMetadata(const Stmt *S, const ParmVarDecl *P, const ApiModel &Api) {
  if (!S)
    return true;
  if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E) && callObject(E) &&
                                         referencedVar(callObject(E)) == P &&
                                         (Api.callHasTag(E, "shape_query") || Api.callHasTag(E, "metadata_query"))) {
    for (const Expr *Arg : callArgs(E))
      if (!readsOnlyMetadata(Arg, P, Api))
        return false;
    return true;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == P)
    return false;
  for (const Stmt *C : S->children())
    if (!readsOnlyMetadata(C, P, Api))
      return false;
  return true;
}

namespace {

/// `S` calls a method on `P` that writes it in place (`p.transpose_(0, 1)`, `p.resize_({n})`).
bool writesInPlace(const Stmt *S, const ParmVarDecl *P, const ApiModel &Api) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E) && callObject(E) && referencedVar(callObject(E)) == P) {
    const auto *FD = cast<CallExpr>(E)->getDirectCallee();
    if (Api.callHasTag(E, "in_place") || (FD && FD->getName().ends_with("_")))
      return true;
  }
  for (const Stmt *C : S->children())
    if (writesInPlace(C, P, Api))
      return true;
  return false;
}

} // namespace

bool changesParameter(const Stmt *S, const ParmVarDecl *P, const ApiModel &Api) {
  return isReassigned(P, S) || writesInPlace(S, P, Api);
}

const Stmt *firstChangeOf(const ParmVarDecl *P, llvm::ArrayRef<const Stmt *> Statements, const ApiModel &Api) {
  for (const Stmt *S : Statements)
    if (changesParameter(S, P, Api))
      return S;
  return nullptr;
}

std::set<const ParmVarDecl *> settledReferenceParameters(const Stmt *Read, llvm::ArrayRef<const Stmt *> Later,
                                                         const FunctionDecl &F, const ApiModel &Api) {
  std::set<const ParmVarDecl *> Settled;
  for (const ParmVarDecl *P : F.parameters()) {
    if (!sharedWithCaller(P, Api) || usesOf(P, Read).empty() || !readsOnlyMetadata(Read, P, Api))
      continue;
    if (llvm::any_of(Later, [&](const Stmt *S) { return changesParameter(S, P, Api); }))
      continue;
    Settled.insert(P);
  }
  return Settled;
}

} // namespace graphify::rewriter
