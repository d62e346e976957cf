// Ops whose output shape follows tensor values. Owned here, once per call, even when the entry
// also carries host_sync (`nonzero`): the shape is the deeper problem, and host-sync skips it.
#include "DynamicShapeCheck.h"

#include <clang/AST/ExprCXX.h>

namespace graphify {

using namespace clang;

const CheckInfo &DynamicShapeCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-dynamic-shape",
      "operation whose output shape depends on tensor values",
      "Finds operations tagged dynamic_output_shape in the rule packs (nonzero, argwhere, "
      "masked_select, unique*, bincount, one-argument where) and indexing with a provable "
      "boolean mask (index({mask}), index_put_({mask}, v)). Their output shape is known only "
      "after reading the data on the host, so a CUDA graph cannot hold them. Indexing with "
      "long tensors (argmax, argsort) is fixed-size and not reported.",
      "Keep fixed shapes: select with torch::where(mask, x, 0) or masked_fill instead of "
      "masked_select/boolean indexing, reorder with a stable argsort of the mask instead of "
      "concatenating boolean selections, and write through masks instead of nonzero indices.",
      /*InTraceProfile=*/false};
  return Info;
}

/// The tensors inside an index list argument (`{m}`, `{Slice(), m}`).
static void indexTensors(const Expr *E, const ApiResolver &Api,
                         llvm::SmallVectorImpl<const Expr *> &Out, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return;
  E = skipValueWrappers(E);
  if (Api.isTensor(E->getType())) {
    Out.push_back(E);
    return;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      indexTensors(I, Api, Out, Depth + 1);
  } else if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E)) {
    indexTensors(SIL->getSubExpr(), Api, Out, Depth + 1);
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *A : CE->arguments())
      indexTensors(A, Api, Out, Depth + 1);
  } else if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    indexTensors(ICE->getSubExpr(), Api, Out, Depth + 1);
  }
}

static std::string describe(const ApiEntry &E) { return E.Doc.empty() ? "" : ": " + E.Doc; }

void DynamicShapeCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call || Call->Entries.empty())
      return;
    if (const ApiEntry *E = Call->entryWithTag("dynamic_output_shape")) {
      Ctx.report(info(), Call->NameLoc,
                 "'" + Call->Name + "' has a data-dependent output shape" + describe(*E) +
                     "; a static graph cannot hold it",
                 &S);
      return;
    }
    if (const ApiEntry *E = Call->entryWithTag("bool_mask_index")) {
      for (unsigned Pos : E->IndexArgs) {
        llvm::SmallVector<const Expr *, 4> Tensors;
        indexTensors(Call->arg(Pos), Ctx.api(), Tensors);
        for (const Expr *T : Tensors)
          if (Facts.isBoolMask(T)) {
            Ctx.report(info(), Call->NameLoc,
                       "'" + Call->Name + "' with a boolean mask has a data-dependent output "
                       "shape" + describe(*E) + "; a static graph cannot hold it",
                       &S);
            return;
          }
      }
    }
  });
}

} // namespace graphify
