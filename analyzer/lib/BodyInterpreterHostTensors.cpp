// Host residency: which locals, fields and lists hold tensors in pageable host memory along
// the path walked, what a call leaves in the tensors it is given by reference, and the host
// tensors a call passes to the program's own functions (BodyInterpreter.h).
#include "BodyInterpreter.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ExprCXX.h>

namespace graphify::taint {

using namespace clang;

const Expr *BodyInterpreter::hostResident(const Expr *E) {
  return findHostResidentOrigin(E, Api, [&](const Expr *Read) { return heldInHost(Read); });
}

const Expr *BodyInterpreter::heldInHost(const Expr *Read) {
  Read = Read->IgnoreParenImpCasts();
  // A function whose summary says it returns a host tensor (every return is one where this
  // analysis followed its body: `return torch::stack(kept)` of host rows), also one defined in
  // another TU: the call stands for the factory.
  if (const auto *CE = dyn_cast<CallExpr>(Read)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || Api.isLibraryDecl(Callee) || Ctx().getSourceManager().isInSystemHeader(Callee->getLocation()))
      return nullptr;
    if (Callee->hasBody()) {
      auto Mine = A.Summaries.find(key(Callee));
      return Mine != A.Summaries.end() && Mine->second.ReturnsHost ? CE : nullptr;
    }
    if (!A.Program)
      return buildsFromHostDataElsewhere(Callee) ? CE : nullptr;
    const FunctionSummary *Sum = A.importedSummary(Callee);
    return Sum && Sum->ReturnsHost ? CE : nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Read)) {
    // `auto [conf, j] = host.max(1, true);`: a binding not given a value of its own is an
    // element of the tuple its declaration holds.
    if (const auto *B = dyn_cast<BindingDecl>(DRE->getDecl()); B && !S.HostTensors.count(B))
      if (const ValueDecl *Whole = B->getDecomposedDecl())
        return S.HostTensors.lookup(Whole);
    return S.HostTensors.lookup(DRE->getDecl());
  }
  const auto *ME = dyn_cast<MemberExpr>(Read);
  const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!F)
    return nullptr;
  // `out.boxes` of a local host record (`Outputs out = predict(x);`): every tensor in it is.
  if (const auto *Base = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return isTensorRecord(Base->getType()) && Api.isTensor(F->getType()) ? S.HostTensors.lookup(Base->getDecl())
                                                                       : nullptr;
  if (!isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return S.HostTensors.lookup(F);
}

bool BodyInterpreter::buildsFromHostDataElsewhere(const FunctionDecl *Callee) {
  // A free function of the project defined in another file (`torch::Tensor image_to_tensor(const
  // cv::Mat &)`), outside whole-program mode: given host data and no tensor, device or options,
  // the tensor it returns can only come from a factory that names no device, in host memory.
  if (isa<CXXMethodDecl>(Callee) && !cast<CXXMethodDecl>(Callee)->isStatic())
    return false;
  if (!Api.isTensor(Callee->getReturnType()))
    return false;
  bool HostData = false;
  for (const ParmVarDecl *P : Callee->parameters()) {
    QualType T = P->getType();
    if (Api.isTensor(T) || Api.holdsTensors(T) || Api.isPlacementType(T) || isTensorRecord(T))
      return false;
    HostData = HostData || Api.isHostContainer(T) || T->isPointerType();
  }
  return HostData;
}

bool BodyInterpreter::isTensorRecord(QualType T) {
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  // Asked at every declaration, call argument and field read: decided once per class.
  auto [It, New] = TensorRecords.try_emplace(RD->getCanonicalDecl(), false);
  if (New)
    It->second = decideTensorRecord(T, RD);
  return It->second;
}

bool BodyInterpreter::decideTensorRecord(QualType T, const CXXRecordDecl *RD) {
  if (!RD->hasDefinition() || Api.holdsTensors(T) || Api.isLibraryDecl(RD) || RD->getNumBases() != 0 ||
      Ctx().getSourceManager().isInSystemHeader(RD->getLocation()))
    return false;
  // A method could store a device tensor in a field behind the analysis's back.
  if (llvm::any_of(RD->methods(), [](const CXXMethodDecl *M) {
        return !M->isImplicit() && !M->isStatic() && !M->isConst() && !isa<CXXConstructorDecl, CXXDestructorDecl>(M);
      }))
    return false;
  bool AnyTensor = false;
  for (const FieldDecl *F : RD->fields()) {
    if (Api.isTensor(F->getType()))
      AnyTensor = true;
    else if (Api.holdsTensors(F->getType()) || isTensorRecord(F->getType()))
      return false; // its tensors are not read as `out.f`
  }
  return AnyTensor;
}

const Expr *withoutCopy(const Expr *E) {
  E = E ? skipValueWrappers(E) : nullptr;
  while (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(E)) {
    if (!Ctor->getConstructor()->isCopyOrMoveConstructor() || Ctor->getNumArgs() != 1)
      break;
    E = skipValueWrappers(Ctor->getArg(0));
  }
  return E;
}

const Expr *BodyInterpreter::hostRecord(const Expr *E) {
  E = withoutCopy(E);
  if (!E || !isTensorRecord(E->getType()))
    return nullptr;
  // `Outputs{a.to(torch::kCPU), b.to(torch::kCPU)}`: every tensor given is in host memory.
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    const Expr *First = nullptr;
    for (const Expr *Init : List->inits()) {
      if (!Api.isTensor(Init->getType()))
        continue;
      const Expr *Host = A.realHostOrigin(hostResident(Init));
      if (!Host)
        return nullptr;
      First = First ? First : Host;
    }
    return First;
  }
  if (isa<CallExpr>(E) && !isa<CXXOperatorCallExpr>(E))
    return heldInHost(E); // a helper whose returns all are
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return S.HostTensors.lookup(DRE->getDecl());
  return nullptr;
}

