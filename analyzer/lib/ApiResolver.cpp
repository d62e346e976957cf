// Normalizes calls onto rule-pack entries. The invariant: every check and the taint analysis see
// the same answer for the same call, whatever its spelling, and no API name is written here —
// names come from the packs, and only the call *form* (method, function, operator, constructor)
// is decided in C++.
#include "graphify/analyzer/ApiResolver.h"

#include "CallerConstants.h"
#include "graphify/analyzer/ContainerElement.h"

#include "graphify/analyzer/SuppressionKernel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/STLExtras.h>

namespace graphify {

using namespace clang;

const ApiEntry *ApiCall::entryWithTag(llvm::StringRef Tag) const {
  for (const ApiEntry *E : Entries)
    if (E->hasTag(Tag))
      return E;
  return nullptr;
}

const Expr *skipValueWrappers(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    else if (const auto *CE = dyn_cast<ConstantExpr>(Next))
      Next = CE->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Next);
             F && F->getCastKind() == CK_NoOp)
      Next = F->getSubExpr();
    else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Next);
             Ctor && !isa<CXXTemporaryObjectExpr>(Ctor) && Ctor->getNumArgs() == 1 &&
             Ctor->getConstructor()->isCopyOrMoveConstructor())
      Next = Ctor->getArg(0);
    else if (const auto *Move = dyn_cast<CallExpr>(Next); Move && Move->isCallToStdMove())
      Next = Move->getArg(0); // `std::move(t)` is t's value
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

std::optional<llvm::SmallVector<const Expr *, 4>> argumentParts(const Expr *Inner, const CXXConstructExpr *&Constructed) {
  Constructed = nullptr;
  llvm::SmallVector<const Expr *, 4> Parts;
  if (const auto *IL = dyn_cast<InitListExpr>(Inner)) {
    Parts.append(IL->inits().begin(), IL->inits().end());
  } else if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(Inner)) {
    Parts.push_back(SIL->getSubExpr());
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner)) {
    Constructed = CE;
    Parts.append(CE->arg_begin(), CE->arg_end());
  } else {
    return std::nullopt;
  }
  return Parts;
}

// Entries named after operators describe tensor operators; a namespace-level overload for some
// other type (c10's `operator<<(ostream&, Scalar)`) must not inherit their tags, unless the
// entry is tied to the headers that declare it (declared_in: IValue's printer).
static bool operatorNeedsTensor(llvm::StringRef Name) { return Name.starts_with("operator"); }

// Whether a declaration of FD sits in a file whose path holds one of the fragments.
static bool declaredIn(const FunctionDecl *FD, llvm::ArrayRef<std::string> Fragments) {
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  for (const FunctionDecl *R : FD->redecls()) {
    llvm::StringRef File = SM.getFilename(SM.getExpansionLoc(R->getLocation()));
    if (llvm::any_of(Fragments, [&](const std::string &F) { return File.contains(F); }))
      return true;
  }
  return false;
}

