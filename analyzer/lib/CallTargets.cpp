// Targets of virtual and indirect calls. Invariant: a holder's callables are only ever the
// bodies graphify saw assigned to it; anything else it is given makes it unseen, never empty.
#include "CallTargets.h"
#include "CallTargetsDetail.h"

#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/ContainerElement.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/DenseSet.h>

#include <functional>

namespace graphify {

using namespace clang;
using namespace calltargets;

namespace calltargets {

const Decl *canon(const Decl *D) { return D ? D->getCanonicalDecl() : nullptr; }

/// Whether values of type `T` are callables whose target is chosen at run time: function
/// pointers, and library wrappers with a call operator (std::function, c10::function_ref).
bool isCallableHolder(QualType T) {
  T = T.getNonReferenceType();
  // A dispatch table: an array of function pointers or wrappers.
  while (const ArrayType *A = T->getAsArrayTypeUnsafe())
    T = A->getElementType();
  if (T->isFunctionPointerType() || T->isMemberFunctionPointerType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || RD->isLambda() || !RD->hasDefinition())
    return false;
  const SourceManager &SM = RD->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(SM.getFileLoc(RD->getLocation())))
    return false;
  return llvm::any_of(RD->methods(), [](const CXXMethodDecl *M) { return M->getOverloadedOperator() == OO_Call; });
}

} // namespace calltargets

bool CallTargets::isCallableContainer(QualType T) {
  if (T.isNull())
    return false;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isLambda())
    return false;
  const SourceManager &SM = RD->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(SM.getFileLoc(RD->getLocation())))
    return false;
  const QualType Element = containerValueType(T);
  if (Element.isNull())
    return false;
  const QualType V = Element.getCanonicalType();
  if (isCallableHolder(V))
    return true;
  // A map's element is a pair whose second holds the callable.
  const auto *Pair = dyn_cast_or_null<ClassTemplateSpecializationDecl>(V->getAsCXXRecordDecl());
  return Pair && Pair->getTemplateArgs().size() == 2 && Pair->getTemplateArgs()[1].getKind() == TemplateArgument::Type &&
         isCallableHolder(Pair->getTemplateArgs()[1].getAsType());
}

namespace calltargets {

/// The initialiser written with a holder's declaration (`std::function<void()> f = [&] {...};`,
/// a field's in-class initialiser), or null; a parameter's are its callers' arguments.
const Expr *declaredInit(const Decl *H) {
  if (const auto *FD = dyn_cast<FieldDecl>(H))
    return FD->getInClassInitializer();
  // `extern Fn table[];` in a header, defined with its callables in one source file.
  if (const auto *VD = dyn_cast<VarDecl>(H); VD && !isa<ParmVarDecl>(VD))
    return VD->getAnyInitializer();
  return nullptr;
}

/// Whether a holder of type `T` has callables assigned to it: a callable holder or a container
/// of them.
bool holdsCallables(QualType T) { return isCallableHolder(T) || CallTargets::isCallableContainer(T); }

/// The callables a value holds when it is given to a container (or an array) of callables:
/// itself when it is one, else those inside a braced list, a pair or an initializer list
/// (`{"gelu", &gelu}`); keys, sizes and iterators are not callables.
void forEachCallable(const Expr *E, llvm::function_ref<void(const Expr *)> F, unsigned Depth = 0) {
  if (!E)
    return;
  E = skipValueWrappers(E);
  if (E->getType().isNull()) // a template pattern's parenthesised initializer
    return;
  bool List = isa<InitListExpr, CXXStdInitializerListExpr>(E) || E->getType()->isArrayType();
  if (!List && (isCallableHolder(E->getType()) || E->getType()->isFunctionType() || CallTargets::callableBody(E))) {
    F(E);
    return;
  }
  if (Depth > 4)
    return;
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(E))
    forEachCallable(SIL->getSubExpr(), F, Depth + 1);
  else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    forEachCallable(MT->getSubExpr(), F, Depth + 1);
  else if (const auto *IL = dyn_cast<InitListExpr>(E))
    for (const Expr *Init : IL->inits())
      forEachCallable(Init, F, Depth + 1);
  else if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    for (const Expr *A : CE->arguments())
      forEachCallable(A, F, Depth + 1);
}

