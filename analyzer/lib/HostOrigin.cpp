// Where a tensor copied to the device was built (HostOrigin.h). A value is followed through
// locals initialised once (or given new values computed on the host from themselves), through
// every op that returns a tensor (it runs where its first tensor operand lives), dtype
// conversions and pin_memory(), and into the returns of the file's own helpers.
#include "graphify/analyzer/HostOrigin.h"

#include "TensorLists.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/ScopeExit.h>

#include <utility>

namespace graphify {

using namespace clang;

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

namespace {

bool mayNameDevice(const Expr *Arg, const ApiResolver &Api, unsigned Depth = 0);

/// Whether options may carry a device: only when something they are built from does.
/// `torch::TensorOptions().dtype(torch::kFloat)` and `torch::dtype(torch::kFloat)` are built from
/// a dtype alone and leave a factory's tensor on the host; `x.options()`, a parameter, or options
/// given a device value may not.
bool optionsMayNameDevice(const Expr *W, const ApiResolver &Api, unsigned Depth) {
  W = skipValueWrappers(W);
  // `torch::TensorOptions(torch::kByte)`: the functional cast of a converting constructor.
  while (const auto *Cast = dyn_cast_or_null<CXXFunctionalCastExpr>(W))
    W = skipValueWrappers(Cast->getSubExpr());
  if (!W || Depth > 12)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(W)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl() || VD->getType()->isReferenceType() || !VD->getInit() ||
        isAssignedAfterDeclaration(VD))
      return true;
    return optionsMayNameDevice(VD->getInit(), Api, Depth + 1);
  }
  const FunctionDecl *Callee = nullptr;
  llvm::SmallVector<const Expr *, 4> From;
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(W)) {
    Callee = Ctor->getConstructor();
    From.append(Ctor->arg_begin(), Ctor->arg_end());
  } else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(W)) {
    Callee = Member->getMethodDecl();
    From.push_back(Member->getImplicitObjectArgument());
    From.append(Member->arg_begin(), Member->arg_end());
  } else if (const auto *Call = dyn_cast<CallExpr>(W)) {
    Callee = Call->getDirectCallee();
    From.append(Call->arg_begin(), Call->arg_end());
  }
  // A function of the library builds options from its operands (LibTorch's are in c10, from a
  // system header); user code may do anything.
  if (!Callee || !(Api.isLibraryDecl(Callee) ||
                   Callee->getASTContext().getSourceManager().isInSystemHeader(Callee->getLocation())))
    return true;
  for (const Expr *Part : From)
    if (Part && !isa<CXXDefaultArgExpr>(Part) && mayNameDevice(Part, Api, Depth + 1))
      return true;
  return false;
}

/// Whether the placement argument `Arg` is a device named by a string written as `W`
/// (`to(device_string)` with `"cuda:" + std::to_string(gpu)`, `to("cuda:0")`), converted to a
/// Device on the way; one that names the CPU was answered before.
bool namesDeviceByString(const Expr *Arg, const Expr *W, const ApiResolver &Api) {
  if (!Api.isPlacementType(skipValueWrappers(Arg)->getType()))
    return false;
  QualType T = W->getType().getNonReferenceType();
  if (T->isPointerType() || T->isArrayType()) {
    QualType Element = T->isPointerType() ? T->getPointeeType() : QualType(T->getArrayElementTypeNoTypeQual(), 0);
    return Element->isAnyCharacterType();
  }
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && (RD->getName() == "basic_string" || RD->getName() == "basic_string_view");
}

/// Whether the argument may choose a device: a tensor (`to(other)` copies to other's device), a
/// device that is not the CPU, or options that may carry one.
bool mayNameDevice(const Expr *Arg, const ApiResolver &Api, unsigned Depth) {
  const Expr *W = asWritten(Arg);
  if (!W || ApiResolver::mentionsConstant(W, "CPU", "cpu"))
    return false;
  if (Api.isTensor(W->getType()))
    return true;
  if (!Api.isPlacementType(W->getType()))
    return namesDeviceByString(Arg, W, Api);
  if (!hasDeviceGetter(W->getType()))
    return true; // a device itself
  return optionsMayNameDevice(W, Api, Depth);
}

