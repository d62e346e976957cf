// Device-to-host reads, and host-to-device copies of tensors built in pageable host memory.
// Under cuda-graph every such call blocks capture; under trace only those
// whose value reaches the graph change results (a value only printed or dropped is harmless
// there), which the taint facts answer with flowsIntoGraph().
#include "HostSyncCheck.h"

#include "HostOnlyTensors.h"

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/HostOrigin.h"


#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/Path.h>

namespace graphify {

using namespace clang;

namespace {

/// The body of the function or lambda that holds `S`, or null.
const Stmt *enclosingBody(const Stmt &S, ASTContext &Ast) {
  DynTypedNodeList Parents = Ast.getParents(S);
  for (unsigned Depth = 0; Depth < 256 && !Parents.empty(); ++Depth) {
    if (const auto *FD = Parents[0].get<FunctionDecl>())
      return FD->getBody();
    if (const auto *L = Parents[0].get<LambdaExpr>())
      return L->getBody();
    Parents = Ast.getParents(Parents[0]);
  }
  return nullptr;
}

/// Whether the variables `S` names are all parameters of the function whose body is `Helper` (and
/// it names one): `v`, `v.data()`, the ArrayRef built from `v`.
bool madeOfParameters(const Stmt *S, const Stmt *Helper) {
  bool Any = false;
  llvm::SmallVector<const Stmt *, 8> Work{S};
  while (!Work.empty()) {
    const Stmt *C = Work.pop_back_val();
    if (!C)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(C); DRE && isa<VarDecl>(DRE->getDecl())) {
      const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
      const auto *Owner = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
      if (!Owner || Owner->getBody() != Helper)
        return false;
      Any = true;
    }
    if (isa<CXXThisExpr>(C))
      return false;
    for (const Stmt *Child : C->children())
      Work.push_back(Child);
  }
  return Any;
}

/// The first traced taint in `Root` that is a value (not a selection's size). A parameter of
/// the function whose body is `Helper` is skipped: its fact joins every call site's argument, and
/// only this site's matters.
const TracedOrigin *valueTaintIn(const Stmt *Root, const TaintFacts &Facts, const Stmt *Helper) {
  llvm::SmallVector<const Stmt *, 16> Work{Root};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (Helper && isa<Expr>(S) && madeOfParameters(S, Helper))
      continue;
    if (const auto *E = dyn_cast<Expr>(S))
      if (const TracedOrigin *O = Facts.tracedTaintOf(E); O && !O->SizeOfSelection)
        return O;
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return nullptr;
}

/// The taint of the host data a host-built tensor is made of (`keep` in `torch::tensor(keep)`,
/// `ids.data()` in `from_blob(ids.data(), ...)`) when it holds values read from tensors: the copy
/// is then half of a round trip, device to host and back. Sizes of selections are not values.
/// Built in a helper (`to_tensor(v).to(device)`), the data is what this call site hands it: the
/// helper's own reads, and the arguments of the copy's receiver.
const TracedOrigin *hostDataTaint(const Expr *Origin, const ApiCall &Copy, const TaintFacts &Facts,
                                  ASTContext &Ctx) {
  const Stmt *Helper = enclosingBody(*Origin, Ctx);
  if (!Helper || Helper == enclosingBody(*Copy.Call, Ctx))
    return valueTaintIn(Origin, Facts, nullptr);
  if (const TracedOrigin *Own = valueTaintIn(Origin, Facts, Helper))
    return Own;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Copy.Call);
  return MC ? valueTaintIn(MC->getImplicitObjectArgument(), Facts, nullptr) : nullptr;
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

/// Where the tensor a copy to the device reads was put in pageable host memory, or null: a
/// factory followed through the code (also into helpers), or what the analysis knows the locals
/// and fields hold at the copy (`t = t.to(kCUDA)` of a host `t`, a field only ever given host
/// copies, a round trip through `to(kCPU)`). A pinned source copied with non_blocking=true is
/// stream-ordered and fine.
const Expr *hostOriginOfCopy(const ApiCall &Copy, const ApiResolver &Api, const TaintFacts &Facts) {
  if (auto Path = findHostOrigin(Copy.arg(0), Api))
    return Path->Pinned && hasTrueFlag(Copy) ? nullptr : Path->Factory;
  return findHostResidentOrigin(Copy.arg(0), Api,
                                [&](const Expr *Read) { return Facts.hostResidentOrigin(Read); });
}

/// "line 12" for a place in the file of `From`, "model.h:12" for one in another file (a field's
/// initialiser in the class's header).
std::string whereInSource(SourceLocation Loc, SourceLocation From, const SourceManager &SM) {
  SourceLocation At = SM.getExpansionLoc(Loc);
  std::string Line = std::to_string(SM.getExpansionLineNumber(At));
  if (SM.getFileID(At) == SM.getFileID(SM.getExpansionLoc(From)))
    return "line " + Line;
  return llvm::sys::path::filename(SM.getFilename(At)).str() + ":" + Line;
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

/// Every reference to `V` in `Body`.
std::vector<const DeclRefExpr *> referencesTo(const VarDecl *V, const Stmt *Body) {
  std::vector<const DeclRefExpr *> Out;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V)
      Out.push_back(DR);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Out;
}

/// The types the packs' stream arguments have in a unit (`cudaStream_t`, `CUstream`): the
/// parameter at `stream_arg` of each global function the packs describe with one (the runtime's
/// and the driver's C APIs are declared at global scope), found once, when first asked.
class StreamTypes {
public:
  StreamTypes(ASTContext &Ast, const ApiResolver &Api) : Ast(Ast), Api(Api) {}
  bool contains(QualType T) const {
    if (!Found) {
      Found = true;
      collect(Ast.getTranslationUnitDecl());
    }
    return Types.contains(T.getCanonicalType().getTypePtr());
  }

private:
  ASTContext &Ast;
  const ApiResolver &Api;
  mutable bool Found = false;
  mutable llvm::DenseSet<const Type *> Types;