/// Whether a holder of type `T` holds a collection of callables (an array or a container).
bool holdsMany(QualType T) {
  return T.getNonReferenceType()->isArrayType() || CallTargets::isCallableContainer(T);
}


/// The holder an accessor returns a reference to (`Registry &hooks() { static Registry h;
/// return h; }`, `Fns &fns() { return fns_; }`), or a copy of (`Registry make() { Registry r;
/// r["a"] = f; return r; }`: the copy holds r's callables), when every return names the same one.
const ValueDecl *returnedHolder(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  if (!FD->hasBody())
    return nullptr;
  const ValueDecl *Out = nullptr;
  bool Agree = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Agree || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      const ValueDecl *H = namedHolder(R->getRetValue(), Depth + 1);
      Agree = H && (!Out || Out == H);
      Out = H;
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(FD->getBody());
  return Agree ? Out : nullptr;
}

/// An accessor of a registry defined in another file (`std::vector<Hook> &Hooks();` declared
/// here): it stands for the holder it returns a reference to, whose key (holderKey) is the
/// accessor's in every unit, so whole-program mode joins what the defining file gives it.
static const ValueDecl *accessorElsewhere(const FunctionDecl *FD) {
  if (!FD || FD->getDefinition() || !FD->getReturnType()->isLValueReferenceType() || isa<CXXMethodDecl>(FD))
    return nullptr;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())) ? nullptr : cast<ValueDecl>(FD->getCanonicalDecl());
}

/// The type of what a holder holds: a function's (an accessor's) is its return type's.
static QualType heldTypeOf(const ValueDecl &H) {
  if (const auto *FD = dyn_cast<FunctionDecl>(&H))
    return FD->getReturnType().getNonReferenceType();
  return H.getType();
}

/// The variable, field or parameter `E` names (through `*` and casts), or null. An element of an
/// array or a container names the array or container (`table[op]`, `hooks[i]`, `hooks.front()`,
/// the variable of `for (auto &h : hooks)`): it holds every callable it was given. So does an
/// accessor that returns a reference to it (`hooks()[i]`).
const ValueDecl *namedHolder(const Expr *E, unsigned Depth) {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  // A copy or a move of a holder holds what it holds (`return r;` of a local container).
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1 && Copy->getConstructor()->isCopyOrMoveConstructor())
    return namedHolder(Copy->getArg(0), Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  // `(this->*step)(s)`, `(obj.*table[i])(s)`: the pointer to member names the holder.
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isPtrMemOp())
    return namedHolder(BO->getRHS(), Depth + 1);
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    E = AS->getBase()->IgnoreParenImpCasts();
  // `hooks[i]`, `*it`, `it->second`: an element, through the container's or iterator's operators.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    OverloadedOperatorKind K = Op->getOperator();
    if ((K == OO_Subscript || K == OO_Star || K == OO_Arrow) && Op->getNumArgs() >= 1)
      return namedHolder(Op->getArg(0), Depth + 1);
    return nullptr;
  }
  // `hooks.front()`, `hooks.at(i)`, `hooks.begin()`: a method of the container.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Object = MC->getImplicitObjectArgument();
    if (Object && (CallTargets::isCallableContainer(Object->getType()) || CallTargets::isCallableContainer(Object->getType()->getPointeeType())))
      return namedHolder(Object, Depth + 1);
    return holdsCallables(MC->getType()) ? returnedHolder(MC->getDirectCallee(), Depth) : nullptr;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && !isa<CXXOperatorCallExpr>(Call)) {
    if (!holdsCallables(Call->getType()))
      return nullptr;
    if (const ValueDecl *Returned = returnedHolder(Call->getDirectCallee(), Depth))
      return Returned;
    return accessorElsewhere(Call->getDirectCallee());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    // `it->second` of a map's element: the library pair's field stands for the container.
    const SourceManager &SM = ME->getMemberDecl()->getASTContext().getSourceManager();
    if (Field && SM.isInSystemHeader(SM.getFileLoc(Field->getLocation())))
      return namedHolder(ME->getBase(), Depth + 1);
    return Field;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    // The variable of a range-based for, and the hidden range and iterator it is read through.
    if (VD && VD->getInit() && (VD->isCXXForRangeDecl() || VD->isImplicit()))
      if (const ValueDecl *Range = namedHolder(VD->getInit(), Depth + 1);
          Range && CallTargets::isCallableContainer(heldTypeOf(*Range)))
        return Range;
    return VD;
  }
  return nullptr;
}

