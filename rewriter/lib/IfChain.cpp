// Else-if chains are nested IfStmts in the AST; the rewrites treat them as one n-way select, so
// that the innermost `else` becomes the innermost where() argument.
#include "IfChain.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

using namespace clang;

namespace graphify::rewriter {

std::string IfChain::armName(size_t I) const {
  if (I == 0)
    return "then";
  if (I >= Branches.size())
    return "else";
  return Branches.size() > 2 ? "else-if #" + std::to_string(I) : "else-if";
}

IfChain decomposeIfChain(const IfStmt *If) {
  IfChain C;
  while (If) {
    C.Branches.push_back({If, If->getCond(), If->getThen()});
    const Stmt *Else = If->getElse();
    const auto *ElseIf = dyn_cast_or_null<IfStmt>(Else);
    if (!ElseIf) {
      C.Else = Else;
      break;
    }
    If = ElseIf;
  }
  return C;
}

llvm::SmallVector<const Stmt *, 4> bodyStatements(const Stmt *Body) {
  llvm::SmallVector<const Stmt *, 4> Out;
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
    for (const Stmt *S : CS->body())
      if (!isa<NullStmt>(S))
        Out.push_back(S);
  } else if (Body) {
    Out.push_back(Body);
  }
  return Out;
}

const Expr *soleReturnValue(const Stmt *Body) {
  auto Stmts = bodyStatements(Body);
  if (Stmts.size() != 1)
    return nullptr;
  if (const auto *R = dyn_cast<ReturnStmt>(Stmts.front()))
    return R->getRetValue();
  return nullptr;
}

const Expr *breakCondition(const Stmt *S) {
  const auto *If = dyn_cast_or_null<IfStmt>(S);
  if (!If || If->getElse() || If->hasInitStorage() || If->hasVarStorage())
    return nullptr;
  auto Then = bodyStatements(If->getThen());
  return Then.size() == 1 && isa<BreakStmt>(Then[0]) ? If->getCond() : nullptr;
}

static void collectExits(const Stmt *S, llvm::SmallVectorImpl<const Expr *> &Out) {
  if (!S || isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) ||
      isa<SwitchStmt>(S) || isa<LambdaExpr>(S) || isa<Expr>(S))
    return;
  if (const Expr *C = breakCondition(S)) {
    Out.push_back(C);
    return;
  }
  for (const Stmt *Child : S->children())
    collectExits(Child, Out);
}

llvm::SmallVector<const Expr *, 2> loopExitConditions(const Stmt *Loop) {
  llvm::SmallVector<const Expr *, 2> Out;
  if (const auto *F = dyn_cast_or_null<ForStmt>(Loop))
    collectExits(F->getBody(), Out);
  else if (const auto *W = dyn_cast_or_null<WhileStmt>(Loop))
    collectExits(W->getBody(), Out);
  else if (const auto *D = dyn_cast_or_null<DoStmt>(Loop))
    collectExits(D->getBody(), Out);
  return Out;
}

bool containsReturn(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsReturn(C))
      return true;
  return false;
}

} // namespace graphify::rewriter
