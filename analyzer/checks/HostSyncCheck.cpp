// Device-to-host reads, and host-to-device copies of tensors built in pageable host memory.
// Under cuda-graph every such call blocks capture; under trace only those
// whose value reaches the graph change results (a value only printed or dropped is harmless
// there), which the taint facts answer with flowsIntoGraph().
#include "HostSyncCheck.h"

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

namespace graphify {

using namespace clang;

namespace {

/// The argument as written, without the implicit conversion clang adds to match the parameter:
/// `torch::kFloat` passed as TensorOptions is still a dtype.
const Expr *asWritten(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = skipValueWrappers(E);
    const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(E);
    if (!Ctor || isa<CXXTemporaryObjectExpr>(Ctor) || Ctor->isListInitialization() || Ctor->getNumArgs() == 0 ||
        Ctor->getConstructor()->isCopyOrMoveConstructor() || !Ctor->getConstructor()->isConvertingConstructor(false))
      return E;
    E = Ctor->getArg(0);
  }
  return E;
}

/// Whether the argument may choose a device: a value of a placement type (options, a device)
/// that does not name the CPU, or a tensor (`to(other)` copies to other's device).
bool mayNameDevice(const Expr *Arg, const ApiResolver &Api) {
  const Expr *W = asWritten(Arg);
  if (!W || ApiResolver::mentionsConstant(W, "CPU", "cpu"))
    return false;
  return Api.isPlacementType(W->getType()) || Api.isTensor(W->getType());
}

/// A transfer that copies self to a device (not to the CPU, not a dtype conversion).
bool copiesToDevice(const ApiCall &Call, const ApiResolver &Api) {
  if (!Call.hasTag("device_transfer"))
    return false;
  for (unsigned I = Call.IsMethod ? 1 : 0; I < Call.Args.size(); ++I)
    if (ApiResolver::mentionsConstant(Call.Args[I], "CPU", "cpu"))
      return false;
  if (Call.hasTag("to_device"))
    return true;
  for (unsigned I = Call.IsMethod ? 1 : 0; I < Call.Args.size(); ++I)
    if (mayNameDevice(Call.Args[I], Api))
      return true;
  return false;
}

const Expr *userFunctionHostOrigin(const Expr *E, const ApiResolver &Api, bool &Pinned, unsigned Depth);

/// Where a tensor in pageable host memory was built: the host_factory call (a factory given no
/// placement argument), followed through locals initialised once, elements-preserving calls and
/// conversions that stay on the host. `Pinned` is set when pin_memory() is on the way. A local
/// given new values is followed when each is computed on the host from itself or from host
/// tensors (`m = m.unsqueeze(0).expand(...)`): `Self` is the local whose new value is followed.
const Expr *hostOrigin(const Expr *E, const ApiResolver &Api, bool &Pinned, unsigned Depth = 0,
                       const VarDecl *Self = nullptr) {
  E = skipValueWrappers(E);
  if (!E || Depth > 12)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD == Self)
      return E; // its value before this assignment, which the caller follows
    if (!VD || !VD->isLocalVarDecl() || VD->getType()->isReferenceType() || !VD->getInit())
      return nullptr;
    const Expr *Origin = hostOrigin(VD->getInit(), Api, Pinned, Depth + 1);
    if (!Origin || !isAssignedAfterDeclaration(VD))
      return Origin;
    auto Values = assignedValues(VD);
    if (!Values)
      return nullptr;
    for (const Expr *V : *Values)
      if (!hostOrigin(V, Api, Pinned, Depth + 1, VD))
        return nullptr;
    return Origin;
  }
  auto Call = Api.resolve(E);
  if (!Call)
    return nullptr;
  if (Call->Entries.empty() && !(Call->Callee && Api.isLibraryDecl(Call->Callee)) && !Call->IsMethod)
    return userFunctionHostOrigin(E, Api, Pinned, Depth);
  if (Call->hasTag("host_factory")) {
    for (unsigned I = Call->IsMethod ? 1 : 0; I < Call->Args.size(); ++I)
      if (mayNameDevice(Call->Args[I], Api))
        return nullptr;
    return E;
  }
  if (Call->hasTag("pins_memory") && Call->IsMethod) {
    Pinned = true;
    return hostOrigin(Call->arg(0), Api, Pinned, Depth + 1, Self);
  }
  if (Call->hasTag("device_transfer"))
    return copiesToDevice(*Call, Api) ? nullptr : hostOrigin(Call->arg(0), Api, Pinned, Depth + 1, Self);
  // Any other op that returns a tensor runs where its operands are: a tensor computed from host
  // tensors (`torch::triu(torch::ones(...)).unsqueeze(0)`, `ones(...).fill_(v).toType(kLong)`)
  // is in host memory too. The first tensor operand decides (mixing devices is an error).
  if (!Api.isTensor(E->getType()))
    return nullptr;
  for (const Expr *Arg : Call->Args)
    if (Arg && Api.isTensor(skipValueWrappers(Arg)->getType()))
      return hostOrigin(Arg, Api, Pinned, Depth + 1, Self);
  return nullptr;
}