/// Whether values of `T` are objects of a library class (an `AnyModule`, a `Sequential`, a
/// `std::shared_ptr`), which may hold modules given to them: declared in a system header or in
/// a tensor library's namespace (LibTorch's C++ API headers are often found through `-I`).
bool isLibraryObject(QualType T, const ApiResolver &Api) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isLambda() || holdsCallables(T))
    return false;
  const SourceManager &SM = RD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getFileLoc(RD->getLocation())) || Api.isLibraryDecl(RD);
}


} // namespace calltargets

const Expr *CallTargets::throughAccess(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if ((Op->getOperator() != OO_Arrow && Op->getOperator() != OO_Star) || Op->getNumArgs() != 1)
      break;
    E = Op->getArg(0)->IgnoreParenImpCasts();
  }
  return E;
}

namespace calltargets {

/// The callable a call of the packs' `wraps_callable` entries makes a callable of (the first of
/// its `callable_args`), or null.
const Expr *wrappedCallable(const Expr *E, const ApiResolver &Api) {
  if (!isa<CallExpr>(E))
    return nullptr;
  auto C = Api.resolve(E);
  const ApiEntry *Entry = C ? C->entryWithTag("wraps_callable") : nullptr;
  return Entry && !Entry->CallableArgs.empty() ? C->arg(Entry->CallableArgs.front()) : nullptr;
}

/// Whether `E` holds no callable (`nullptr`, `{}`, a default-constructed wrapper).
bool isEmptyCallable(const Expr *E) {
  E = skipValueWrappers(E);
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr, CXXScalarValueInitExpr, ImplicitValueInitExpr>(E))
    return true;
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() == 0;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return CE->getNumArgs() == 0 ||
           (CE->getNumArgs() == 1 && isa<CXXNullPtrLiteralExpr>(skipValueWrappers(CE->getArg(0))));
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue() == 0; // `fp = 0`
  return false;
}

} // namespace calltargets

std::vector<const Decl *> CallTargets::callOperators(const Expr *E, const ApiResolver *Api) {
  std::vector<const Decl *> Out;
  auto Add = [&](const FunctionDecl *F) {
    if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate())
      Out.insert(Out.end(), T->spec_begin(), T->spec_end()); // a generic lambda, `auto` parameters
    else
      Out.push_back(F);
  };
  if (const Decl *B = callableBody(E, Api)) {
    if (const auto *F = dyn_cast<FunctionDecl>(B))
      Add(F);
    else
      Out.push_back(B);
    return Out;
  }
  const CXXRecordDecl *RD = E ? skipValueWrappers(E)->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
  std::function<void(const CXXRecordDecl *, unsigned)> Walk = [&](const CXXRecordDecl *R, unsigned Depth) {
    if (!R || !R->hasDefinition() || Depth > 4)
      return;
    const SourceManager &SM = R->getASTContext().getSourceManager();
    if (SM.isInSystemHeader(SM.getFileLoc(R->getLocation())))
      return;
    for (const Decl *D : R->decls()) {
      const auto *F = dyn_cast<CXXMethodDecl>(D);
      if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
        F = dyn_cast<CXXMethodDecl>(T->getTemplatedDecl());
      if (F && F->getOverloadedOperator() == OO_Call)
        Add(F);
    }
    for (const CXXBaseSpecifier &Base : R->bases())
      Walk(Base.getType()->getAsCXXRecordDecl(), Depth + 1);
  };
  Walk(RD, 0);
  return Out;
}