// The argument's value when the compiler can fold it to an integer (`1`, `true`, a constexpr).
static std::optional<int64_t> integerConstant(const Expr *Arg, const ASTContext &Ctx) {
  if (!Arg || Arg->isValueDependent() || !Arg->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!Arg->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

void ApiResolver::dropUntypedForms(ApiCall &C) const {
  const bool ReturnsPointer = C.Callee && C.Callee->getReturnType()->isPointerType();
  llvm::erase_if(C.Entries, [&](const ApiEntry *E) {
    return (E->ReturnsPointer && !ReturnsPointer) ||
           (!E->DeclaredIn.empty() && (!C.Callee || !declaredIn(C.Callee, E->DeclaredIn))) ||
           llvm::any_of(E->TensorArgs, [&](unsigned P) {
             return P >= C.Args.size() || !isTensor(skipValueWrappers(C.Args[P])->getType());
           }) ||
           llvm::any_of(E->ArgEquals, [&](const std::pair<unsigned, int64_t> &PV) {
             return PV.first >= C.Args.size() || !C.Callee || integerConstant(C.Args[PV.first], C.Callee->getASTContext()) != PV.second;
           });
  });
}

std::optional<ApiCall> ApiResolver::resolve(const Expr *E) const {
  if (!E)
    return std::nullopt;
  ApiCall C;
  C.Call = E;
  llvm::SmallVector<const Expr *, 4> Written;
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *CD = Ctor->getConstructor();
    if (!CD)
      return std::nullopt;
    C.Callee = CD;
    C.Name = CD->getParent()->getNameAsString();
    for (const Expr *A : Ctor->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        C.Args.push_back(A);
    C.NameLoc = Ctor->getBeginLoc();
    C.Entries = Rules.lookupConstructor(CD->getParent()->getQualifiedNameAsString(), C.Args.size());
    return C;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return std::nullopt;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return std::nullopt;
  C.Callee = FD;
  C.Name = FD->getNameAsString();
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  bool Instance = MD && MD->isInstance();

  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    C.Args.push_back(MC->getImplicitObjectArgument());
    for (const Expr *A : MC->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        C.Args.push_back(A);
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      C.NameLoc = ME->getMemberLoc();
    else
      C.NameLoc = MC->getExprLoc();
  } else {
    for (const Expr *A : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        C.Args.push_back(A);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
      // The operator location of `x[i]` is its `]`; the indexed expression reads better.
      C.NameLoc = Op->getOperator() == OO_Subscript ? Op->getBeginLoc() : Op->getOperatorLoc();
    else
      C.NameLoc = Call->getCallee()->IgnoreParenImpCasts()->getBeginLoc();
  }

  // In a template's pattern, a call of a method whose type depends on the template's parameters
  // (`pop()` returning `T`) is a plain CallExpr with no object: its instantiations are resolved.
  if (Instance && C.Args.empty())
    return std::nullopt;
  if (Instance) {
    // Only methods of tensor classes match method entries: a `Scalar::equal` or a user's own
    // `item()` is not the tensor API.
    if (!recordFlavor(MD->getParent(), /*Module=*/false, 0)) {
      // Other classes' methods match only `kind: member` entries, by qualified name; a method
      // of a class template is named without the template's arguments
      // (`at::TensorAccessorBase::size`, whatever the element type).
      C.Entries = memberEntries(*MD, C.Args.size());
      // A method that writes out the NMS kernel never touches its object (or it would not be
      // recognized): called on `this` or a named object, its arguments are the kernel's.
      const Expr *Object = skipValueWrappers(C.Args.front());
      if (C.Entries.empty() && (isa<CXXThisExpr>(Object) || isa<DeclRefExpr>(Object)) && suppressionKernel(FD)) {
        C.Args.erase(C.Args.begin());
        C.Entries = entriesTagged("greedy_suppression");
      }
      return C;
    }
    C.IsMethod = true;
    C.Entries = Rules.lookupMethod(C.Name, C.Args.size());
    dropUntypedForms(C);
    return C;
  }
  std::string Qualified = FD->getQualifiedNameAsString();
  C.Entries = Rules.lookupFunction(Qualified, C.Args.size());
  dropUntypedForms(C);
  // The packs index every entry under its bare name too (for packs of the global namespace,
  // like the CUDA runtime). A user's global `print` or `split` must not inherit the tensor
  // API's tags: drop entries that the tensor namespaces claim.
  if (!C.Entries.empty() && Qualified.find("::") == std::string::npos)
    llvm::erase_if(C.Entries, [&](const ApiEntry *E) {
      // An entry tied to its headers (declared_in) matched the library's declaration itself.
      return E->DeclaredIn.empty() && claimedByTensorNamespace(*E, C.Args.size());
    });
  if (!C.Entries.empty() && operatorNeedsTensor(C.Name) &&
      llvm::none_of(C.Args, [&](const Expr *A) { return isTensor(A->getType()); }))
    llvm::erase_if(C.Entries, [](const ApiEntry *E) { return E->DeclaredIn.empty(); });
  // A project's own function that writes out torchvision's NMS kernel means what the packs say
  // of greedy suppression (after the filter above: the entry's name is the library's).
  if (C.Entries.empty() && suppressionKernel(FD))
    C.Entries = entriesTagged("greedy_suppression");
  return C;
}

std::vector<const ApiEntry *> ApiResolver::memberEntries(const CXXMethodDecl &MD, unsigned NumArgs) const {
  std::string Name = MD.getQualifiedNameAsString();
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(MD.getParent()))
    Name = Spec->getSpecializedTemplate()->getQualifiedNameAsString() + "::" + MD.getNameAsString();
  return Rules.lookupMember(Name, NumArgs);
}

const SuppressionKernel *ApiResolver::suppressionKernel(const FunctionDecl *FD) const {
  // resolve() asks for every call the packs do not describe: the cache is looked up first, and
  // remembers functions without a body and the libraries' own as well.
  if (!FD)
    return nullptr;
  const FunctionDecl *Key = FD->getCanonicalDecl();
  if (auto It = Kernels.find(Key); It != Kernels.end())
    return It->second ? &*It->second : nullptr;
  Kernels[Key] = std::nullopt; // also: a body that calls itself is not the kernel
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || isLibraryDecl(Def))
    return nullptr;
  std::optional<SuppressionKernel> Found = recognizeSuppressionKernel(*Def, *this);
  if (!Found)
    Found = recognizeDispatchingWrapper(*Def, *this);
  auto &Slot = Kernels[Key];
  Slot = Found;
  return Slot ? &*Slot : nullptr;
}

std::vector<const ApiEntry *> ApiResolver::entriesTagged(llvm::StringRef Tag) const {
  std::vector<const ApiEntry *> Out;
  for (const ApiEntry &E : Rules.entries())
    if (E.isFunction() && E.hasTag(Tag))
      Out.push_back(&E);
  return Out;
}

bool ApiResolver::claimedByTensorNamespace(const ApiEntry &E, unsigned NumArgs) const {
  if (TensorNamespaces.empty())
    for (const ApiFlavor &F : Rules.flavors())
      for (const std::string &T : F.TensorTypes)
        if (size_t Pos = T.rfind("::"); Pos != std::string::npos)
          TensorNamespaces.push_back(T.substr(0, Pos));
  for (const std::string &Ns : TensorNamespaces)
    if (llvm::is_contained(Rules.lookupFunction(Ns + "::" + E.Name, NumArgs), &E))
      return true;
  return false;
}

const ApiFlavor *ApiResolver::recordFlavor(const CXXRecordDecl *RD, bool Module, unsigned Depth) const {
  if (!RD || Depth > 16)
    return nullptr;
  RD = RD->getCanonicalDecl();
  auto &Cache = Module ? ModuleCache : TensorCache;
  if (auto It = Cache.find(RD); It != Cache.end())
    return It->second;
  Cache[RD] = nullptr; // breaks cycles through odd template bases
  std::string Name = RD->getQualifiedNameAsString();
  const ApiFlavor *F = Module ? Rules.flavorOfModuleBase(Name) : Rules.flavorOfTensorType(Name);
  if (!F) {
    if (const CXXRecordDecl *Def = RD->getDefinition()) {
      for (const CXXBaseSpecifier &B : Def->bases()) {
        if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
          if ((F = recordFlavor(Base, Module, Depth + 1)))
            break;
      }
    }
  }
  Cache[RD] = F;
  return F;
}

bool ApiResolver::isLibraryDecl(const Decl *D) const {
  llvm::StringRef Outermost;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC))
      Outermost = N->getName();
  if (Outermost.empty())
    return false;
  auto FirstComponent = [](llvm::StringRef Qualified) { return Qualified.ltrim(':').split("::").first; };
  for (const ApiFlavor &F : Rules.flavors()) {
    if (FirstComponent(F.Spelling) == Outermost)
      return true;
    for (const std::string &T : F.TensorTypes)
      if (FirstComponent(T) == Outermost)
        return true;
  }
  return false;
}

