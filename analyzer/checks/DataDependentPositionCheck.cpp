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

/// The first tainted integer inside a position argument: an element of a braced index list
/// `{b, i}`, the integer a TensorIndex is converted from, or the argument itself. The bounds of
/// a `Slice(a, b)` are not positions (they are the size check's): a construction that is itself
/// a pack API is not looked into.
static const Expr *taintedPosition(const Expr *E, const AnalysisContext &Ctx, unsigned Depth = 0) {
  const TaintFacts &Facts = Ctx.facts();
  if (!E || Depth > 8 || !Facts.tracedTaintOf(E))
    return nullptr;
  const Expr *Inner = skipValueWrappers(E);
  llvm::SmallVector<const Expr *, 4> Parts;
  if (const auto *IL = dyn_cast<InitListExpr>(Inner)) {
    Parts.append(IL->inits().begin(), IL->inits().end());
  } else if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(Inner)) {
    Parts.push_back(SIL->getSubExpr());
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner)) {
    auto Api = Ctx.api().resolve(CE);
    if (Api && !Api->Entries.empty())
      return nullptr;
    Parts.append(CE->arg_begin(), CE->arg_end());
  } else {
    return Inner->getType()->isIntegerType() ? E : nullptr;
  }
  for (const Expr *P : Parts)
    if (const Expr *Leaf = taintedPosition(P, Ctx, Depth + 1))
      return Leaf;
  return nullptr;
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
      const Expr *Leaf = taintedPosition(Call->arg(Pos), Ctx);
      if (!Leaf)
        continue;
      Ctx.report(info(), Leaf->getBeginLoc(),
                 "position argument of '" + Call->Name +
                     "' depends on a tensor value read on the host; keep the index on the device "
                     "as a long tensor instead of reading it",
                 &S, Facts.tracedTaintOf(Leaf), Leaf->getSourceRange());
      return;
    }
  });
}

} // namespace graphify