/// A function of the analysed code whose every return is a tensor built in host memory
/// (`return torch::tensor(keep);`): its result is one too.
const Expr *userFunctionHostOrigin(const Expr *E, const ApiResolver &Api, bool &Pinned, unsigned Depth) {
  const auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->hasBody() || !Api.isTensor(E->getType()) || Depth > 8)
    return nullptr;
  const Expr *Origin = nullptr;
  llvm::SmallVector<const Stmt *, 32> Work{FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      const Expr *Mine = R->getRetValue() ? hostOrigin(R->getRetValue(), Api, Pinned, Depth + 1) : nullptr;
      if (!Mine)
        return nullptr;
      Origin = Origin ? Origin : Mine;
      continue;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Origin;
}

/// The taint of the host data a host-built tensor is made of (`keep` in `torch::tensor(keep)`,
/// `ids.data()` in `from_blob(ids.data(), ...)`) when it holds values read from tensors: the copy
/// is then half of a round trip, device to host and back. Sizes of selections are not values.
const TracedOrigin *hostDataTaint(const Expr *Origin, const TaintFacts &Facts) {
  llvm::SmallVector<const Stmt *, 16> Work{Origin};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *E = dyn_cast<Expr>(S))
      if (const TracedOrigin *O = Facts.tracedTaintOf(E); O && !O->SizeOfSelection)
        return O;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return nullptr;
}

/// Whether a `true` is among the call's boolean arguments (non_blocking in to() and cuda()).
bool hasTrueFlag(const ApiCall &Call) {
  for (const Expr *A : Call.Args) {
    const auto *B = dyn_cast_or_null<CXXBoolLiteralExpr>(A ? A->IgnoreParenImpCasts() : nullptr);
    if (B && B->getValue())
      return true;
  }
  return false;
}

/// Whether `S` is part of the initialiser of a static local: it runs on the first call only,
/// which warm-up runs before any capture.
bool inStaticInitializer(const Stmt &S, ASTContext &Ast) {
  DynTypedNodeList Parents = Ast.getParents(S);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 64; ++Depth) {
    if (const auto *VD = Parents[0].get<VarDecl>())
      return VD->isStaticLocal();
    if (!Parents[0].get<Expr>())
      return false;
    Parents = Ast.getParents(Parents[0]);
  }
  return false;
}

} // namespace

