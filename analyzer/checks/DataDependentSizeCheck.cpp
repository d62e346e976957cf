// A size, shape, bound or k computed from a host value read from a tensor: the result's shape
// follows the data, which a static graph cannot hold. Which arguments are sizes comes from the
// `size_args` of the pack entries.
#include "DataDependentSizeCheck.h"

#include <clang/AST/ExprCXX.h>

#include <set>

namespace graphify {

using namespace clang;

const CheckInfo &DataDependentSizeCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-data-dependent-size",
      "size, shape, bound or k computed from a value read from a tensor",
      "Finds arguments at the size positions of tensor operations (zeros/arange/full sizes, "
      "view/reshape shapes, slice and narrow bounds, topk's k, Slice(a, b)) that depend on a "
      "tensor value copied to the host. The result's shape then changes with the data: a trace "
      "freezes the size seen while tracing, and a CUDA graph needs every shape fixed at capture.",
      "Use sizes from tensor metadata (x.size(0)) or constants, and express value-dependent "
      "selections with masks (torch::where, masked_fill) over a fixed-size tensor.",
      /*InTraceProfile=*/true};
  return Info;
}

/// The first tainted leaf inside a size argument: an element of a braced list `{n, 3}`, an
/// argument of a vector's construction, or the argument itself.
static const Expr *taintedLeaf(const Expr *E, const TaintFacts &Facts, unsigned Depth = 0) {
  if (!E || Depth > 8 || !Facts.tracedTaintOf(E))
    return nullptr;
  const Expr *Inner = skipValueWrappers(E);
  llvm::SmallVector<const Expr *, 4> Parts;
  if (const auto *IL = dyn_cast<InitListExpr>(Inner))
    Parts.append(IL->inits().begin(), IL->inits().end());
  else if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(Inner))
    Parts.push_back(SIL->getSubExpr());
  else if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner))
    for (const Expr *A : CE->arguments())
      Parts.push_back(A);
  for (const Expr *P : Parts)
    if (const Expr *Leaf = taintedLeaf(P, Facts, Depth + 1))
      return Leaf;
  return E;
}

void DataDependentSizeCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S) && !isa<CXXConstructExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call)
      return;
    std::set<unsigned> Positions;
    for (const ApiEntry *E : Call->Entries)
      if (E->hasTag("size_argument"))
        Positions.insert(E->SizeArgs.begin(), E->SizeArgs.end());
    for (unsigned Pos : Positions) {
      const Expr *Leaf = taintedLeaf(Call->arg(Pos), Facts);
      if (!Leaf)
        continue;
      const TracedOrigin *O = Facts.tracedTaintOf(Leaf);
      std::string Message = "size argument of '" + Call->Name +
                            "' depends on a tensor value read on the host; the result's shape "
                            "changes with the data, which a static graph cannot hold";
      Ctx.report(info(), Leaf->getBeginLoc(), Message, &S, O, Leaf->getSourceRange());
      return;
    }
  });
}

} // namespace graphify