const Decl *CallTargets::callableBody(const Expr *E, const ApiResolver *Api) {
  if (!E)
    return nullptr;
  E = skipValueWrappers(E);
  if (E->getType().isNull()) // a template pattern's parenthesised initializer: `fn_(std::bind(f, args...))`
    return nullptr;
  // A lambda converted to std::function (gfy::capture takes one) is the constructor's argument.
  // So is a functional cast to the wrapper type, `Fn(Enqueue())`, and the callable a library
  // wrapper was made from (`std::bind(&Pool::trim, &pool, n)`).
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = skipValueWrappers(Cast->getSubExpr());
      continue;
    }
    if (const Expr *Wrapped = Api ? wrappedCallable(E, *Api) : nullptr) {
      E = skipValueWrappers(Wrapped);
      continue;
    }
    // Only a wrapper's constructor: a function object's own arguments are not the callable.
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE || CE->getNumArgs() == 0 || !isCallableHolder(CE->getType()))
      break;
    E = skipValueWrappers(CE->getArg(0));
  }
  if (const auto *LE = dyn_cast<LambdaExpr>(E))
    return LE->getCallOperator();
  // A function object of the project (`fn_ = Enqueue(...)`): its call operator, when it has one.
  if (const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl(); RD && RD->hasDefinition() && !RD->isLambda()) {
    const CXXMethodDecl *Call = nullptr;
    for (const CXXMethodDecl *M : RD->methods())
      if (M->getOverloadedOperator() == OO_Call)
        Call = Call ? nullptr : M; // overloaded: which one runs depends on the arguments
    const SourceManager &SM = RD->getASTContext().getSourceManager();
    if (Call && !SM.isInSystemHeader(SM.getFileLoc(RD->getLocation())))
      return Call;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      return FD;
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const Expr *Init = VD->getInit())
        if (const auto *LE = dyn_cast<LambdaExpr>(skipValueWrappers(Init)))
          return LE->getCallOperator();
  }
  return nullptr;
}

bool CallTargets::dispatchesVirtually(const CXXMemberCallExpr &MCE) {
  const CXXMethodDecl *MD = MCE.getMethodDecl();
  if (!MD || !MD->isVirtual() || MD->hasAttr<FinalAttr>() || MD->getParent()->hasAttr<FinalAttr>())
    return false;
  const auto *ME = dyn_cast<MemberExpr>(MCE.getCallee()->IgnoreParens());
  if (!ME || ME->hasQualifier()) // `Base::forward(x)` calls that very method
    return false;
  if (ME->isArrow())
    return true;
  // An object named by value has the type it is declared with.
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getType()->isReferenceType();
  if (const auto *Member = dyn_cast<MemberExpr>(Base))
    return Member->getMemberDecl()->getType()->isReferenceType();
  return !isa<MaterializeTemporaryExpr, CXXTemporaryObjectExpr, CXXConstructExpr>(Base);
}

const ValueDecl *CallTargets::holderOf(const CallExpr &CE, bool &Indirect) {
  Indirect = false;
  if (CE.isTypeDependent() || CE.isValueDependent())
    return nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&CE)) {
    if (Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
      return nullptr;
    const Expr *Object = Op->getArg(0);
    if (!isCallableHolder(Object->getType()))
      return nullptr; // a lambda or a functor of the project: a direct call of its operator()
    Indirect = true;
    return namedHolder(Object);
  }
  if (CE.getDirectCallee() || isa<CXXMemberCallExpr>(CE) && cast<CXXMemberCallExpr>(CE).getMethodDecl())
    return nullptr;
  // `kernel<<<grid, block, 0, s>>>(...)` of a kernel pointer launches device code.
  if (isa<CUDAKernelCallExpr>(CE))
    return nullptr;
  const Expr *Callee = CE.getCallee()->IgnoreParens();
  if (isa<UnresolvedLookupExpr, UnresolvedMemberExpr, CXXDependentScopeMemberExpr>(Callee))
    return nullptr;
  Indirect = true; // a function pointer, or `(obj.*pm)(x)`
  return namedHolder(Callee);
}