/// The tensor whose placement `Arg` copies (`t.device()`, `t.options()`, options built from
/// them by the library that name no other device: `t.options().dtype(torch::kLong)`), or null.
const Expr *placementSource(const Expr *Arg, const ApiResolver &Api) {
  const Expr *W = asWritten(Arg);
  for (unsigned Depth = 0; W && Depth < 8; ++Depth) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(skipValueWrappers(W));
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !Api.isPlacementType(MC->getType()) ||
        !(Api.isLibraryDecl(MD) || MD->getASTContext().getSourceManager().isInSystemHeader(MD->getLocation())))
      return nullptr;
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Api.isTensor(Obj->getType()))
      return MC->getNumArgs() == 0 ? Obj : nullptr;
    for (const Expr *A : MC->arguments())
      if (mayNameDevice(A, Api))
        return nullptr;
    W = Obj;
  }
  return nullptr;
}

} // namespace

/// The tuple `std::get<1>(t.sort(0))` takes an element of, or null: the element lives where
/// the op that made the tuple ran.
const Expr *tupleElementOf(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || CE->getNumArgs() != 1 || !FD->getIdentifier() || FD->getName() != "get" || !FD->isInStdNamespace())
    return nullptr;
  return CE->getArg(0);
}

/// `std::vector<Tensor>`, `at::TensorList`: a class template over tensors (not a tensor).
bool isListOfTensors(QualType T, const ApiResolver &Api) {
  T = T.getNonReferenceType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || Api.isTensor(T))
    return false;
  // `std::tuple<Tensor, Tensor>` lists its types as one pack.
  auto IsTensor = [&](const TemplateArgument &TA) {
    return TA.getKind() == TemplateArgument::Type && Api.isTensor(TA.getAsType());
  };
  return llvm::any_of(Spec->getTemplateArgs().asArray(), [&](const TemplateArgument &TA) {
    return IsTensor(TA) || (TA.getKind() == TemplateArgument::Pack && llvm::any_of(TA.pack_elements(), IsTensor));
  });
}

/// The list `E` takes an element of, or null: `grid[1]`, or a method given positions only that
/// returns a reference (`grid.at(1)`, `grid.front()`; not `emplace_back(t)`, which stores).
const Expr *listIndexed(const Expr *E, const ApiResolver &Api) {
  const Expr *List = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    List = OC->getArg(0);
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
           MC && MC->getMethodDecl() && MC->getMethodDecl()->getReturnType()->isReferenceType() &&
           llvm::all_of(MC->arguments(), [](const Expr *A) { return A->getType()->isIntegralOrEnumerationType(); }))
    List = MC->getImplicitObjectArgument();
  return List && isListOfTensors(List->getType(), Api) ? List : nullptr;
}

namespace {

class OriginFinder {
public:
  OriginFinder(const ApiResolver &Api, HostOrigin &Path, std::optional<HostResidentLookup> Known = std::nullopt)
      : Api(Api), Path(Path), Known(Known) {}