  void collect(const DeclContext *DC) const {
    for (const Decl *D : DC->decls()) {
      if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) { // extern "C" { ... }
        collect(LS);
        continue;
      }
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (!FD || !FD->getIdentifier())
        continue;
      for (const ApiEntry *E : Api.rules().lookupFunction(FD->getName(), FD->getNumParams()))
        if (E->StreamArg && *E->StreamArg < FD->getNumParams())
          Types.insert(FD->getParamDecl(*E->StreamArg)->getType().getCanonicalType().getTypePtr());
    }
  }
};

/// Whether `E` is a local pointer that a call of the body tagged device_allocation made point at
/// device memory (`float *d_out; cudaMalloc(&d_out, n);`).
bool isDeviceAllocation(const Expr *E, const Stmt *Body, const ApiResolver &Api) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !Body || !V->hasLocalStorage() || !V->getType()->isPointerType())
    return false;
  for (const DeclRefExpr *Use : referencesTo(V, Body)) {
    // `&d_out`, perhaps cast to `void **`, given as the allocation's pointer argument.
    for (const Stmt *S = Use; S;) {
      DynTypedNodeList Parents = V->getASTContext().getParents(*S);
      const auto *Up = Parents.empty() ? nullptr : Parents[0].get<Expr>();
      if (const auto *Call = dyn_cast_or_null<CallExpr>(Up)) {
        auto Alloc = Api.resolve(Call);
        if (Alloc && Alloc->hasTag("device_allocation"))
          for (const ApiEntry *Entry : Alloc->Entries)
            if (!Entry->PointerArgs.empty() && Alloc->arg(Entry->PointerArgs.front()) == S)
              return true;
        break;
      }
      const auto *U = dyn_cast_or_null<UnaryOperator>(Up);
      if (!Up || !(isa<CastExpr, ParenExpr>(Up) || (U && U->getOpcode() == UO_AddrOf)))
        break;
      S = Up;
    }
  }
  return false;
}

