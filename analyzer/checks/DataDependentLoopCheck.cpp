// A loop whose trip count depends on a host value read from a tensor: a trace unrolls the
// iterations seen while tracing, and a CUDA graph cannot loop on the host.
#include "DataDependentLoopCheck.h"

#include "Selections.h"

#include <clang/AST/StmtCXX.h>

namespace graphify {

using namespace clang;

const CheckInfo &DataDependentLoopCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-data-dependent-loop",
      "loop bound depends on a value read from a tensor",
      "Finds while, do-while and for loops whose condition, initial value or increment depends "
      "on a tensor value copied to the host, and range-for loops and range algorithms "
      "(std::accumulate, std::for_each: rule packs' iterates_range) over host containers filled "
      "from tensor values. A trace unrolls the number of iterations seen while tracing; a CUDA "
      "graph cannot decide on the host whether to run another iteration.",
      "Bound the loop by a static size (x.size(0), a constant) and mask the extra iterations "
      "with torch::where, or move the loop into the graph with gfy::while_loop.",
      /*InTraceProfile=*/true};
  return Info;
}

static const char *const CondMessage = "loop condition";
static const char *const RangeMessage = "loop range";

void DataDependentLoopCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  auto Check = [&](const Expr *E, const Stmt *Anchor, llvm::StringRef Message) {
    if (!E)
      return false;
    if (const TracedOrigin *O = Facts.tracedTaintOf(E)) {
      Ctx.report(info(), E->getBeginLoc(),
                 Message.str() + " depends on " + dependenceOf(O) +
                     "; a traced or captured graph records a fixed number of iterations",
                 Anchor, O, E->getSourceRange());
      return true;
    }
    return false;
  };
  // A loop that shrinks a selection by selecting from it again (greedy NMS) is one construct:
  // one finding for the loop, the findings inside it folded into its notes.
  auto Greedy = [&](const Stmt &Loop, const Expr *Cond) {
    const TracedOrigin *O = Cond ? Facts.tracedTaintOf(Cond) : nullptr;
    const VarDecl *Worklist = O ? shrinkingSelection(Loop, Ctx) : nullptr;
    if (!Worklist)
      return false;
    Ctx.reportConstruct(info(), Cond->getBeginLoc(),
                        "greedy loop over the shrinking selection '" + Worklist->getNameAsString() +
                            "' (the hand-written non-maximum suppression pattern): each iteration selects from "
                            "what the last one kept, so the number of iterations, the selections and the host "
                            "reads inside all follow the data; a traced or captured graph records a fixed "
                            "number of iterations",
                        Loop, Finding::ConstructKind::GreedySelection, O, Cond->getSourceRange());
    return true;
  };
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (const auto *W = dyn_cast<WhileStmt>(&S); W && Greedy(S, W->getCond()))
      return;
    if (const auto *D = dyn_cast<DoStmt>(&S); D && Greedy(S, D->getCond()))
      return;
    if (const auto *F = dyn_cast<ForStmt>(&S); F && Greedy(S, F->getCond()))
      return;
    if (const auto *W = dyn_cast<WhileStmt>(&S)) {
      Check(W->getCond(), W, CondMessage);
    } else if (const auto *D = dyn_cast<DoStmt>(&S)) {
      Check(D->getCond(), D, CondMessage);
    } else if (const auto *F = dyn_cast<ForStmt>(&S)) {
      if (Check(F->getCond(), F, CondMessage))
        return;
      // Without a tainted condition, a tainted start or step still changes the trip count.
      if (const auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit())) {
        for (const Decl *Dl : Init->decls())
          if (const auto *VD = dyn_cast<VarDecl>(Dl))
            if (Check(VD->getInit(), F, CondMessage))
              return;
      } else if (const auto *InitE = dyn_cast_or_null<Expr>(F->getInit())) {
        if (Check(InitE, F, CondMessage))
          return;
      }
      Check(F->getInc(), F, CondMessage);
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(&S)) {
      // `for (auto d : kept.sizes())`: one iteration per dimension, whatever the sizes hold.
      auto Range = RF->getRangeInit() ? Ctx.api().resolve(skipValueWrappers(RF->getRangeInit())) : std::nullopt;
      if (!Range || !Range->hasTag("shape_query"))
        Check(RF->getRangeInit(), RF, RangeMessage);
    } else if (const auto *Call = dyn_cast<CallExpr>(&S)) {
      // `std::accumulate(v.begin(), v.end(), 0.f)`: a loop over v written as a call (iterates_range).
      auto Walk = Ctx.api().resolve(Call);
      if (Walk && Walk->hasTag("iterates_range") && !Walk->Args.empty() && containerIteratedBy(Walk->Args.front()))
        Check(Walk->Args.front(), Call, std::string(RangeMessage) + " of '" + Walk->Name + "'");
    }
  });
}

} // namespace graphify