const ApiFlavor *ApiResolver::tensorFlavor(QualType T) const {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD ? recordFlavor(RD, /*Module=*/false, 0) : nullptr;
}

bool ApiResolver::isPlacementType(QualType T) const {
  if (T.isNull())
    return false;
  const TagDecl *TD = T.getNonReferenceType().getCanonicalType()->getAsTagDecl();
  if (!TD)
    return false;
  std::string Name = TD->getQualifiedNameAsString();
  return llvm::any_of(Rules.flavors(),
                      [&](const ApiFlavor &F) { return llvm::is_contained(F.PlacementTypes, Name); });
}

bool ApiResolver::isHostArray(QualType T) const {
  if (T.isNull() || Rules.hostArrays().empty())
    return false;
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    Name = Spec->getSpecializedTemplate()->getQualifiedNameAsString();
  return llvm::is_contained(Rules.hostArrays(), Name);
}

bool ApiResolver::isHostContainer(QualType T) const { return isHostContainerType(T) || isHostArray(T); }

bool ApiResolver::holdsHostArrays(QualType T) const {
  if (T.isNull() || Rules.hostArrays().empty())
    return false;
  T = T.getNonReferenceType();
  if (const auto *Array = dyn_cast<ConstantArrayType>(T.getCanonicalType()))
    return isHostArray(Array->getElementType());
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !isHostContainerType(T) || isHostArray(T))
    return false;
  const QualType Element = containerValueType(T);
  return !Element.isNull() && isHostArray(Element);
}

