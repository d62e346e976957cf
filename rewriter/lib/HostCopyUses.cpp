// Host copy uses (HostCopyUses.h): where a tensor copied to the host goes, found by walking the
// uses of the local that holds the copy.
#include "HostCopyUses.h"

#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallPtrSet.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// The local the host copy `Copy` is stored in: initialised with it (`auto h = x.cpu();`) or
/// given it (`h = h.index_select(0, order).cpu();`); null otherwise.
const VarDecl *localHoldingCopy(const Expr *Copy, ASTContext &Ctx) {
  DynTypedNode N = userPastValueWrappers(Copy, Ctx);
  if (const auto *V = N.get<VarDecl>())
    return V->isLocalVarDecl() && !V->getType()->isReferenceType() ? V : nullptr;
  if (const auto *OC = N.get<CXXOperatorCallExpr>(); OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    const auto *DR = dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return V && V->isLocalVarDecl() ? V : nullptr;
  }
  return nullptr;
}

bool localFeedsOnlyTensorWork(const VarDecl *V, const Expr *Skip, ASTContext &Ctx, const ApiModel &Api,
                              llvm::SmallPtrSetImpl<const VarDecl *> &Seen);

/// Whether the use `U` of a host tensor ends in tensor work: it climbs through tensor-valued
/// expressions (ops, lists of operands) into a discarded statement, a return, a size or rank
/// query, or a tensor local whose own uses do the same. A host read, a copy or a host value
/// computed otherwise do not.
bool endsInTensorWork(const DeclRefExpr *U, ASTContext &Ctx, const ApiModel &Api,
                      llvm::SmallPtrSetImpl<const VarDecl *> &Seen) {
  DynTypedNode N = DynTypedNode::create(*U);
  const Stmt *Child = U;
  for (int Depth = 0; Depth < 32; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return false;
    N = Parents[0];
    if (const auto *V = N.get<VarDecl>())
      return Api.isTensor(V->getType()) && localFeedsOnlyTensorWork(V, nullptr, Ctx, Api, Seen);
    // A statement of its own, or the tensors the function returns (the region's outputs).
    const Stmt *S = N.get<Stmt>();
    if (S && (isa<CompoundStmt>(S) || isa<ReturnStmt>(S)))
      return true;
    const auto *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return false;
    if (Api.callHasTag(E, "host_sync") || Api.callHasTag(E, "device_transfer") ||
        Api.callHasTag(E, "data_dependent_output"))
      return false;
    if (Api.callHasTag(E, "shape_query") || Api.callHasTag(E, "rank_query"))
      return true;
    // `out = torch::cat({h, rows}, 1)`: what `out` is used for next. Stored anywhere else (a
    // field, an entry of a host map: `cache[key] = h`), it is read where this walk does not look.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && OC->getArg(1) == Child) {
      const Expr *Target = OC->getArg(0)->IgnoreParenImpCasts();
      if (const auto *DR = dyn_cast<DeclRefExpr>(Target)) {
        const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        return V && V->isLocalVarDecl() && localFeedsOnlyTensorWork(V, OC, Ctx, Api, Seen);
      }
      const auto *Element = dyn_cast<CXXOperatorCallExpr>(Target);
      if (isa<MemberExpr>(Target) ||
          (Element && Element->getOperator() == OO_Subscript && !Api.isTensorExpr(Element->getArg(0))))
        return false;
    }
    if (!(Api.isTensorExpr(E) || isa<ImplicitCastExpr>(E) || isa<ParenExpr>(E) || isa<MaterializeTemporaryExpr>(E) ||
          isa<CXXBindTemporaryExpr>(E) || isa<ExprWithCleanups>(E) || isa<MemberExpr>(E) || isa<InitListExpr>(E) ||
          isa<CXXStdInitializerListExpr>(E) || isa<CXXConstructExpr>(E)))
      return false;
    Child = E;
  }
  return false;
}

/// Whether every use of the tensor local `V` (but those inside `Skip`, the expression that gives
/// it this value) ends in tensor work. A local already being checked counts as tensor work: the
/// other uses decide.
bool localFeedsOnlyTensorWork(const VarDecl *V, const Expr *Skip, ASTContext &Ctx, const ApiModel &Api,
                              llvm::SmallPtrSetImpl<const VarDecl *> &Seen) {
  if (!Seen.insert(V).second)
    return true;
  if (Seen.size() > 16)
    return false;
  const Stmt *Inside = V->getInit() ? static_cast<const Stmt *>(V->getInit()) : Skip;
  const Stmt *Body = Inside ? functionBody(enclosingFunction(Inside, Ctx)) : nullptr;
  if (!Body)
    return false;
  bool Any = false;
  for (const DeclRefExpr *U : usesOf(V, Body)) {
    if (Skip && Skip->getSourceRange().fullyContains(U->getSourceRange()))
      continue;
    Any = true;
    if (!endsInTensorWork(U, Ctx, Api, Seen))
      return false;
  }
  return Any;
}

} // namespace

/// Whether `E` is returned as it is (through conversions and the copy a return makes).
static bool returnedAsIs(const Expr *E, ASTContext &Ctx) {
  return userPastValueWrappers(E, Ctx).get<ReturnStmt>() != nullptr;
}

/// Whether the host copy is what the function hands back (`out = out.cpu(); return out;`): the
/// caller reads a host tensor, so the copy moves to the caller rather than going away.
bool copyIsReturned(const Expr *Copy, ASTContext &Ctx) {
  if (returnedAsIs(Copy, Ctx))
    return true;
  const VarDecl *V = localHoldingCopy(Copy, Ctx);
  const Stmt *Body = V ? functionBody(enclosingFunction(Copy, Ctx)) : nullptr;
  if (!Body)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Returned = false;
  for (const DeclRefExpr *U : usesOf(V, Body)) // after the copy (not its own target): returns only
    if (SM.isBeforeInTranslationUnit(Copy->getEndLoc(), U->getBeginLoc()) && !(Returned = returnedAsIs(U, Ctx)))
      return false;
  return Returned;
}

/// Whether the host copy `Copy` feeds tensor work only (`h = x.cpu(); iou = box_iou(h[0], h);
/// h.slice(0, 0, n) = h.slice(0, 0, n) * m;`): then it only moves device work to the host, and
/// dropping it keeps everything on the device. The copy's own operand (`h` of
/// `h = h.index_select(0, order).cpu()`) goes into the copy and is not a use.
bool copyFeedsOnlyTensorWork(const Expr *Copy, ASTContext &Ctx, const ApiModel &Api) {
  const VarDecl *V = localHoldingCopy(Copy, Ctx);
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  return V && localFeedsOnlyTensorWork(V, Copy, Ctx, Api, Seen);
}

} // namespace graphify::rewriter