namespace {

/// Records what is assigned to callable holders: `fn_ = [&] {...}`, `fn_(f)` in a constructor's
/// initialisers, `std::function<void()> g = h`, arguments of holder parameters.
class AssignmentScanner : public RecursiveASTVisitor<AssignmentScanner> {
public:
  using Record = llvm::function_ref<void(const Decl *Holder, const Expr *Value)>;
  /// `R` hears of callables given to callable holders, `G` of values given to library objects.
  AssignmentScanner(Record R, Record G, const ApiResolver &Api) : R(R), G(G), Api(Api) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      note(namedHolder(BO->getLHS()), BO->getRHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      note(namedHolder(Op->getArg(0)), Op->getArg(1));
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CXXOperatorCallExpr>(CE))
      return true;
    if (const FunctionDecl *FD = CE->getDirectCallee())
      arguments(FD, CE->arguments());
    return true;
  }
  /// `static const Interface cuda_iface = { /*.compute =*/ cuda_compute, ... };` fills the fields.
  bool VisitInitListExpr(InitListExpr *IL) {
    if (IL->isSyntacticForm() && IL->getSemanticForm())
      IL = IL->getSemanticForm();
    const RecordDecl *RD = IL->getType()->getAsRecordDecl();
    if (!RD || RD->isUnion())
      return true;
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I >= IL->getNumInits())
        break;
      note(F, IL->getInit(I++));
    }
    return true;
  }
  /// `seq->push_back(Block(...))`: what a library object's methods are given, it may hold.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    const Expr *Object = MCE->getImplicitObjectArgument();
    if (!Object)
      return true;
    // `hooks.push_back(f)`, `table.emplace("gelu", &gelu)`: the callables a container is given.
    if (CallTargets::isCallableContainer(Object->getType()) || CallTargets::isCallableContainer(Object->getType()->getPointeeType())) {
      if (const ValueDecl *Holder = namedHolder(Object))
        for (const Expr *Arg : MCE->arguments())
          element(Holder, Arg);
      return true;
    }
    const ValueDecl *Holder = namedHolder(CallTargets::throughAccess(Object));
    if (Holder && isLibraryObject(Holder->getType(), Api))
      for (const Expr *Arg : MCE->arguments())
        if (mayHoldModules(Arg->getType(), Api)) // `any.forward(x)` gives it no module
          G(Holder, Arg);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (const CXXConstructorDecl *Ctor = CE->getConstructor())
      if (!isCallableHolder(CE->getType())) // a wrapper's own constructor takes the callable
        arguments(Ctor, CE->arguments());
    return true;
  }

private:
  Record R;
  Record G;
  const ApiResolver &Api;

  void element(const ValueDecl *Holder, const Expr *Arg) {
    forEachCallable(Arg, [&](const Expr *C) { R(Holder, C); });
  }

  void note(const ValueDecl *Holder, const Expr *Value) {
    if (!Holder)
      return;
    if (CallTargets::isCallableContainer(Holder->getType()) && !CallTargets::isCallableContainer(Value->getType()))
      element(Holder, Value); // `hooks[i] = f`
    else if (holdsCallables(Holder->getType()))
      R(Holder, Value);
    else if (isLibraryObject(Holder->getType(), Api))
      G(Holder, Value);
  }
  template <typename Args> void arguments(const FunctionDecl *FD, Args A) {
    if (const FunctionDecl *Def = FD->getDefinition())
      FD = Def;
    unsigned I = 0;
    for (const Expr *Arg : A) {
      if (I >= FD->getNumParams())
        break;
      note(FD->getParamDecl(I++), Arg);
    }
  }
};

} // namespace

