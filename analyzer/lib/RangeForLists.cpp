// Range-based fors over lists: finding the loop from the list it walks, and whether it can
// rebind the list's elements (see RangeForLists.h).
#include "RangeForLists.h"

#include "StatementParents.h"

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>

using namespace clang;

namespace graphify {

namespace {

/// Whether the body assigns to `Var` as a whole (`d = ...`, `std::swap(d, e)`, `d = std::move(e)`).
class AssignsTo : public RecursiveASTVisitor<AssignsTo> {
public:
  explicit AssignsTo(const VarDecl *Var) : Var(Var) {}
  bool Found = false;

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->isAssignmentOp() && refersTo(Op->getArg(0)))
      Found = true;
    return !Found;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp() && refersTo(Op->getLHS()))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // Handed to a function by non-const reference (swap, a user helper that may reassign it).
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || isa<CXXOperatorCallExpr>(Call))
      return true;
    for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I) {
      QualType P = FD->getParamDecl(I)->getType();
      if (P->isReferenceType() && !P->getPointeeType().isConstQualified() && refersTo(Call->getArg(I)))
        Found = true;
    }
    return !Found;
  }

private:
  bool refersTo(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Var;
  }
  const VarDecl *Var;
};

} // namespace

const CXXForRangeStmt *rangeForOver(const Expr *Use, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*Use);
  for (unsigned Depth = 0; Depth < 6; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    if (const auto *For = Parents[0].get<CXXForRangeStmt>())
      return For->getRangeInit() && containsStmt(For->getRangeInit(), Use) ? For : nullptr;
    N = Parents[0];
  }
  return nullptr;
}

const CXXForRangeStmt *rangeForWalking(const Expr *List, ASTContext &Ctx) {
  const CXXForRangeStmt *For = rangeForOver(List, Ctx);
  return For && skipValueWrappers(For->getRangeInit()) == List ? For : nullptr;
}

bool loopVariableKeepsElements(const CXXForRangeStmt &For) {
  const VarDecl *Var = For.getLoopVariable();
  if (!Var)
    return false;
  QualType T = Var->getType();
  if (!T->isReferenceType() || T->getPointeeType().isConstQualified())
    return true;
  AssignsTo Visitor(Var);
  Visitor.TraverseStmt(const_cast<Stmt *>(For.getBody()));
  return !Visitor.Found;
}

} // namespace graphify
