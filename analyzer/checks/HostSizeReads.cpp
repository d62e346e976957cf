// Where a size read goes on the host (HostSizeReads.h). The walk climbs through what keeps the
// number or computes a host value from it (conversions, arithmetic, a host object built from it, a
// host function whose value is used) and stops at the first consumer: a print or a host function
// called for its effect is a sink; a variable, a tensor op, a condition or a return is left to the
// checks of those uses.
#include "HostSizeReads.h"

#include "graphify/analyzer/OutputStreams.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

using namespace clang;

namespace graphify {

namespace {

const Stmt *parentOf(const Stmt *S, ASTContext &Ast) {
  DynTypedNodeList Parents = Ast.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

} // namespace

const Expr *sizeReadOf(const Expr *Call, ASTContext &Ast) {
  const Stmt *P = parentOf(Call, Ast);
  while (P && isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr>(P))
    P = parentOf(P, Ast);
  if (const auto *Sub = dyn_cast_or_null<CXXOperatorCallExpr>(P); Sub && Sub->getOperator() == OO_Subscript)
    return Sub;
  return Call;
}

std::string hostSinkOfSize(const Expr *Read, const ApiResolver &Api, ASTContext &Ast) {
  const Expr *Node = Read;
  for (unsigned Depth = 0; Depth < 12; ++Depth) {
    const Stmt *P = parentOf(Node, Ast);
    if (!P)
      return "";
    // What keeps the number, or computes a host value from it: followed to where that goes.
    const auto *BO = dyn_cast<BinaryOperator>(P);
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExplicitCastExpr,
            UnaryOperator, ConditionalOperator>(P) ||
        (BO && !BO->isAssignmentOp())) {
      Node = cast<Expr>(P);
      continue;
    }
    // A host value built from it (`std::string(n, '*')`, `std::vector<float>(n)`, the copy of an
    // IntArrayRef handed on); not a tensor, nor one built with tensors.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
      if (Api.isTensor(CE->getType()) ||
          llvm::any_of(CE->arguments(), [&](const Expr *A) { return Api.isTensor(A->getType()); }))
        return "";
      Node = CE;
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      if (Op->getOperator() == OO_LessLess && Op->getNumArgs() == 2 && Op->getArg(1) == Node &&
          isOutputStreamType(Op->getType()))
        return "is printed";
      return "";
    }
    const auto *Call = dyn_cast<CallExpr>(P);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    auto Resolved = Call ? Api.resolve(Call) : std::nullopt;
    if (!Callee || (Resolved && !Resolved->Entries.empty()) || Api.isTensor(Call->getType()) ||
        llvm::any_of(Call->arguments(), [&](const Expr *A) { return Api.isTensor(A->getType()); }))
      return "";
    // A host function called for its effect (a logger, printf): the number ends there. One whose
    // value is used (`std::min(k, n)`, a formatter) computes a host value, followed on.
    const Stmt *Up = parentOf(Call, Ast);
    while (Up && isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr>(Up))
      Up = parentOf(Up, Ast);
    if (Call->getType()->isVoidType() || isa_and_nonnull<CompoundStmt>(Up))
      return "is handed to '" + Callee->getNameAsString() + "'";
    Node = Call;
  }
  return "";
}

} // namespace graphify