/// The initialisers of variables at namespace scope in the project's files (a dispatch table, an
/// interface struct of function pointers), not in system headers.
static void scanGlobals(const DeclContext *DC, AssignmentScanner &Scanner,
                        llvm::function_ref<void(const VarDecl *)> Holder) {
  for (const Decl *D : DC->decls()) {
    const SourceManager &SM = D->getASTContext().getSourceManager();
    // The tensor library's and the standard library's namespaces hold no project variable: a
    // namespace the project reopens is declared again in the project's own file.
    if (SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
      continue;
    if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
      scanGlobals(cast<DeclContext>(D), Scanner, Holder);
      continue;
    }
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !VD->getInit())
      continue;
    if (holdsCallables(VD->getType()))
      Holder(VD);
    Scanner.TraverseStmt(const_cast<Expr *>(VD->getInit()));
  }
}

void CallTargets::scan() const {
  if (Scanned)
    return;
  Scanned = true;
  auto One = [&](const Decl *Holder, const Expr *Value) {
    Assigned &A = Holders[canon(Holder)];
    if (const Decl *Body = callableBody(Value, &Api)) {
      A.Bodies.push_back(Body);
      return;
    }
    if (isEmptyCallable(Value))
      return;
    if (const ValueDecl *Alias = namedHolder(skipValueWrappers(Value)); Alias && holdsCallables(Alias->getType())) {
      A.Aliases.push_back(canon(Alias));
      return;
    }
    A.Opaque = true;
  };
  std::function<void(const Decl *, const Expr *)> Record = [&](const Decl *Holder, const Expr *Value) {
    // `fp = fast ? &stepA : stepB` holds either.
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(skipValueWrappers(Value))) {
      Record(Holder, CO->getTrueExpr());
      Record(Holder, CO->getFalseExpr());
      return;
    }
    // A container or an array holds the callables in what it is given (`hooks_ = {a, b}`), or
    // those of the container it copies.
    if (holdsMany(cast<ValueDecl>(Holder)->getType())) {
      if (const ValueDecl *Alias = namedHolder(skipValueWrappers(Value)); Alias && holdsMany(Alias->getType())) {
        Holders[canon(Holder)].Aliases.push_back(canon(Alias));
        return;
      }
      forEachCallable(Value, [&](const Expr *C) { One(Holder, C); });
      return;
    }
    One(Holder, Value);
  };
  auto Give = [&](const Decl *Holder, const Expr *Value) { Given[canon(Holder)].push_back(Value); };
  AssignmentScanner Scanner(Record, Give, Api);
  if (!Functions.empty())
    // A dispatch table defined with its callables is a holder they are assigned to.
    scanGlobals(Functions.front()->getASTContext().getTranslationUnitDecl(), Scanner,
                [&](const VarDecl *VD) { Holders[canon(VD)]; });
  for (const FunctionDecl *FD : Functions) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        if (Init->isMemberInitializer() && Init->isWritten() && holdsCallables(Init->getMember()->getType()))
          Record(Init->getMember(), Init->getInit());
        else if (Init->isMemberInitializer() && Init->isWritten() && isLibraryObject(Init->getMember()->getType(), Api))
          Given[canon(Init->getMember())].push_back(Init->getInit());
        Scanner.TraverseStmt(Init->getInit());
      }
    Scanner.TraverseStmt(FD->getBody());
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
      llvm::SmallVector<const CXXMethodDecl *, 4> Work(MD->overridden_methods().begin(),
                                                       MD->overridden_methods().end());
      llvm::DenseSet<const Decl *> Seen;
      while (!Work.empty()) {
        const CXXMethodDecl *Base = Work.pop_back_val();
        if (!Seen.insert(canon(Base)).second)
          continue;
        Overriders[canon(Base)].push_back(MD);
        Work.append(Base->overridden_methods().begin(), Base->overridden_methods().end());
      }
    }
  }
}