void BodyInterpreter::rebindRecordField(const MemberExpr *Target, const Expr *Value) {
  const auto *Base = dyn_cast<DeclRefExpr>(Target->getBase()->IgnoreParenImpCasts());
  if (Base && S.HostTensors.count(Base->getDecl()) && !A.realHostOrigin(hostResident(Value)))
    S.HostTensors.erase(Base->getDecl());
}

void BodyInterpreter::forgetRecordsPassed(const ApiCall &C, unsigned First) {
  if (!C.Callee || Api.isLibraryDecl(C.Callee))
    return;
  for (unsigned I = 0; I < C.Callee->getNumParams() && First + I < C.Args.size(); ++I) {
    QualType T = C.Callee->getParamDecl(I)->getType();
    if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified() || !isTensorRecord(T))
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(C.Args[First + I]->IgnoreParenImpCasts()))
      S.HostTensors.erase(DRE->getDecl());
  }
}

void BodyInterpreter::rebindField(const FieldDecl *F, const Expr *Value) {
  WrittenFields.insert(F);
  if (const Expr *Host = hostResident(Value))
    S.HostTensors[F] = Host;
  else
    S.HostTensors.erase(F);
}

void BodyInterpreter::noteModuleState(const ApiCall &C) {
  if (!C.hasTag("module_state"))
    return;
  for (const Expr *Arg : C.Args) {
    const auto *ME = Arg ? dyn_cast<MemberExpr>(skipValueWrappers(Arg)) : nullptr;
    const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (F && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) && Api.isTensor(F->getType())) {
      WrittenFields.insert(F);
      S.HostTensors.erase(F);
    }
  }
}

void BodyInterpreter::noteFieldAtExit(const FieldDecl *F, const Expr *HostOrigin) {
  HostOrigin = A.realHostOrigin(HostOrigin);
  if (!HostOrigin) {
    A.FieldOtherWrites.insert(F);
    return;
  }
  auto [It, New] = A.FieldHostWrites.try_emplace(F, HostOrigin);
  // Across calls the field may hold any of its writes: keep one that holds elements (`reset()`
  // making it `zeros({0, 0})` must not hide a later host tensor, as a copy of an empty one would
  // move nothing).
  if (!New && buildsNothing(It->second) && !buildsNothing(HostOrigin)) {
    It->second = HostOrigin;
    ++A.FieldHostUpgrades;
  }
}

bool BodyInterpreter::buildsNothing(const Expr *HostOrigin) {
  auto Call = Api.resolve(HostOrigin);
  return Call && Call->hasTag("host_factory") && buildsNoElements(*Call, Ctx());
}

void BodyInterpreter::recordFieldExits() {
  for (const FieldDecl *F : WrittenFields)
    noteFieldAtExit(F, Exit.Unreachable ? nullptr : Exit.HostTensors.lookup(F));
}

void BodyInterpreter::forgetFieldsOthersRebind() {
  llvm::SmallVector<const void *, 4> Gone;
  for (const auto &KV : S.HostTensors)
    if (const auto *F = dyn_cast<FieldDecl>(static_cast<const Decl *>(KV.first)); F && A.FieldOtherWrites.contains(F))
      Gone.push_back(KV.first);
  for (const void *K : Gone)
    S.HostTensors.erase(K);
}

