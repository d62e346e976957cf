// A position (element index) computed from a host value read from a tensor: the shape stays
// fixed, but the graph cannot read the position on the device; a trace records the position seen
// while tracing. Which arguments are positions comes from the `position_args` of the pack entries.
#include "DataDependentPositionCheck.h"

#include <clang/AST/ExprCXX.h>

#include <set>

namespace graphify {

using namespace clang;

const CheckInfo &DataDependentPositionCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-data-dependent-position",
      "element position computed from a value read from a tensor",
      "Finds arguments at the position slots of tensor operations (the index of x[i], "
      "select(dim, i), the integers of index({i}) and index_put_({i}, v)) that depend on a tensor "
      "value copied to the host, typically i = idx.item<int64_t>(). The read synchronises with the "
      "device, a trace freezes the position it saw, and a CUDA graph cannot read it at all.",
      "Keep the position on the device: index with the 0-d (or 1-element) long tensor itself "
      "(x.index({idx}), x.index_select(0, idx), x.index_put_({idx}, v)), or gather/scatter with it.",
      /*InTraceProfile=*/true};
  return Info;
}

void DataDependentPositionCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call)
      return;
    std::set<unsigned> Positions;
    for (const ApiEntry *E : Call->Entries)
      if (E->hasTag("position_argument"))
        Positions.insert(E->PositionArgs.begin(), E->PositionArgs.end());
    for (unsigned Pos : Positions) {
      const Expr *Leaf = Ctx.taintedLeaf(Call->arg(Pos), AnalysisContext::ArgumentSlot::Position);
      if (!Leaf)
        continue;
      const TracedOrigin *O = Facts.tracedTaintOf(Leaf);
      Ctx.report(info(), Leaf->getBeginLoc(),
                 "position argument of '" + Call->Name + "' depends on " + dependenceOf(O) +
                     "; keep the index on the device as a long tensor instead of reading it",
                 Leaf, O, Leaf->getSourceRange());
      return;
    }
  });
}

} // namespace graphify
