// Reads of an optional's value that a test for a value guards (isCheckedOptionalRead).
#include "OptionalGuards.h"

#include "ExprUtil.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

using namespace clang;

namespace graphify::rewriter {

/// The optional that `E` tests for a value — `o.has_value()`, `o` converted to bool — or null;
/// `Negated` when the test is for no value (`!o.has_value()`).
static const VarDecl *testedOptional(const Expr *E, bool &Negated) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot) {
    Negated = !Negated;
    return testedOptional(Not->getSubExpr(), Negated);
  }
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !(isa<CXXConversionDecl>(MD) || (MD->getIdentifier() && MD->getName() == "has_value")))
    return nullptr;
  if (const auto *Conv = dyn_cast<CXXConversionDecl>(MD); Conv && !Conv->getConversionType()->isBooleanType())
    return nullptr;
  return referencedVar(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
}

/// The conjuncts of `E` (the operands of a chain of `Op`).
static void operandsOf(const Expr *E, BinaryOperatorKind Op, llvm::SmallVectorImpl<const Expr *> &Out) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParens()); BO && BO->getOpcode() == Op) {
    operandsOf(BO->getLHS(), Op, Out);
    operandsOf(BO->getRHS(), Op, Out);
    return;
  }
  Out.push_back(E);
}

bool isCheckedOptionalRead(const Expr *Call, ASTContext &Ctx) {
  const Expr *Object = callObject(Call);
  const VarDecl *V = Object ? referencedVar(Object->IgnoreParenImpCasts()) : nullptr;
  const CXXRecordDecl *RD = V ? V->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
  if (!RD || RD->getName() != "optional")
    return false;
  const Stmt *Child = Call;
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    const DynTypedNodeList Parents = Ctx.getParents(*Child);
    const auto *Up = Parents.size() == 1 ? Parents[0].get<Expr>() : nullptr;
    if (!Up)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(Up); BO && BO->isLogicalOp() && BO->getRHS() == Child) {
      llvm::SmallVector<const Expr *, 4> Tests;
      operandsOf(BO->getLHS(), BO->getOpcode(), Tests);
      for (const Expr *Test : Tests) {
        bool Negated = false;
        if (testedOptional(Test, Negated) == V && Negated == (BO->getOpcode() == BO_LOr))
          return true;
      }
    }
    Child = Up;
  }
  return false;
}

} // namespace graphify::rewriter