const ApiFlavor *ApiResolver::moduleFlavor(const CXXRecordDecl *RD) const {
  return recordFlavor(RD, /*Module=*/true, 0);
}

std::optional<std::vector<const Expr *>> assignedValues(const VarDecl *VD) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return std::nullopt;
  std::vector<const Expr *> Out;
  auto Names = [VD](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  llvm::SmallVector<const Stmt *, 64> Work = {FD->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Names(BO->getLHS())) {
      if (BO->getOpcode() != BO_Assign)
        return std::nullopt;
      Out.push_back(BO->getRHS());
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->isAssignmentOp() && OC->getNumArgs() > 0 && Names(OC->getArg(0))) {
      if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
        return std::nullopt;
      Out.push_back(OC->getArg(1));
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Out;
}

bool isAssignedAfterDeclaration(const VarDecl *VD) {
  auto Values = assignedValues(VD);
  return !Values || !Values->empty();
}

static bool mentionsConstantImpl(const Stmt *S, llvm::StringRef Enumerator,
                                 llvm::StringRef StringPrefix, unsigned Depth) {
  // Deep enough for `to(torch::Device("cpu"))`: Device -> TensorOptions -> std::string -> literal
  // through temporaries and implicit casts.
  if (!S || Depth > 24)
    return false;
  // A value chosen at run time names the constant only when every choice does:
  // `torch::cuda::is_available() ? torch::kCUDA : torch::kCPU` is not the CPU.
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return mentionsConstantImpl(CO->getTrueExpr(), Enumerator, StringPrefix, Depth + 1) &&
           mentionsConstantImpl(CO->getFalseExpr(), Enumerator, StringPrefix, Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return EC->getName().equals_insensitive(Enumerator);
    // `kCPU` and `kBool` are constants initialized from the enumerator; a local
    // `torch::Device dev(torch::kCPU);` names its device in its initializer, unless it is
    // assigned another value later.
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      bool Constant = VD->getType().isConstQualified() || VD->isConstexpr();
      bool SingleValuedLocal = VD->isLocalVarDecl() && !VD->getType()->isReferenceType() && !isAssignedAfterDeclaration(VD);
      if (Constant || SingleValuedLocal)
        if (const Expr *Init = VD->getInit())
          return mentionsConstantImpl(Init, Enumerator, StringPrefix, Depth + 1);
    }
    // A helper's parameter names it when every call passes it (`postprocess(pred, torch::kCPU)`
    // for `pred.to(device)`); only while a unit's analysis shows its calls (CallerConstants.h).
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (auto Passed = callerArguments(*P))
        return llvm::all_of(*Passed, [&](const Expr *Arg) {
          return mentionsConstantImpl(Arg, Enumerator, StringPrefix, Depth + 1);
        });
    return false;
  }
  if (const auto *SL = dyn_cast<StringLiteral>(S))
    return !StringPrefix.empty() && SL->getCharByteWidth() == 1 && SL->getString().lower().rfind(StringPrefix.lower(), 0) == 0;
  for (const Stmt *Child : S->children())
    if (mentionsConstantImpl(Child, Enumerator, StringPrefix, Depth + 1))
      return true;
  return false;
}

