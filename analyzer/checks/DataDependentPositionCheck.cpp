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

/// `candidates[order[k]]` with `candidates` a host list of tensors and `order[k]` read from
/// tensor data: the host chooses which tensor the graph goes on with, which a trace freezes
/// and a CUDA graph cannot do. (An element access chooses by integer positions: isElementAccess.)
bool DataDependentPositionCheck::reportHostListPick(AnalysisContext &Ctx, const ApiCall &Call) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Call.Callee);
  if (!MD || !MD->isInstance() || !isElementAccess(*MD) || Call.Args.size() < 2)
    return false;
  const Expr *List = Call.Args[0];
  const ApiResolver &Api = Ctx.api();
  if (Api.isTensor(List->getType()) || !isHostContainerType(List->getType()) || !Api.holdsTensors(List->getType()))
    return false;
  for (unsigned Pos = 1; Pos < Call.Args.size(); ++Pos) {
    const Expr *Leaf = Ctx.taintedLeaf(Call.Args[Pos], AnalysisContext::ArgumentSlot::Position);
    if (!Leaf)
      continue;
    const TracedOrigin *O = Ctx.facts().tracedTaintOf(Leaf);
    std::string Name;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(skipValueWrappers(List)))
      Name = " '" + DRE->getDecl()->getNameAsString() + "'";
    else if (const auto *ME = dyn_cast<MemberExpr>(skipValueWrappers(List)))
      Name = " '" + ME->getMemberDecl()->getNameAsString() + "'";
    Ctx.report(info(), Leaf->getBeginLoc(),
               "position of the tensor taken from the host list" + Name + " depends on " + dependenceOf(O) +
                   "; keep the tensors in one tensor (stack them) and index it on the device with a long "
                   "tensor",
               Leaf, O, Leaf->getSourceRange());
    return true;
  }
  return false;
}

void DataDependentPositionCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call)
      return;
    if (reportHostListPick(Ctx, *Call))
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