  /// The factory `E` was built by, or null. `Self` is the local whose new value is followed:
  /// a reference to it stands for its value before the assignment, which the caller follows.
  const Expr *follow(const Expr *E, unsigned Depth, const VarDecl *Self = nullptr) {
    E = skipValueWrappers(E);
    if (!E || Depth > 12)
      return nullptr;
    // An element of a list of tensors (`grid[1]` of `auto grid = torch::meshgrid({x, y})`) lives
    // where the list was made.
    if (const Expr *List = listIndexed(E, Api))
      return follow(List, Depth + 1, Self);
    if (const Expr *Tuple = tupleElementOf(E))
      return follow(Tuple, Depth + 1, Self);
    if (Known && (isa<DeclRefExpr>(E) || isa<MemberExpr>(E)))
      return (*Known)(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return followLocal(DRE, Depth, Self);
    auto Call = Api.resolve(E);
    if (!Call)
      return nullptr;
    // A copy to the CPU lands in pageable memory: where a tensor held across statements came
    // from once the analysis follows values in order (`h = x.to(kCPU); ...; h.to(kCUDA)`).
    if (Known && Call->hasTag("device_transfer") && copiesToHost(*Call))
      return E;
    if (Known && Call->hasTag("joins_inputs"))
      return joinedOrigin(Call->arg(0), Depth);
    if (Call->Entries.empty() && !(Call->Callee && Api.isLibraryDecl(Call->Callee)) && !Call->IsMethod) {
      if (const Expr *Mine = followFunction(E, Depth))
        return Mine;
      // A function defined elsewhere: what the caller knows of it (another TU's summary).
      return Known ? (*Known)(E) : nullptr;
    }
    if (Call->hasTag("host_factory")) {
      // Placed where a host tensor is, it is where that tensor came from (a caller's tensor
      // stands in for the caller's argument while a summary is made).
      const Expr *Placed = nullptr;
      for (unsigned I = Call->IsMethod ? 1 : 0; I < Call->Args.size(); ++I)
        if (mayNameDevice(Call->Args[I], Api) && !(Placed = placedWithHostTensor(Call->Args[I], Depth)))
          return nullptr;
      return Placed ? Placed : E;
    }
    // A parameter or buffer of a module lives where the module was moved, not where it was made.
    if (Call->hasTag("module_state"))
      return nullptr;
    Path.Steps.push_back(E);
    // Pinned memory is not pageable; the factory path below says when its copy still blocks.
    if (Known && Call->hasTag("pins_memory"))
      return nullptr;
    if (Call->hasTag("pins_memory") && Call->IsMethod) {
      Path.Pinned = true;
      return follow(Call->arg(0), Depth + 1, Self);
    }
    if (Call->hasTag("device_transfer"))
      return copiesToDevice(*Call, Api) ? nullptr : follow(Call->arg(0), Depth + 1, Self);
    // Any other op that returns a tensor runs where its operands are: a tensor computed from host
    // tensors (`torch::triu(torch::ones(...)).unsqueeze(0)`, `ones(...).fill_(v).toType(kLong)`)
    // is in host memory too. The first tensor operand decides (mixing devices is an error).
    // The same for an op returning a list (`torch::meshgrid({x, y})`, `chunk`) or taking one: the
    // list's tensors decide, all of them.
    if (!Api.isTensor(E->getType()) && !isListOfTensors(E->getType(), Api))
      return nullptr;
    for (const Expr *Arg : Call->Args) {
      if (!Arg)
        continue;
      if (Api.isTensor(skipValueWrappers(Arg)->getType()))
        return follow(Arg, Depth + 1, Self);
      // Only where the caller reports: the factory-to-device rule moves one factory, not a list.
      if (Known && isListOfTensors(skipValueWrappers(Arg)->getType(), Api))
        return joinedOrigin(Arg, Depth);
    }
    return nullptr;
  }

private:
  const ApiResolver &Api;
  HostOrigin &Path;

  /// Where the tensor came from whose placement `Arg` takes, when the caller knows it is in host memory
  /// (`torch::zeros({0, 6}, host.device())`, `host.options().dtype(torch::kLong)`): the factory
  /// builds in host memory too. Only where the caller follows values in order; the
  /// factory-to-device rewrite moves factories given no placement at all.
  const Expr *placedWithHostTensor(const Expr *Arg, unsigned Depth) {
    if (!Known)
      return nullptr;
    const Expr *From = placementSource(Arg, Api);
    return From ? follow(From, Depth + 1) : nullptr;
  }

  /// Set when the caller knows the values of locals and fields at the point of the read.
  std::optional<HostResidentLookup> Known;

  /// `torch::cat({a, b})` of tensors that are all in host memory: the first one's origin.
  const Expr *joinedOrigin(const Expr *List, unsigned Depth) {
    llvm::SmallVector<const Expr *, 4> Parts;
    const Expr *L = List ? List->IgnoreImplicit() : nullptr;
    if (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(L); Ctor && Ctor->getNumArgs() == 1)
      L = Ctor->getArg(0)->IgnoreImplicit();
    if (const auto *SIL = dyn_cast_or_null<CXXStdInitializerListExpr>(L))
      L = SIL->getSubExpr()->IgnoreImplicit();
    if (const auto *Temp = dyn_cast_or_null<MaterializeTemporaryExpr>(L))
      L = Temp->getSubExpr()->IgnoreImplicit();
    // A list held in a local or a field: what the caller knows it holds at this point.
    if (Known && L && (isa<DeclRefExpr>(L) || isa<MemberExpr>(L)))
      return (*Known)(L);
    const auto *IL = dyn_cast_or_null<InitListExpr>(L);
    if (!IL || IL->getNumInits() == 0)
      return nullptr;
    const Expr *First = nullptr;
    for (const Expr *Part : IL->inits()) {
      const Expr *Mine = follow(Part, Depth + 1);
      if (!Mine)
        return nullptr;
      First = First ? First : Mine;
    }
    return First;
  }

  const Expr *followLocal(const DeclRefExpr *DRE, unsigned Depth, const VarDecl *Self) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD == Self)
      return DRE;
    if (!VD || !VD->isLocalVarDecl() || VD->getType()->isReferenceType() || !VD->getInit() ||
        (isListOfTensors(VD->getType(), Api) && !elementsOnlyRead(VD, Api)))
      return nullptr;
    if (!llvm::is_contained(Path.Locals, VD))
      Path.Locals.push_back(VD);
    const Expr *Origin = follow(VD->getInit(), Depth + 1);
    if (!Origin || !isAssignedAfterDeclaration(VD))
      return Origin;
    auto Values = assignedValues(VD);
    if (!Values)
      return nullptr;
    for (const Expr *V : *Values)
      if (!follow(V, Depth + 1, VD))
        return nullptr;
    return Origin;
  }

