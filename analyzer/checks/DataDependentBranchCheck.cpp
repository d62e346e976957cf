// A branch on a host value read from a tensor: a trace records the side taken at trace time,
// and a CUDA graph cannot branch at all. Reported at the condition, with notes walking the
// taint back to the read.
#include "DataDependentBranchCheck.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/DenseSet.h>

namespace graphify {

using namespace clang;

const CheckInfo &DataDependentBranchCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-data-dependent-branch",
      "branch on a value read from a tensor",
      "Finds if, else-if, switch and conditional-operator conditions, and the left operands of "
      "&& and ||, that depend on a tensor value copied to the host (item(), is_nonzero(), "
      "equal(), allclose(), data_ptr() reads, and anything computed from them), and catch "
      "handlers of accesses that raise on a value-dependent size (try { sel.index({0}); } "
      "catch (...)). A trace records "
      "only the side taken while tracing and silently replays it for every input; a CUDA graph "
      "cannot branch on the host at all.",
      "Compute both sides and select with torch::where(cond, a, b), keeping the condition a "
      "0-d tensor (x.sum() > 0 instead of x.sum().item<float>() > 0); for control flow that "
      "must stay, use gfy::cond.",
      /*InTraceProfile=*/true};
  return Info;
}

static std::string message(const TaintOrigin *O) {
  return "branch condition depends on " + dependenceOf(O) + "; a traced or captured graph records only one side";
}

/// Marks every && / || inside a control condition: the condition's own finding covers them.
static void cover(const Stmt *S, llvm::DenseSet<const Stmt *> &Covered) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    Covered.insert(BO);
  if (isa<LambdaExpr>(S))
    return;
  for (const Stmt *Child : S->children())
    cover(Child, Covered);
}

void DataDependentBranchCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  llvm::DenseSet<const Stmt *> Covered;
  auto Condition = [&](const Expr *Cond, const Stmt *Anchor) {
    if (!Cond)
      return;
    cover(Cond, Covered);
    // `assert(c)`, `TORCH_CHECK(c, ...)`: the program stops when c fails; the computation does not
    // branch on it (a host read inside stays a sync, reported by the host-sync check).
    if (Ctx.api().isAssertion(*Anchor, Ctx.ast()))
      return;
    if (const TracedOrigin *O = Facts.tracedTaintOf(Cond))
      Ctx.report(info(), Cond->getBeginLoc(), message(O), Anchor, O, Cond->getSourceRange());
  };
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (const auto *If = dyn_cast<IfStmt>(&S)) {
      if (!If->isConsteval() && !If->isConstexpr())
        Condition(If->getCond(), If);
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(&S)) {
      Condition(CO->getCond(), CO);
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(&S)) {
      Condition(Sw->getCond(), Sw);
    } else if (const auto *Catch = dyn_cast<CXXCatchStmt>(&S)) {
      // `try { first = sel.index({0}); } catch (...) { ... }`: a test of the selection's size.
      if (const TracedOrigin *O = Facts.handlerTaintOf(Catch))
        Ctx.report(info(), Catch->getCatchLoc(),
                   "whether this handler runs depends on " + dependenceOf(O) +
                       "; a traced or captured graph records only one side",
                   Catch, O, SourceRange(Catch->getCatchLoc(), Catch->getCatchLoc()));
    } else if (const auto *W = dyn_cast<WhileStmt>(&S)) {
      cover(W->getCond(), Covered); // the loop check owns loop conditions
    } else if (const auto *D = dyn_cast<DoStmt>(&S)) {
      cover(D->getCond(), Covered);
    } else if (const auto *F = dyn_cast<ForStmt>(&S)) {
      cover(F->getCond(), Covered);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(&S)) {
      if (BO->isLogicalOp() && !Covered.contains(BO)) {
        cover(BO, Covered); // nested && / || belong to this one
        if (const TracedOrigin *O = Facts.tracedTaintOf(BO->getLHS()))
          Ctx.report(info(), BO->getLHS()->getBeginLoc(), message(O), BO, O,
                     BO->getLHS()->getSourceRange());
      }
    }
  });
}

} // namespace graphify