void BodyInterpreter::noteHostArguments(const ApiCall &C, unsigned First) {
  if (!C.Callee || Api.isLibraryDecl(C.Callee) || !C.Callee->hasBody())
    return;
  for (unsigned I = 0; I < C.Callee->getNumParams() && First + I < C.Args.size(); ++I) {
    QualType T = C.Callee->getParamDecl(I)->getType();
    const Expr *Host = Api.isTensor(T)         ? A.realHostOrigin(hostResident(C.Args[First + I]))
                       : isTensorRecord(T) ? A.realHostOrigin(hostRecord(C.Args[First + I]))
                                           : nullptr;
    if (Host)
      A.noteHostArgument(C.Callee, I, C.Call, Host);
  }
}

void BodyInterpreter::notePassedForRebinding(const ApiCall &C, unsigned First) {
  if (!C.Callee || Api.isLibraryDecl(C.Callee))
    return;
  if (First == 1 && !C.Args.empty() && isa<CXXThisExpr>(C.Args[0]->IgnoreParenImpCasts()))
    forgetFieldsOthersRebind();
  auto Sum = A.Summaries.find(key(C.Callee));
  // A function whose body no unit shows (`scale_boxes(boxes, ...)` defined in another file,
  // outside whole-program mode) is taken to work on the tensor in place, where it is: rebinding
  // a caller's tensor to another device is what project helpers rarely do.
  const bool Unseen = !C.Callee->hasBody() && !(A.Program && A.importedSummary(C.Callee));
  llvm::SmallVector<std::pair<const VarDecl *, const Expr *>, 2> Left;
  for (unsigned I = 0; I < C.Callee->getNumParams() && First + I < C.Args.size(); ++I) {
    QualType T = C.Callee->getParamDecl(I)->getType();
    if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified() || !Api.isTensor(T))
      continue;
    const Expr *Arg = C.Args[First + I]->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(Arg))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        A.FieldOtherWrites.insert(F);
        S.HostTensors.erase(F);
        S.ThisFieldShapes.erase(F);
        noteTensorFieldRebound(F);
      }
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !isLocal(VD))
      continue;
    const Expr *Host = Unseen                                                       ? S.HostTensors.lookup(VD)
                       : Sum != A.Summaries.end() && I < Sum->second.OutHost.size() ? Sum->second.OutHost[I]
                                                                                    : nullptr;
    if (const ParmVarDecl *From = A.placeholderParam(Host))
      Host = First + From->getFunctionScopeIndex() < C.Args.size()
                 ? hostResident(C.Args[First + From->getFunctionScopeIndex()])
                 : nullptr;
    Left.push_back({VD, Host});
  }
  for (const auto &[VD, Host] : Left)
    if (Host)
      S.HostTensors[VD] = Host;
    else
      S.HostTensors.erase(VD);
}

void BodyInterpreter::forgetHostIfMixed(const Expr *Target, const Expr *Operand) {
  if (!Api.isTensor(skipValueWrappers(Operand)->getType()) || A.realHostOrigin(hostResident(Operand)))
    return;
  Target = Target->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Target))
    S.HostTensors.erase(DRE->getDecl());
  else if (const auto *ME = dyn_cast<MemberExpr>(Target); ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    S.HostTensors.erase(ME->getMemberDecl());
}

std::optional<bool> BodyInterpreter::cpuDeviceTest(const Expr *Cond) {
  bool Negated = false;
  const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  for (const auto *Not = dyn_cast_or_null<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot;
       Not = dyn_cast<UnaryOperator>(E)) {
    Negated = !Negated;
    E = Not->getSubExpr()->IgnoreParenImpCasts();
  }
  auto Call = E ? Api.resolve(E) : std::nullopt;
  if (Call && Call->hasTag("cpu_device_test"))
    return !Negated;
  if (Call && Call->hasTag("accelerator_device_test"))
    return Negated;
  return std::nullopt;
}

void BodyInterpreter::holdCopiesOnCpuPath(TaintState &OnCpu, const TaintState &Elsewhere) {
  if (OnCpu.Unreachable || Elsewhere.Unreachable)
    return;
  for (const auto &[Key, Origin] : Elsewhere.HostTensors)
    if (Origin && !OnCpu.HostTensors.count(Key))
      OnCpu.HostTensors[Key] = Origin;
}

void BodyInterpreter::startListOfStores(const VarDecl *List) {
  auto Initial = initialTensors(List, Api);
  if (!Initial)
    return;
  const Expr *First = nullptr;
  for (const Expr *E : *Initial) {
    const Expr *Host = A.realHostOrigin(hostResident(E));
    if (!Host)
      return;
    First = First ? First : Host;
  }
  S.HostTensors[List] = First;
}

} // namespace graphify::taint
