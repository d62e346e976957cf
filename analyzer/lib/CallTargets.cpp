// Targets of virtual and indirect calls. Invariant: a holder's callables are only ever the
// bodies graphify saw assigned to it; anything else it is given makes it unseen, never empty.
#include "CallTargets.h"

#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/DenseSet.h>

#include <functional>

namespace graphify {

using namespace clang;

namespace {

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

/// The variable, field or parameter `E` names (through `*` and casts), or null.
const ValueDecl *namedHolder(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  // `table[op]`: the table holds every callable it was initialised with.
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    E = AS->getBase()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
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

} // namespace

const Decl *CallTargets::callableBody(const Expr *E) {
  if (!E)
    return nullptr;
  E = skipValueWrappers(E);
  // A lambda converted to std::function (gfy::capture takes one) is the constructor's argument.
  // So is a functional cast to the wrapper type, `Fn(Enqueue())`.
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = skipValueWrappers(Cast->getSubExpr());
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
  explicit AssignmentScanner(Record R) : R(R) {}
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
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (const CXXConstructorDecl *Ctor = CE->getConstructor())
      if (!isCallableHolder(CE->getType())) // a wrapper's own constructor takes the callable
        arguments(Ctor, CE->arguments());
    return true;
  }

private:
  Record R;

  void note(const ValueDecl *Holder, const Expr *Value) {
    if (Holder && isCallableHolder(Holder->getType()))
      R(Holder, Value);
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
static void scanGlobals(const DeclContext *DC, AssignmentScanner &Scanner) {
  for (const Decl *D : DC->decls()) {
    const SourceManager &SM = D->getASTContext().getSourceManager();
    // The tensor library's and the standard library's namespaces hold no project variable: a
    // namespace the project reopens is declared again in the project's own file.
    if (SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
      continue;
    if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
      scanGlobals(cast<DeclContext>(D), Scanner);
      continue;
    }
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !VD->getInit())
      continue;
    Scanner.TraverseStmt(const_cast<Expr *>(VD->getInit()));
  }
}

void CallTargets::scan() const {
  if (Scanned)
    return;
  Scanned = true;
  std::function<void(const Decl *, const Expr *)> Record = [&](const Decl *Holder, const Expr *Value) {
    // `fp = fast ? &stepA : stepB` holds either.
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(skipValueWrappers(Value))) {
      Record(Holder, CO->getTrueExpr());
      Record(Holder, CO->getFalseExpr());
      return;
    }
    Assigned &A = Holders[canon(Holder)];
    if (const Decl *Body = callableBody(Value)) {
      A.Bodies.push_back(Body);
      return;
    }
    if (isEmptyCallable(Value))
      return;
    if (const ValueDecl *Alias = namedHolder(skipValueWrappers(Value)); Alias && isCallableHolder(Alias->getType())) {
      A.Aliases.push_back(canon(Alias));
      return;
    }
    A.Opaque = true;
  };
  AssignmentScanner Scanner(Record);
  if (!Functions.empty())
    scanGlobals(Functions.front()->getASTContext().getTranslationUnitDecl(), Scanner);
  for (const FunctionDecl *FD : Functions) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        if (Init->isMemberInitializer() && Init->isWritten() && isCallableHolder(Init->getMember()->getType()))
          Record(Init->getMember(), Init->getInit());
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

CallTargets::Held CallTargets::heldBy(const ValueDecl *Holder) const {
  scan();
  Held Out;
  bool Opaque = false;
  llvm::DenseSet<const Decl *> Seen;
  llvm::SmallVector<const Decl *, 4> Work{canon(Holder)};
  while (!Work.empty()) {
    const Decl *H = Work.pop_back_val();
    if (!Seen.insert(H).second)
      continue;
    // The initialiser written with the declaration: `std::function<void()> f = [&] {...};`.
    const Expr *Init = nullptr;
    if (const auto *FD = dyn_cast<FieldDecl>(H))
      Init = FD->getInClassInitializer();
    else if (const auto *VD = dyn_cast<VarDecl>(H); VD && !isa<ParmVarDecl>(VD))
      Init = VD->getInit();
    if (const auto *IL = Init ? dyn_cast<InitListExpr>(skipValueWrappers(Init)) : nullptr;
        IL && IL->getType()->isArrayType()) {
      for (const Expr *Element : IL->inits())
        if (const Decl *Body = callableBody(Element))
          Out.Bodies.push_back(Body);
        else if (!isEmptyCallable(Element))
          Opaque = true;
    } else if (Init) {
      if (const Decl *Body = callableBody(Init))
        Out.Bodies.push_back(Body);
      else if (const ValueDecl *Alias = namedHolder(skipValueWrappers(Init)))
        Work.push_back(canon(Alias));
      else if (!isEmptyCallable(Init))
        Opaque = true;
    }
    auto It = Holders.find(H);
    if (It == Holders.end())
      continue;
    Out.Bodies.insert(Out.Bodies.end(), It->second.Bodies.begin(), It->second.Bodies.end());
    Opaque |= It->second.Opaque;
    Work.append(It->second.Aliases.begin(), It->second.Aliases.end());
  }
  llvm::sort(Out.Bodies);
  Out.Bodies.erase(std::unique(Out.Bodies.begin(), Out.Bodies.end()), Out.Bodies.end());
  if (Opaque)
    Out.Unseen = "it is given a callable graphify cannot follow";
  else if (Out.Bodies.empty())
    Out.Unseen = "no callable is assigned to it in the checked files";
  else if (Out.Bodies.size() > MaxHeld)
    Out.Unseen = "more than " + std::to_string(MaxHeld) + " callables are assigned to it";
  if (!Out.Unseen.empty())
    Out.Bodies.clear();
  return Out;
}

} // namespace graphify
