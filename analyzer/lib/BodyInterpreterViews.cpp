// Host views of a tensor's memory (`auto a = cpu.accessor<float, 2>();`). The view's elements are
// values read from tensor data (the call that made it is the read); its sizes are the tensor's
// metadata, which follow the data only when the tensor's shape does: `a.size(0)` of a view of a
// selection's host copy is the number of rows selected, a loop over it a data-dependent loop —
// here, and in a helper the view is handed to.
#include "BodyInterpreter.h"

namespace graphify::taint {

using namespace clang;

const Expr *BodyInterpreter::viewedTensor(const Expr *View, unsigned Depth) {
  const Expr *E = skipValueWrappers(View);
  if (!E || Depth > 4)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    // A local made once from the view (accessors are not reassigned in practice; a reference
    // names the view it was bound to).
    if (!VD || isa<ParmVarDecl>(VD) || !isLocal(VD) || !VD->getInit())
      return nullptr;
    return viewedTensor(VD->getInit(), Depth + 1);
  }
  // A view is what a tensor's method returns that the packs say reads its data and whose
  // sizes the packs query as metadata (the caller's shape_query member).
  auto C = Api.resolve(E);
  if (!C || C->Args.empty() || !passesObject(*C) || !Api.isTensor(C->Args[0]->getType()) ||
      !C->hasTag("data_dependent_output"))
    return nullptr;
  return C->Args[0];
}

TaintValue BodyInterpreter::viewedSize(const ApiCall &C, const Expr *E) {
  const Expr *Tensor = viewedTensor(C.Args[0]);
  const Expr *Dim = C.Args.size() > 1 ? C.Args[1] : nullptr;
  if (!Tensor) {
    // A view handed in as a parameter: its leading size is what the caller's tensor's is.
    const auto *DRE = dyn_cast<DeclRefExpr>(skipValueWrappers(C.Args[0]));
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    std::optional<int64_t> D = Dim ? constantDim(Dim) : std::nullopt;
    if (!P || P->getDeclContext() != FD || !D || *D != 0)
      return {};
    unsigned I = P->getFunctionScopeIndex();
    return {nullptr, sizeBit(I), A.paramEntry(FD, I, /*Size=*/true)};
  }
  TaintValue Shape = dynamicShape(Tensor);
  if (Shape.empty() || (Dim && !followsDim(Shape, Dim)) || (!Dim && !Shape.tainted()))
    return {};
  Shape.AnyDim = false; // a host value now
  Shape.Dims = 1;
  return step(Shape, C.NameLoc, E, "its size read here");
}

TaintValue BodyInterpreter::viewedLength(const Expr *Arg) {
  const Expr *Tensor = viewedTensor(Arg);
  if (!Tensor)
    return {};
  TaintValue Shape = dynamicShape(Tensor);
  if (!Shape.tainted() || !Shape.followsDim(0))
    return {};
  return {Shape.Origin, 0, Shape.Context};
}

} // namespace graphify::taint