llvm::ArrayRef<const CXXMethodDecl *> CallTargets::overriders(const CXXMethodDecl *MD) const {
  scan();
  auto It = Overriders.find(canon(MD));
  if (It == Overriders.end())
    return {};
  return It->second;
}

CallTargets::Held CallTargets::assignedTo(const ValueDecl *Holder) const {
  scan();
  Held Out;
  llvm::DenseSet<const Decl *> Seen;
  llvm::SmallVector<const Decl *, 4> Work{canon(Holder)};
  while (!Work.empty()) {
    const Decl *H = Work.pop_back_val();
    if (!Seen.insert(H).second)
      continue;
    Out.Through.push_back(cast<ValueDecl>(H));
    const Expr *Init = declaredInit(H);
    auto Single = [&](const Expr *V) {
      if (const Decl *Body = callableBody(V, &Api))
        Out.Bodies.push_back(Body);
      else if (const ValueDecl *Alias = namedHolder(skipValueWrappers(V)))
        Work.push_back(canon(Alias));
      else if (!isEmptyCallable(V))
        Out.Opaque = true;
    };
    if (Init && holdsMany(cast<ValueDecl>(H)->getType()) && !namedHolder(skipValueWrappers(Init)))
      forEachCallable(Init, Single); // `Fn table[] = {a, b}`, `std::vector<Fn> hooks{a, b}`
    else if (Init)
      Single(Init);
    auto It = Holders.find(H);
    if (It == Holders.end())
      continue;
    Out.Bodies.insert(Out.Bodies.end(), It->second.Bodies.begin(), It->second.Bodies.end());
    Out.Opaque |= It->second.Opaque;
    Work.append(It->second.Aliases.begin(), It->second.Aliases.end());
  }
  llvm::sort(Out.Bodies);
  Out.Bodies.erase(std::unique(Out.Bodies.begin(), Out.Bodies.end()), Out.Bodies.end());
  return Out;
}

std::string CallTargets::unseenReason(size_t Count, bool Opaque) {
  if (Opaque)
    return "it is given a callable graphify cannot follow";
  if (Count == 0)
    return "no callable is assigned to it in the checked files";
  if (Count > MaxHeld)
    return "more than " + std::to_string(MaxHeld) + " callables are assigned to it";
  return {};
}

CallTargets::Held CallTargets::heldBy(const ValueDecl *Holder) const {
  Held Out = assignedTo(Holder);
  Out.Unseen = unseenReason(Out.Bodies.size(), Out.Opaque);
  if (!Out.Unseen.empty())
    Out.Bodies.clear();
  return Out;
}

std::vector<const ValueDecl *> CallTargets::assignedHolders() const {
  scan();
  std::vector<const ValueDecl *> Out;
  for (const auto &[H, A] : Holders)
    Out.push_back(cast<ValueDecl>(H));
  // The map's order follows addresses; the order seeds are walked in shows in the notes.
  llvm::sort(Out, [](const ValueDecl *A, const ValueDecl *B) { return A->getBeginLoc() < B->getBeginLoc(); });
  return Out;
}

std::string CallTargets::displayName(const ValueDecl &Holder) {
  const auto *VD = dyn_cast<VarDecl>(&Holder);
  if (!VD || !VD->isImplicit() || !VD->getInit())
    return Holder.getNameAsString();
  const ASTContext &Ast = VD->getASTContext();
  StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(VD->getInit()->getSourceRange()),
                                        Ast.getSourceManager(), Ast.getLangOpts());
  return Text.empty() ? Holder.getNameAsString() : Text.str();
}

QualType CallTargets::heldType(const ValueDecl &Holder) { return calltargets::heldTypeOf(Holder); }

} // namespace graphify