/// Whether the argument `Arg` of `Call` is a device pointer of it: an argument of a kernel
/// launch, or one of the call's pointer_args (for a copy, under a direction that keeps both
/// pointers in device memory, or the destination of a copy to the device), or an argument of a
/// function the packs do not describe that is given a stream (`launchAllReduce(t.data_ptr(),
/// n, stream)`: a launcher, which enqueues device work on the memory; a host function could not
/// dereference a device address), or given memory the body allocated on the device
/// (`launchFlow(t.data_ptr<float>(), n, d_out)` after `cudaMalloc(&d_out, ...)`: the same).
bool isDevicePointerArgument(const Expr *Arg, const CallExpr &Call, const ApiResolver &Api, const StreamTypes &Streams,
                             ASTContext &Ast) {
  if (isa<CUDAKernelCallExpr>(Call))
    return true;
  auto Resolved = Api.resolve(&Call);
  if ((!Resolved || Resolved->Entries.empty()) && Call.getDirectCallee()) {
    const Stmt *Body = enclosingBody(Call, Ast);
    if (llvm::any_of(Call.arguments(), [&](const Expr *A) {
          return A != Arg && (Streams.contains(A->getType()) || isDeviceAllocation(A, Body, Api));
        }))
      return true;
  }
  if (!Resolved)
    return false;
  for (const ApiEntry *E : Resolved->Entries)
    for (unsigned Pos : E->PointerArgs) {
      if (Resolved->arg(Pos) != Arg)
        continue;
      if (!E->KindArg)
        return true;
      const Expr *Kind = Resolved->arg(*E->KindArg);
      const auto *DR = Kind ? dyn_cast<DeclRefExpr>(Kind->IgnoreParenImpCasts()) : nullptr;
      const auto *Enumerator = DR ? dyn_cast<EnumConstantDecl>(DR->getDecl()) : nullptr;
      if (Enumerator && llvm::is_contained(E->DeviceKinds, Enumerator->getName()))
        return true;
      // A copy to the device writes its destination there (`cudaMemcpyHostToDevice`).
      if (Enumerator && Pos == E->PointerArgs.front() && llvm::is_contained(E->DstDeviceKinds, Enumerator->getName()))
        return true;
    }
  return false;
}

/// Whether the pointer `E` (a tensor's data_ptr()) reaches device code only — a kernel launch's
/// arguments, the device pointers of a stream-ordered copy or memset — directly, through casts
/// and offsets, or through local pointers whose every use does — or nowhere (a local never used,
/// a value discarded by a cast to void): the tensor's memory is then read and written on the
/// device, nothing of it on the host.
bool reachesDeviceOnly(const Expr &E, ASTContext &Ast, const ApiResolver &Api, const StreamTypes &Streams,
                       unsigned Depth = 0) {
  if (Depth > 4)
    return false;
  const Expr *Node = &E;
  for (;;) {
    DynTypedNodeList Parents = Ast.getParents(*Node);
    if (Parents.size() != 1)
      return false;
    if (const auto *Init = Parents[0].get<VarDecl>()) {
      const Stmt *Body = enclosingBody(E, Ast);
      if (!Body || !Init->hasLocalStorage() || !Init->getType()->isPointerType())
        return false;
      // A pointer kept but never used (or only discarded: `(void)raw;`) reads nothing either.
      const std::vector<const DeclRefExpr *> Uses = referencesTo(Init, Body);
      return llvm::all_of(Uses, [&](const DeclRefExpr *Use) { return reachesDeviceOnly(*Use, Ast, Api, Streams, Depth + 1); });
    }
    const auto *Up = Parents[0].get<Expr>();
    if (!Up)
      return false;
    if (const auto *Discard = dyn_cast<ExplicitCastExpr>(Up); Discard && Discard->getType()->isVoidType())
      return true; // discarded: nothing dereferences it

    if (const auto *Call = dyn_cast<CallExpr>(Up))
      return llvm::is_contained(Call->arguments(), Node) && isDevicePointerArgument(Node, *Call, Api, Streams, Ast);
    // `p + offset`, `(CUdeviceptr)p`: the same memory.
    const auto *BO = dyn_cast<BinaryOperator>(Up);
    if (!(isa<CastExpr>(Up) || isa<ParenExpr>(Up) ||
          (BO && BO->isAdditiveOp() && BO->getType()->isPointerType())))
      return false;
    Node = Up;
  }
}

/// The index tensors in `Arg` (`{rows, cols}` of `x.index(...)`) that a factory given no device
/// built in pageable host memory (`torch::arange(n)`), each with that factory. Indexing copies
/// them to the indexed tensor's device first.
void hostIndices(const Expr *Arg, const ApiResolver &Api, llvm::SmallVectorImpl<std::pair<const Expr *, const Expr *>> &Out,
                 unsigned Depth = 0) {
  if (!Arg || Depth > 6)
    return;
  const Expr *Inner = skipValueWrappers(Arg);
  const CXXConstructExpr *Constructed = nullptr;
  if (auto Parts = argumentParts(Inner, Constructed)) {
    for (const Expr *Part : *Parts)
      hostIndices(Part, Api, Out, Depth + 1);
    return;
  }
  if (!Api.isTensor(Inner->getType()))
    return;
  if (auto Path = findHostOrigin(Inner, Api); Path && !Path->Pinned)
    Out.push_back({Inner, Path->Factory});
}

