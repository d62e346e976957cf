// Counting branches. Read from the AST only: each statement of an arm is an increment, a
// compound assignment or an assignment of a constant, whose target is an arithmetic or boolean
// lvalue (a local, a field, an element) and whose operands hold no tensor.
#include "Counting.h"

#include "ExprUtil.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallVector.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

bool isHostNumber(const Expr *E, const ApiModel &Api) {
  QualType T = E->getType();
  return !Api.isTensorExpr(E) && (T->isArithmeticType() || T->isEnumeralType());
}

bool holdsNoTensor(const Stmt *S, const ApiModel &Api) {
  if (const auto *E = dyn_cast_or_null<Expr>(S); E && Api.isTensorExpr(E))
    return false;
  for (const Stmt *C : S ? S->children() : Stmt::const_child_range(nullptr, nullptr))
    if (C && !holdsNoTensor(C, Api))
      return false;
  return true;
}

/// Whether `E` names the variable or field `D`.
bool mentions(const Stmt *E, const ValueDecl *D) {
  if (!E || !D)
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E); DR && DR->getDecl() == D)
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->getMemberDecl() == D)
    return true;
  for (const Stmt *C : E->children())
    if (mentions(C, D))
      return true;
  return false;
}

/// The variable or field an lvalue names (`n`, `b.width`), or null.
const ValueDecl *target(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(LHS))
    return DR->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(LHS))
    return ME->getMemberDecl();
  return nullptr;
}

/// `++n`, `n += w`, `found = true` (unless `Cond` reads `found`: then it is a clamp or a reset).
bool counts(const Stmt *S, const Expr *Cond, const ApiModel &Api, const ASTContext &Ctx) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp() && isHostNumber(UO->getSubExpr(), Api) && holdsNoTensor(UO, Api);
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E))
    return isHostNumber(CA->getLHS(), Api) && holdsNoTensor(CA, Api);
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getOpcode() == BO_Assign)
    return isHostNumber(BO->getLHS(), Api) && holdsNoTensor(BO, Api) &&
           BO->getRHS()->isIntegerConstantExpr(Ctx) && !mentions(Cond, target(BO->getLHS()));
  return false;
}

} // namespace

std::string countingIn(llvm::ArrayRef<const Stmt *> Arms, const Expr *Cond, const ApiModel &Api, ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 8> Statements;
  for (const Stmt *Arm : Arms) {
    if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Arm))
      Statements.append(Block->body_begin(), Block->body_end());
    else if (Arm)
      Statements.push_back(Arm);
  }
  if (Statements.empty() || !llvm::all_of(Statements, [&](const Stmt *S) { return counts(S, Cond, Api, Ctx); }))
    return "";
  unsigned Line = Ctx.getSourceManager().getExpansionLineNumber(Statements.front()->getBeginLoc());
  return "'" + sourceText(Statements.front(), Ctx) + "' (line " + std::to_string(Line) + ")";
}

} // namespace graphify::rewriter
