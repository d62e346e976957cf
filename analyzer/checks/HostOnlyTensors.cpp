// Which region calls work on tensors in host memory only, from the taint analysis's host-resident
// facts and the host origins of the region's copies to a device.
#include "HostOnlyTensors.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMapContext.h>

#include <functional>

namespace graphify {

using namespace clang;

const Expr *hostMemoryOrigin(const Expr *E, const AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  return findHostResidentOrigin(E, Ctx.api(), [&](const Expr *Read) { return Facts.hostResidentOrigin(Read); });
}

/// Whether `InHost` holds for every tensor `Call` reads: a method's object, a function's tensor
/// arguments. False when it reads no tensor.
static bool everyTensorRead(const ApiCall &Call, const AnalysisContext &Ctx,
                            llvm::function_ref<bool(const Expr *)> InHost) {
  if (Call.IsMethod)
    return Call.arg(0) && InHost(Call.arg(0));
  bool Any = false;
  for (const Expr *A : Call.Args)
    if (A && Ctx.api().isTensor(A->getType())) {
      if (!InHost(A))
        return false;
      Any = true;
    }
  return Any;
}

bool readsHostMemoryOnly(const ApiCall &Call, const AnalysisContext &Ctx) {
  return everyTensorRead(Call, Ctx, [&](const Expr *E) { return hostMemoryOrigin(E, Ctx) != nullptr; });
}

/// Whether the tensor `E` is in host memory because it was copied there, not built by a factory.
static bool isHostCopy(const Expr *E, const AnalysisContext &Ctx) {
  const Expr *Origin = hostMemoryOrigin(E, Ctx);
  auto Made = Origin ? Ctx.api().resolve(Origin) : std::nullopt;
  return Origin && !(Made && Made->hasTag("host_factory"));
}

bool readsHostCopiesOnly(const ApiCall &Call, const AnalysisContext &Ctx) {
  return everyTensorRead(Call, Ctx, [&](const Expr *E) { return isHostCopy(E, Ctx); });
}

bool HostOnlyTensors::copiedToDevice(const Expr *Factory) const {
  if (!CopiedFactories) {
    CopiedFactories.emplace();
    const ApiResolver &Api = Ctx.api();
    Ctx.forEachRegionApiCall([&](const ApiCall &Call) {
      if (!Call.hasTag("device_transfer") || !copiesToDevice(Call, Api) || !Call.arg(0))
        return;
      if (std::optional<HostOrigin> Origin = findHostOrigin(Call.arg(0), Api))
        CopiedFactories->insert(Origin->Factory->IgnoreParenImpCasts());
    });
  }
  return CopiedFactories->contains(Factory->IgnoreParenImpCasts());
}

bool HostOnlyTensors::sizedByHostTensors(const ApiCall &Call) const {
  const ApiResolver &Api = Ctx.api();
  unsigned Queries = 0;
  bool AllHost = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !AllHost)
      return;
    if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E))
      if (auto Query = Api.resolve(E); Query && Query->hasTag("shape_query") && Query->arg(0) &&
                                       Api.isTensor(Query->arg(0)->getType())) {
        ++Queries;
        AllHost = hostMemoryOrigin(Query->arg(0), Ctx) != nullptr;
        return;
      }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  for (const Expr *A : Call.Args)
    if (A && !Api.isTensor(A->getType()))
      Walk(A);
  return Queries > 0 && AllHost;
}

/// The first node above `E` that is not a wrapper of its value (casts, temporaries, a copy or
/// move into a variable), or an empty node.
static DynTypedNode consumerOf(const Expr *E, ASTContext &Ast) {
  DynTypedNodeList Parents = Ast.getParents(*E);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 8; ++Depth) {
    const auto *P = Parents[0].get<Expr>();
    const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(P);
    if (!P || !(isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
                isa<CXXBindTemporaryExpr>(P) || isa<ExprWithCleanups>(P) ||
                (Ctor && Ctor->getConstructor()->isCopyOrMoveConstructor())))
      return Parents[0];
    Parents = Ast.getParents(Parents[0]);
  }
  return DynTypedNode();
}

bool HostOnlyTensors::readOnHostOnly(const Expr *Factory) const {
  const auto *VD = consumerOf(Factory, Ctx.ast()).get<VarDecl>();
  const auto *FD = VD && VD->hasLocalStorage() ? dyn_cast<FunctionDecl>(VD->getDeclContext()) : nullptr;
  if (!FD || !FD->getBody() || VD->getType()->isReferenceType())
    return false;
  unsigned Uses = 0;
  bool AllOnHost = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !AllOnHost)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD) {
      ++Uses;
      // An operand of an op of the packs that copies nothing to a device, beside host copies
      // only (and one at least: `ious <= 0.5` alone may feed a device op next); anything else (a
      // return, a store, a project's function) may take it anywhere.
      const auto *Use = consumerOf(DRE, Ctx.ast()).get<Expr>();
      auto Call = Use ? Ctx.api().resolve(Use) : std::nullopt;
      bool Named = false, BesideCopy = false;
      if (Call && !Call->Entries.empty() && !Call->hasTag("device_transfer"))
        for (const Expr *A : Call->Args) {
          if (!A || !Ctx.api().isTensor(A->getType()))
            continue;
          if (skipValueWrappers(A) == DRE)
            Named = true;
          else if (isHostCopy(A, Ctx))
            BesideCopy = true;
          else
            return void(AllOnHost = false);
        }
      AllOnHost = Named && BesideCopy;
      return;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Uses > 0 && AllOnHost;
}

bool HostOnlyTensors::staysOnHost(const ApiCall &Call) const {
  // A factory placed where a tensor in host memory is (`torch::zeros({n}, host.options())`)
  // builds in host memory whatever sizes it; one given no placement, only when the shapes of
  // host tensors size it (a read value may be a device's) or when only host work reads what it
  // builds (`torch::from_blob(picked.data(), {n}, kLong)` indexing a host copy).
  if (Call.hasTag("host_factory"))
    return (placesOnDevice(Call, Ctx.api()) ? hostMemoryOrigin(Call.Call, Ctx) != nullptr
                                            : sizedByHostTensors(Call) || readOnHostOnly(Call.Call)) &&
           !copiedToDevice(Call.Call);
  return readsHostMemoryOnly(Call, Ctx);
}

} // namespace graphify