/// `boxes.index({torch::arange(b).view({-1, 1}), order})` of a device tensor: the host-built
/// indices are copied to the device as it is indexed, an implicit copy from pageable memory.
void reportHostIndices(const ApiCall &Call, AnalysisContext &Ctx, const CheckInfo &Info) {
  const ApiEntry *Index = nullptr;
  for (const ApiEntry *E : Call.Entries)
    if (!E->IndexArgs.empty())
      Index = E;
  if (!Index || Call.Args.empty() || readsHostMemoryOnly(Call, Ctx))
    return;
  llvm::SmallVector<std::pair<const Expr *, const Expr *>, 2> Found;
  hostIndices(Call.arg(Index->IndexArgs.front()), Ctx.api(), Found);
  if (Found.empty())
    return;
  const Expr *Factory = Found.front().second;
  auto Made = Ctx.api().resolve(Factory);
  if (Ctx.report(Info, Call.NameLoc,
             "'" + Call.Name + "' takes indices built in host memory ('" + (Made ? Made->Name : std::string("tensor")) +
                 "', " + whereInSource(Factory->getBeginLoc(), Call.NameLoc, Ctx.ast().getSourceManager()) +
                 "), which it copies to the device first; a copy from pageable memory synchronises with the host and "
                 "cannot be captured in a CUDA graph",
             Call.Call))
    Ctx.lastFinding().Tag = "host_indices";
}