  /// A function of the analysed code whose every return is a tensor built in host memory
  /// (`return torch::tensor(keep);`): its result is one too.
  const Expr *followFunction(const Expr *E, unsigned Depth) {
    const auto *CE = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    if (!FD || !FD->hasBody() || !Api.isTensor(E->getType()) || Depth > 8)
      return nullptr;
    Path.ThroughFunction = true;
    // The caller's knowledge is about its own locals: the helper's are followed in its body.
    auto Caller = std::exchange(Known, std::nullopt);
    auto Restore = llvm::make_scope_exit([&] { Known = Caller; });
    const Expr *Origin = nullptr;
    llvm::SmallVector<const Stmt *, 32> Work{FD->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S || isa<LambdaExpr>(S))
        continue;
      if (const auto *R = dyn_cast<ReturnStmt>(S)) {
        const Expr *Mine = R->getRetValue() ? follow(R->getRetValue(), Depth + 1) : nullptr;
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
};

} // namespace

std::optional<HostOrigin> findHostOrigin(const Expr *E, const ApiResolver &Api) {
  HostOrigin Path;
  Path.Factory = OriginFinder(Api, Path).follow(E, 0);
  if (!Path.Factory)
    return std::nullopt;
  return Path;
}

const Expr *findHostResidentOrigin(const Expr *E, const ApiResolver &Api, HostResidentLookup Known) {
  HostOrigin Path;
  return OriginFinder(Api, Path, Known).follow(E, 0);
}

bool placesOnDevice(const ApiCall &Factory, const ApiResolver &Api) {
  for (unsigned I = Factory.IsMethod ? 1 : 0; I < Factory.Args.size(); ++I)
    if (Api.isPlacementType(asWritten(Factory.Args[I])->getType()) && mayNameDevice(Factory.Args[I], Api))
      return true;
  return false;
}

bool copiesToHost(const ApiCall &Call) {
  if (!Call.hasTag("device_transfer") || Call.hasTag("to_device"))
    return false;
  if (Call.hasTag("host_sync"))
    return true;
  for (unsigned I = Call.IsMethod ? 1 : 0; I < Call.Args.size(); ++I)
    if (ApiResolver::mentionsConstant(Call.Args[I], "CPU", "cpu"))
      return true;
  return false;
}

bool copiesToDevice(const ApiCall &Call, const ApiResolver &Api) {
  if (!Call.hasTag("device_transfer"))
    return false;
  for (unsigned I = Call.IsMethod ? 1 : 0; I < Call.Args.size(); ++I)
    if (ApiResolver::mentionsConstant(Call.Args[I], "CPU", "cpu"))
      return false;
  if (Call.hasTag("to_device"))
    return true;
  return destinationArgument(Call, Api) != nullptr;
}

bool hasDeviceGetter(QualType T) {
  llvm::SmallVector<const CXXRecordDecl *, 4> Work;
  if (const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl())
    Work.push_back(RD);
  for (unsigned Seen = 0; !Work.empty() && Seen < 16; ++Seen) {
    const CXXRecordDecl *RD = Work.pop_back_val();
    if (!RD || !RD->hasDefinition())
      continue;
    for (const CXXMethodDecl *M : RD->methods())
      if (M->getIdentifier() && M->getName() == "device" && M->getNumParams() == 0)
        return true;
    for (const CXXBaseSpecifier &B : RD->bases())
      Work.push_back(B.getType()->getAsCXXRecordDecl());
  }
  return false;
}

const Expr *destinationArgument(const ApiCall &Call, const ApiResolver &Api) {
  for (unsigned I = Call.IsMethod ? 1 : 0; I < Call.Args.size(); ++I)
    if (mayNameDevice(Call.Args[I], Api))
      return Call.Args[I];
  return nullptr;
}

/// The braced list an argument is written as (`{0}` converted to an IntArrayRef through an
/// initializer_list), or null.
const InitListExpr *bracedList(const Expr *Arg) {
  const Expr *E = Arg;
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = skipValueWrappers(E)->IgnoreImplicit();
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return IL;
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E); Ctor && Ctor->getNumArgs() >= 1)
      E = Ctor->getArg(0);
    else if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
      E = SIL->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