bool ApiResolver::mentionsConstant(const Expr *E, llvm::StringRef Enumerator,
                                   llvm::StringRef StringPrefix) {
  return mentionsConstantImpl(E, Enumerator, StringPrefix, 0);
}

/// Whether `Loc` comes from the expansion of one of `Macros`, also through the macros they expand
/// to: the expansions are walked from the innermost out.
static bool expandedFrom(SourceLocation Loc, const std::vector<std::string> &Macros, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (unsigned Depth = 0; !Macros.empty() && Loc.isMacroID() && Depth < 16; ++Depth) {
    if (llvm::is_contained(Macros, Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts())))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

bool ApiResolver::isAssertion(const Stmt &S, const ASTContext &Ctx) const {
  const std::vector<std::string> &Macros = Rules.assertionMacros();
  if (Macros.empty())
    return false;
  // The token that makes the branch (`?` of `c ? void(0) : fail()`, the `if` of TORCH_CHECK) is
  // written in a macro body; walk the expansions from the innermost out.
  SourceLocation Loc = S.getBeginLoc();
  if (const auto *CO = dyn_cast<ConditionalOperator>(&S))
    Loc = CO->getQuestionLoc();
  return expandedFrom(Loc, Macros, Ctx);
}

bool ApiResolver::isDispatch(const Stmt &S, const ASTContext &Ctx) const {
  return expandedFrom(S.getBeginLoc(), Rules.dispatchMacros(), Ctx);
}

bool ApiResolver::holdsTensors(QualType T, unsigned Depth) const {
  if (T.isNull())
    return false; // an expression clang gave no type (seen on real code in whole-program runs)
  T = T.getNonReferenceType();
  if (isTensor(T))
    return true;
  if (Depth > 4)
    return false;
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return holdsTensors(AT->getElementType(), Depth + 1);
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    for (const TemplateArgument &TA : Spec->getTemplateArgs().asArray()) {
      if (TA.getKind() == TemplateArgument::Type && holdsTensors(TA.getAsType(), Depth + 1))
        return true;
      if (TA.getKind() == TemplateArgument::Pack)
        for (const TemplateArgument &P : TA.pack_elements())
          if (P.getKind() == TemplateArgument::Type && holdsTensors(P.getAsType(), Depth + 1))
            return true;
    }
  return false;
}

bool isElementAccess(const CXXMethodDecl &MD) {
  if (!MD.getReturnType()->isLValueReferenceType() || MD.getNumParams() == 0)
    return false;
  return llvm::all_of(MD.parameters(), [](const ParmVarDecl *P) {
    QualType T = P->getType();
    return !T->isReferenceType() && T->isIntegerType();
  });
}

bool isKeyedElementAccess(const CXXMethodDecl &MD) {
  if (!MD.getReturnType()->isLValueReferenceType() || MD.getNumParams() != 1)
    return false;
  return MD.getOverloadedOperator() == OO_Subscript || (MD.getIdentifier() && MD.getName() == "at");
}

bool returnsIterator(const CXXMethodDecl &MD) {
  QualType R = MD.getReturnType();
  return !MD.isConst() && MD.getNumParams() == 0 && !R->isReferenceType() && R->isRecordType();
}

const Expr *containerIteratedBy(const Expr *Arg) {
  const Expr *E = skipValueWrappers(Arg);
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (MD && returnsIterator(*MD) && Obj && isHostContainerType(Obj->getType()))
        return Obj;
      return nullptr;
    }
    // `v.begin() + k`: the iterator's own arithmetic, a member or a free operator.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && (Op->getOperator() == OO_Plus || Op->getOperator() == OO_Minus) && Op->getNumArgs() == 2) {
      E = skipValueWrappers(Op->getArg(0));
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// A record whose data members are all public numbers (`cv::Rect_`: x, y, width, height): its
/// value_type names the type of its coordinates, not of elements it holds.
static bool isNumberRecord(const CXXRecordDecl &RD) {
  if (RD.field_empty())
    return false;
  return llvm::all_of(RD.fields(), [](const FieldDecl *F) {
    return F->getAccess() == AS_public && F->getType()->isArithmeticType();
  });
}

bool isHostContainerType(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  return !containerValueType(T).isNull() && !isNumberRecord(*RD->getDefinition());
}

} // namespace graphify
