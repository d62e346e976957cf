// Dead code after a statement that always leaves its block (DeadCode.h).
#include "DeadCode.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

using namespace clang;

namespace graphify {

namespace {

/// Whether a jump may land in `S`: a label inside it, or a `case` of the switch around it (the
/// cases inside a nested switch are that switch's own).
bool mayBeEntered(const Stmt &S, bool CasesCount = true) {
  if (isa<LabelStmt>(S) || (CasesCount && isa<SwitchCase>(S)))
    return true;
  const bool Inner = CasesCount && !isa<SwitchStmt>(S);
  for (const Stmt *Child : S.children())
    if (Child && mayBeEntered(*Child, Inner))
      return true;
  return false;
}

bool callsNoReturn(const Expr &E) {
  const auto *Call = dyn_cast<CallExpr>(E.IgnoreParenImpCasts());
  if (!Call)
    return false;
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    return Callee->isNoReturn();
  return false;
}

} // namespace

bool alwaysLeaves(const Stmt &S) {
  if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) ||
      isa<CoreturnStmt>(S))
    return true;
  if (const auto *E = dyn_cast<Expr>(&S)) {
    const Expr *Bare = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Bare))
      Bare = Cleanups->getSubExpr()->IgnoreParenImpCasts();
    return isa<CXXThrowExpr>(Bare) || callsNoReturn(*Bare);
  }
  if (const auto *If = dyn_cast<IfStmt>(&S))
    return If->getElse() && alwaysLeaves(*If->getThen()) && alwaysLeaves(*If->getElse());
  if (const auto *Block = dyn_cast<CompoundStmt>(&S)) {
    bool Left = false;
    for (const Stmt *Child : Block->body()) {
      if (Left && mayBeEntered(*Child))
        return false; // a jump may enter after the leaving statement and run on to the end
      Left = Left || alwaysLeaves(*Child);
    }
    return Left;
  }
  if (const auto *Label = dyn_cast<LabelStmt>(&S))
    return alwaysLeaves(*Label->getSubStmt());
  return false;
}

void forEachLiveChild(const CompoundStmt &Block, llvm::function_ref<void(const Stmt &)> Visit) {
  bool Dead = false;
  for (const Stmt *Child : Block.body()) {
    if (Dead && !mayBeEntered(*Child))
      continue;
    Dead = alwaysLeaves(*Child);
    Visit(*Child);
  }
}

} // namespace graphify
