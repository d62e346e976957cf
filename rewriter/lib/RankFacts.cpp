// A fact about a variable holds at a use only if nothing changes the variable in between: the
// checks and initialisers read here are trusted only for variables the body never reassigns
// (in-place writes keep the rank). Checks count only when they dominate the use — a statement
// earlier in a block that encloses it — and exit the block otherwise, so every path that
// reaches the use passed them.
#include "RankFacts.h"

#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <llvm/ADT/STLExtras.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// Looks through what a check macro wraps around its condition: parentheses, casts
/// (`static_cast<bool>`), `__builtin_expect(e, 0)` (C10_UNLIKELY).
const Expr *checkedCondition(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      E = C->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CallExpr>(E); C && C->getBuiltinCallee() == Builtin::BI__builtin_expect) {
      E = C->getArg(0);
      continue;
    }
    if (const auto *C = dyn_cast<ExprWithCleanups>(E)) {
      E = C->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
}

/// `V.dim()` / `V.ndimension()` (tag rank_query) on the variable `V`.
bool isRankOf(const Expr *E, const VarDecl *V, const ApiModel &Api) {
  E = stripAll(E);
  const Expr *Self = callObject(E);
  return Self && Api.callHasTag(E, "rank_query") && callArgs(E).empty() && referencedVar(Self) == V;
}

bool isIntegerOne(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 1;
}

/// Whether `C` having the value `Truth` implies `V.dim() == 1`.
bool impliesOneDimensional(const Expr *C, bool Truth, const VarDecl *V, const ApiModel &Api, const ASTContext &Ctx) {
  C = checkedCondition(C);
  if (!C)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(C); UO && UO->getOpcode() == UO_LNot)
    return impliesOneDimensional(UO->getSubExpr(), !Truth, V, Api, Ctx);
  const auto *BO = dyn_cast<BinaryOperator>(C);
  if (!BO)
    return false;
  // Both sides of a true `&&` (a false `||`) hold.
  if ((BO->getOpcode() == BO_LAnd && Truth) || (BO->getOpcode() == BO_LOr && !Truth))
    return impliesOneDimensional(BO->getLHS(), Truth, V, Api, Ctx) ||
           impliesOneDimensional(BO->getRHS(), Truth, V, Api, Ctx);
  bool Equal = BO->getOpcode() == BO_EQ && Truth;
  bool NotEqualFalse = BO->getOpcode() == BO_NE && !Truth;
  if (!Equal && !NotEqualFalse)
    return false;
  return (isRankOf(BO->getLHS(), V, Api) && isIntegerOne(BO->getRHS(), Ctx)) ||
         (isRankOf(BO->getRHS(), V, Api) && isIntegerOne(BO->getLHS(), Ctx));
}

bool callsNoReturn(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<ExprWithCleanups>(E))
    E = C->getSubExpr()->IgnoreParenImpCasts();
  if (isa<CXXThrowExpr>(E))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return FD->isNoReturn();
  return false;
}

/// Whether running `S` never falls through to the next statement of its block.
bool leavesTheBlock(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) || callsNoReturn(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && leavesTheBlock(CS->body_back());
  return false;
}

/// Whether the statement `S` lets control reach the next statement only when `V` is
/// one-dimensional: `if (c) <leave>;` with `!c` implying it (TORCH_CHECK expands to this, in a
/// `do { } while (0)` in the bundled runtime), or `c ? void(0) : <no return>` with `c` implying it
/// (assert).
bool checksOneDimensional(const Stmt *S, const VarDecl *V, const ApiModel &Api, const ASTContext &Ctx) {
  // `do { ... } while (0)`, the statement wrapper of check macros (the bundled runtime's
  // TORCH_CHECK): its body runs once, in order.
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    Expr::EvalResult R;
    if (!Do->getCond()->EvaluateAsInt(R, Ctx) || R.Val.getInt() != 0)
      return false;
    const auto *Body = dyn_cast<CompoundStmt>(Do->getBody());
    if (!Body)
      return checksOneDimensional(Do->getBody(), V, Api, Ctx);
    return llvm::any_of(Body->body(), [&](const Stmt *C) { return checksOneDimensional(C, V, Api, Ctx); });
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getElse() && !If->getConditionVariable() && leavesTheBlock(If->getThen()) &&
           impliesOneDimensional(If->getCond(), false, V, Api, Ctx);
  if (const auto *E = dyn_cast<Expr>(S))
    if (const auto *CO = dyn_cast<ConditionalOperator>(E->IgnoreParenImpCasts()))
      return callsNoReturn(CO->getFalseExpr()) && impliesOneDimensional(CO->getCond(), true, V, Api, Ctx);
  return false;
}

/// Whether a check that makes `V` one-dimensional dominates `At`.
bool checkedBefore(const VarDecl *V, const Stmt *At, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx) {
  const Stmt *Child = At;
  while (Child && Child != Body) {
    const Stmt *Parent = nullptr;
    for (const DynTypedNode &P : Ctx.getParents(*Child))
      if ((Parent = P.get<Stmt>()))
        break;
    if (!Parent)
      return false;
    if (const auto *CS = dyn_cast<CompoundStmt>(Parent))
      for (const Stmt *S : CS->body()) {
        if (S == Child)
          break;
        if (checksOneDimensional(S, V, Api, Ctx))
          return true;
      }
    Child = Parent;
  }
  return false;
}

bool oneDimensional(const Expr *E, const Stmt *At, const Stmt *Body, const ApiModel &Api, ASTContext &Ctx,
                    int Depth) {
  E = stripAll(E);
  if (!E || Depth > 16 || !Api.isTensorExpr(E))
    return false;
  if (const VarDecl *V = referencedVar(E)) {
    if (isReassigned(V, Body))
      return false;
    if (checkedBefore(V, At, Body, Api, Ctx))
      return true;
    const bool Local = !isa<ParmVarDecl>(V) && V->hasLocalStorage() && V->getInit();
    return Local && oneDimensional(V->getInit(), At, Body, Api, Ctx, Depth + 1);
  }
  if (Api.callHasTag(E, "one_dimensional_output"))
    return true;
  if (!Api.callHasTag(E, "elementwise"))
    return false;
  // Broadcasting one-dimensional operands with single elements (0-d reductions) and host
  // scalars gives a one-dimensional result; any other operand could add dimensions.
  bool SawOneDimensional = false;
  for (const Expr *Op : callOperands(E)) {
    if (!Api.isTensorExpr(Op))
      continue;
    if (oneDimensional(Op, At, Body, Api, Ctx, Depth + 1))
      SawOneDimensional = true;
    else if (!isProvablySingleElement(Op, Body, Api))
      return false;
  }
  return SawOneDimensional;
}

} // namespace

bool isProvablyOneDimensional(const Expr *E, const Stmt *At, const Stmt *Body, const ApiModel &Api,
                              ASTContext &Ctx) {
  return oneDimensional(E, At, Body, Api, Ctx, 0);
}

} // namespace graphify::rewriter