const CheckInfo &HostSyncCheck::checkInfo() {
  static const CheckInfo Info{
      "graphify-host-sync",
      "device-to-host read or transfer inside a graph region",
      "Finds calls that read tensor values on the host or wait for the device: item(), "
      "is_nonzero(), equal(), allclose(), data_ptr()/accessor() reads, cpu() and to(kCPU), "
      "printing a tensor (entries tagged host_sync, and device_transfer entries whose "
      "destination argument is the CPU), and copies to the device of tensors built in pageable "
      "host memory (host_factory results moved with to(device) or cuda()). Each one synchronizes the host with the device, which "
      "CUDA-graph capture forbids; under --profile=trace only reads whose value flows into the "
      "graph are reported, because a trace freezes them into constants.",
      "Keep the value on the device as a 0-d tensor (x * y.max() instead of "
      "x * y.max().item<float>()), compare with tensor ops and select with torch::where, and "
      "move logging and host copies out of the graph region. Tensors built from host data "
      "(torch::tensor(v), from_blob, arange(n)) and then moved to the device: create them once "
      "outside the region (a buffer or field already on the device), create them on the device "
      "(arange(n, x.options())), or copy from pinned memory with non_blocking=true.",
      /*InTraceProfile=*/true};
  return Info;
}

void HostSyncCheck::run(AnalysisContext &Ctx) {
  const TaintFacts &Facts = Ctx.facts();
  bool Trace = Ctx.profile() == Profile::Trace;
  Ctx.forEachRegionStmt([&](const Stmt &S) {
    if (!isa<CallExpr>(S))
      return;
    auto Call = Ctx.api().resolve(cast<Expr>(&S));
    if (!Call || Call->Entries.empty())
      return;
    // One finding per call: these entries belong to the dynamic-shape and capture checks.
    if (Call->hasTag("dynamic_output_shape") || Call->hasTag("capture_unsafe"))
      return;
    std::string What;
    if (const ApiEntry *E = Call->entryWithTag("host_sync")) {
      What = "'" + Call->Name + "' " + (E->Doc.empty() ? "reads tensor data on the host" : E->Doc);
    } else if (Call->hasTag("device_transfer")) {
      bool ToCpu = false;
      for (unsigned I = Call->IsMethod ? 1 : 0; I < Call->Args.size(); ++I)
        ToCpu |= ApiResolver::mentionsConstant(Call->Args[I], "CPU", "cpu");
      if (!ToCpu) {
        // Host to device: a tensor built in pageable host memory copied to the device. A trace
        // records it as a constant, which is fine; capture cannot hold the synchronous copy.
        bool Pinned = false;
        const Expr *Origin = Call->IsMethod && !Trace ? hostOrigin(Call->arg(0), Ctx.api(), Pinned) : nullptr;
        if (!Origin || !copiesToDevice(*Call, Ctx.api()) || (Pinned && hasTrueFlag(*Call)) ||
            inStaticInitializer(S, Ctx.ast()))
          return;
        auto OriginCall = Ctx.api().resolve(Origin);
        const SourceManager &SM = Ctx.ast().getSourceManager();
        Ctx.report(info(), Call->NameLoc,
                   "'" + Call->Name + "' copies a tensor built in host memory ('" +
                       (OriginCall ? OriginCall->Name : std::string("tensor")) + "', line " +
                       std::to_string(SM.getExpansionLineNumber(Origin->getBeginLoc())) +
                       ") to the device; a copy from pageable memory synchronises with the host and cannot "
                       "be captured in a CUDA graph",
                   &S, hostDataTaint(Origin, Facts));
        return;
      }
      What = "'" + Call->Name + "' copies the tensor to host memory";
    } else {
      return;
    }
    if (Trace) {
      // Only reads that produce a host value which then reaches the graph.
      if (!Call->hasTag("data_dependent_output") || !Facts.flowsIntoGraph(Call->Call))
        return;
      Ctx.report(info(), Call->NameLoc,
                 What + "; a trace records the value as a constant for every input", &S);
      return;
    }
    Ctx.report(info(), Call->NameLoc,
               What + "; the device-to-host sync cannot be captured in a CUDA graph", &S);
  });
}

} // namespace graphify