/// Whether `Factory` (a host_factory call) is given a size of zero elements (`torch::empty({0})`):
/// a copy of it moves nothing and waits for nothing.
bool buildsNoElements(const ApiCall &Factory, ASTContext &Ast) {
  for (const ApiEntry *E : Factory.Entries)
    for (unsigned Pos : E->SizeArgs)
      if (Pos < Factory.Args.size())
        if (const auto *IL = bracedList(Factory.Args[Pos]))
          for (const Expr *Dim : IL->inits())
            if (auto V = Dim->getIntegerConstantExpr(Ast); V && V->isZero())
              return true;
  return false;
}

bool buildsFromScalar(const ApiCall &Factory) {
  for (const ApiEntry *E : Factory.Entries)
    for (unsigned Pos : E->LengthArgs)
      if (const Expr *Data = Pos < Factory.Args.size() ? asWritten(Factory.Args[Pos]) : nullptr;
          Data && Data->getType()->isArithmeticType())
        return true;
  return false;
}

bool buildsHostValuesOnDevice(const ApiCall &Factory, const ApiResolver &Api, clang::ASTContext &Ast) {
  return Factory.hasTag("host_data") &&
         llvm::any_of(Factory.Entries, [](const ApiEntry *E) { return !E->LengthArgs.empty(); }) &&
         placesOnDevice(Factory, Api) && !buildsNoElements(Factory, Ast) && !buildsFromScalar(Factory);
}

} // namespace graphify
