// Compaction. Read from the AST only: a counter is an integer variable the arms advance by a
// constant; a write is an assignment whose left side is an element (a subscript, of an array, a
// pointer, an accessor or a container) with that counter in one of its indices.
#include "Compaction.h"

#include "ExprUtil.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

template <typename Visit> void forEachNode(const Stmt *S, Visit &&V) {
  llvm::SmallVector<const Stmt *, 32> Work{S};
  while (!Work.empty()) {
    const Stmt *N = Work.pop_back_val();
    if (!N || isa<LambdaExpr>(N))
      continue;
    V(N);
    for (const Stmt *C : N->children())
      Work.push_back(C);
  }
}

/// The integer variable `++n`, `n++` or `n += c` (c a constant) advances, or null.
const VarDecl *advancedCounter(const Stmt *S, const ASTContext &Ctx) {
  const Expr *Target = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementOp())
    Target = UO->getSubExpr();
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
      CA && CA->getOpcode() == BO_AddAssign && CA->getRHS()->IgnoreParenImpCasts()->isIntegerConstantExpr(Ctx))
    Target = CA->getLHS();
  const VarDecl *V = Target ? referencedVar(Target) : nullptr;
  return V && V->getType()->isIntegerType() ? V : nullptr;
}

/// The left side of an assignment statement when it is an element (`a[i]`, `a[i][j]`), or null.
const Expr *writtenElement(const Stmt *S) {
  const Expr *LHS = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    LHS = BO->getLHS();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->isAssignmentOp() && OC->getNumArgs() == 2)
    LHS = OC->getArg(0);
  if (!LHS)
    return nullptr;
  LHS = LHS->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(LHS))
    return LHS;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(LHS); OC && OC->getOperator() == OO_Subscript)
    return LHS;
  return nullptr;
}

bool reads(const Stmt *S, const VarDecl *V) {
  bool Found = false;
  forEachNode(S, [&](const Stmt *N) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(N); DR && DR->getDecl() == V)
      Found = true;
  });
  return Found;
}

/// The counter among `Counters` that an index of the subscript chain `E` reads, or null.
const VarDecl *indexedBy(const Expr *E, const llvm::SmallPtrSetImpl<const VarDecl *> &Counters) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    const Expr *Base = nullptr, *Index = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      Base = AS->getBase();
      Index = AS->getIdx();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript &&
                                                                  OC->getNumArgs() == 2) {
      Base = OC->getArg(0);
      Index = OC->getArg(1);
    } else {
      return nullptr;
    }
    for (const VarDecl *V : Counters)
      if (reads(Index, V))
        return V;
    E = Base;
  }
  return nullptr;
}

} // namespace

std::string compactionRefusal(const std::string &Write) {
  return "the branch compacts: " + Write + ", so each position counts the earlier iterations that passed "
         "the test, which no select keeps: compute the test for every element at once as a mask (comparing "
         "with a shifted copy for the previous element), move the kept elements first in order with a "
         "stable argsort of the negated mask, and keep the count as mask.sum() (a 0-d tensor)";
}

std::string compactionIn(llvm::ArrayRef<const Stmt *> Arms, ASTContext &Ctx) {
  // A counter lives across iterations: one the arms declare starts again each time.
  llvm::SmallPtrSet<const VarDecl *, 4> Counters, Declared;
  for (const Stmt *Arm : Arms)
    forEachNode(Arm, [&](const Stmt *N) {
      if (const auto *DS = dyn_cast<DeclStmt>(N))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            Declared.insert(V);
    });
  for (const Stmt *Arm : Arms)
    forEachNode(Arm, [&](const Stmt *N) {
      if (const VarDecl *V = advancedCounter(N, Ctx); V && !Declared.count(V))
        Counters.insert(V);
    });
  if (Counters.empty())
    return "";
  for (const Stmt *Arm : Arms) {
    std::string Found;
    forEachNode(Arm, [&](const Stmt *N) {
      if (!Found.empty())
        return;
      if (const Expr *Element = writtenElement(N))
        if (const VarDecl *Counter = indexedBy(Element, Counters))
          Found = "'" + sourceText(Element, Ctx) + "' (line " + lineOf(Element, Ctx) + ") is written at '" +
                  Counter->getNameAsString() + "', which the branch advances";
    });
    if (!Found.empty())
      return Found;
  }
  return "";
}

} // namespace graphify::rewriter