/// `host.copy_(x)`, `host.index_put_({i}, x[j])` with `host` in pageable host memory and `x` a
/// tensor that may live on a device: the write copies device values into host memory, which
/// waits for the device. True when reported.
bool reportDeviceToHostWrite(const ApiCall &Call, AnalysisContext &Ctx, const CheckInfo &Info) {
  // A field written (`token_ids.index_put_({i}, out.token_ids)` in a struct's setter) is left
  // out: its sources are most often other objects' fields, which hold host tensors as often as
  // device ones, and which objects flow here is not followed (the twenty-eighth #27 set: 2 of 5).
  if (!Call.hasTag("writes_self_from_args") || !Call.IsMethod || !Call.arg(0) ||
      isa<MemberExpr>(Call.arg(0)->IgnoreParenImpCasts()))
    return false;
  const Expr *Host = hostMemoryOrigin(Call.arg(0), Ctx);
  if (!Host)
    return false;
  // The values written are the last tensor argument (index_put_'s values after its indices,
  // scatter_'s src after its index); a number written (`fill_`, `index_put_({i}, 0)`) is no copy.
  const Expr *Source = nullptr;
  for (unsigned Pos = 1; Pos < Call.Args.size(); ++Pos)
    if (Call.arg(Pos) && Ctx.api().isTensor(Call.arg(Pos)->getType()))
      Source = Call.arg(Pos);
  if (!Source || hostMemoryOrigin(Source, Ctx))
    return false;
  auto Made = Ctx.api().resolve(Host);
  const SourceManager &SM = Ctx.ast().getSourceManager();
  if (Ctx.report(Info, Call.NameLoc,
             "'" + Call.Name + "' writes a tensor that may live on a device into a tensor in host memory ('" +
                 (Made ? Made->Name : std::string("tensor")) + "', " +
                 whereInSource(Host->getBeginLoc(), Call.NameLoc, SM) +
                 "): a copy from the device to pageable memory, which waits for the device and cannot be "
                 "captured in a CUDA graph (make it on the device, with the written tensor's options, or copy "
                 "the results to the host once after the region)",
             Call.Call))
    Ctx.lastFinding().Tag = "device_to_host_write";
  return true;
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
      "host memory (host_factory results moved with to(device) or cuda()), and writes of tensors that may live on a "
      "device into tensors in host memory (copy_, index_put_: entries tagged writes_self_from_args). Each one synchronizes the host with the device, which "
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
  const StreamTypes Streams(Ctx.ast(), Ctx.api());
  Ctx.forEachRegionApiCall([&](const ApiCall &Call) {
    if (Call.Entries.empty())
      return;
    if (!Trace) {
      reportHostIndices(Call, Ctx, info());
      if (reportDeviceToHostWrite(Call, Ctx, info()))
        return;
    }
    const Stmt &S = *Call.Call;
    // One finding per call: these entries belong to the dynamic-shape and capture checks.
    if (Call.hasTag("dynamic_output_shape") || Call.hasTag("capture_unsafe"))
      return;
    // A copy to the CPU of a tensor already in host memory moves nothing and waits for nothing.
    if (Call.IsMethod && copiesToHost(Call) &&
        findHostResidentOrigin(Call.arg(0), Ctx.api(), [&](const Expr *Read) { return Facts.hostResidentOrigin(Read); }))
      return;
    // A read of a tensor in host memory waits for no device: one built there by a factory (never
    // on a device: `memcpy` into the data_ptr() of a fresh `torch::zeros`), whose copy to the
    // device is the finding, or one copied to the CPU before the region or window ran
    // (`lengths = t.to(kCPU); begin(); ... lengths[0].item()`).
    if (!Trace && Call.hasTag("host_sync") && !Call.hasTag("device_transfer") && readsHostMemoryOnly(Call, Ctx))
      return;
    // `torch::tensor(values, x.options())`: host values built straight on the device the options
    // name, the copy of `torch::tensor(values).to(x.device())` in one call. A factory that wraps
    // memory (`from_blob` given CUDA options wraps device memory) copies nothing; one that copies
    // host values element by element says so with its length_args. One number given so is
    // filled on the device (`torch::tensor(0.f, torch::kCUDA)`), not copied.
    if (!Trace && !inStaticInitializer(S, Ctx.ast()) && buildsHostValuesOnDevice(Call, Ctx.api(), Ctx.ast())) {
      Ctx.report(info(), Call.NameLoc,
                 "'" + Call.Name + "' builds a tensor from host values on the device its options name: a copy "
                 "from pageable memory, which synchronises with the host and cannot be captured in a CUDA graph",
                 &S);
      return;
    }
    // A device address handed to device code (`cudaMemcpyAsync(dst, t.data_ptr<float>(), n,
    // cudaMemcpyDeviceToDevice, s)`, a kernel's argument): nothing is read on the host.
    if (!Trace && Call.hasTag("host_sync") && Call.Call->getType()->isPointerType() &&
        reachesDeviceOnly(*Call.Call, Ctx.ast(), Ctx.api(), Streams))
      return;
    std::string What;
    if (const ApiEntry *E = Call.entryWithTag("host_sync")) {
      What = "'" + Call.Name + "' " + (E->Doc.empty() ? "reads tensor data on the host" : E->Doc);
    } else if (Call.hasTag("device_transfer")) {
      if (!copiesToHost(Call)) {
        // Host to device: a tensor built in pageable host memory copied to the device. A trace
        // records it as a constant, which is fine; capture cannot hold the synchronous copy.
        if (!Call.IsMethod || Trace || !copiesToDevice(Call, Ctx.api()) || inStaticInitializer(S, Ctx.ast()))
          return;
        const Expr *Origin = hostOriginOfCopy(Call, Ctx.api(), Facts);
        if (!Origin)
          return;
        auto OriginCall = Ctx.api().resolve(Origin);
        if (OriginCall && OriginCall->hasTag("host_factory") && buildsNoElements(*OriginCall, Ctx.ast()))
          return;
        bool RoundTrip = OriginCall && copiesToHost(*OriginCall);
        // A function of another translation unit that returns a host tensor (its summary says
        // so) is the origin as far as this TU can see.
        bool Helper = OriginCall && OriginCall->Entries.empty();
        const SourceManager &SM = Ctx.ast().getSourceManager();
        std::string Where = whereInSource(Origin->getBeginLoc(), Call.NameLoc, SM);
        Ctx.report(info(), Call.NameLoc,
                   "'" + Call.Name + "' copies a tensor " +
                       (Helper ? "that '" + OriginCall->Name + "' (" + Where + ") returns in host memory "
                               : std::string(RoundTrip ? "copied to host memory" : "built in host memory") + " ('" +
                                     (OriginCall ? OriginCall->Name : std::string("tensor")) + "', " + Where + ") ") +
                       (RoundTrip ? "back " : "") +
                       "to the device; a copy from pageable memory synchronises with the host and cannot "
                       "be captured in a CUDA graph",
                   &S, hostDataTaint(Origin, Call, Facts, Ctx.ast()));
        return;
      }
      What = "'" + Call.Name + "' copies the tensor to host memory";
    } else {
      return;
    }
    if (Trace) {
      // Only reads that produce a host value which then reaches the graph.
      if (!Call.hasTag("data_dependent_output") || !Facts.flowsIntoGraph(Call.Call))
        return;
      Ctx.report(info(), Call.NameLoc,
                 What + "; a trace records the value as a constant for every input", &S);
      return;
    }
    Ctx.report(info(), Call.NameLoc,
               What + "; the device-to-host sync cannot be captured in a CUDA graph", &S);
  });
}

} // namespace graphify
