// Virtual calls narrowed to the classes of the objects the unit passes. Invariant: a class set is
// returned only when every way the object can be made is seen; one unknown source makes the
// whole answer unknown, and unknown keeps every overrider.
#include "ObjectClasses.h"

#include "CallTargets.h"
#include "graphify/analyzer/ApiResolver.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace graphify {

using namespace clang;

namespace {

using Classes = llvm::SmallVector<const CXXRecordDecl *, 2>;

/// The class a value, pointer or smart pointer type points to or is (`D`, `D*`,
/// `std::unique_ptr<D>`: its first template argument), or null.
const CXXRecordDecl *classBehind(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
      Spec && Spec->getTemplateArgs().size() >= 1 && Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
      Spec->getSpecializedTemplate()->getTemplatedDecl()->isInStdNamespace())
    return Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl(); // unique_ptr<D>, shared_ptr<D>
  return RD && RD->hasDefinition() ? RD->getDefinition() : nullptr;
}

/// Collects the calls of each function and the functions referred to other than by a call.
class CallIndex : public RecursiveASTVisitor<CallIndex> {
public:
  CallIndex(llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> &Calls,
            llvm::DenseMap<const FunctionDecl *, bool> &Escaped)
      : Calls(Calls), Escaped(Escaped) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    // The libraries' headers call none of the project's functions.
    if (D && !isa<TranslationUnitDecl>(D) && D->getASTContext().getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      Calls[FD->getCanonicalDecl()].push_back(CE);
      if (const auto *Callee = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
        Callees.insert(Callee);
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()); FD && !Callees.contains(DRE))
      Escaped[FD->getCanonicalDecl()] = true; // `&captureNet`, `std::function f = captureNet`
    return true;
  }

private:
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> &Calls;
  llvm::DenseMap<const FunctionDecl *, bool> &Escaped;
  llvm::DenseSet<const DeclRefExpr *> Callees;
};

/// Whether every declaration of `F` (and, for a method, its class's definition) is in the main
/// file: no other file can name it.
bool declaredOnlyInMainFile(const FunctionDecl &F) {
  const SourceManager &SM = F.getASTContext().getSourceManager();
  auto InMain = [&](SourceLocation L) { return SM.isInMainFile(SM.getExpansionLoc(L)); };
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&F); MD && !InMain(MD->getParent()->getLocation()))
    return false;
  return llvm::all_of(F.redecls(), [&](const FunctionDecl *D) { return InMain(D->getLocation()); });
}

} // namespace

void ObjectClasses::index() const {
  if (Indexed)
    return;
  Indexed = true;
  if (Functions.empty())
    return;
  CallIndex Index(Calls, Escaped);
  // The whole unit, global initialisers included (a dispatch table takes addresses). A call is
  // visited before the callee's reference in it, a child of the call.
  Index.TraverseDecl(Functions.front()->getASTContext().getTranslationUnitDecl());
}

std::optional<Classes> ObjectClasses::ofParameter(const ParmVarDecl &P, unsigned Depth) const {
  const auto *F = dyn_cast_or_null<FunctionDecl>(P.getDeclContext());
  if (!F)
    return std::nullopt;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(F); MD && MD->isVirtual())
    return std::nullopt; // called through its base's method too
  if (WholeProgram && F->isExternallyVisible())
    return std::nullopt; // other units may call it with other objects
  if (F->isExternallyVisible() && !declaredOnlyInMainFile(*F))
    return std::nullopt; // declared in a header: the files including it may call it too
  index();
  const FunctionDecl *Key = F->getCanonicalDecl();
  auto It = Calls.find(Key);
  if (Escaped.lookup(Key) || It == Calls.end())
    return std::nullopt;
  Classes Out;
  const unsigned Index = P.getFunctionScopeIndex();
  for (const CallExpr *CE : It->second) {
    // An operator's call lists its object first; a member call does not.
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(F) ? 1 : 0;
    if (Index + Shift >= CE->getNumArgs())
      return std::nullopt; // a default argument
    auto Passed = of(CE->getArg(Index + Shift), Depth + 1);
    if (!Passed)
      return std::nullopt;
    Out.append(Passed->begin(), Passed->end());
  }
  return Out;
}

std::optional<Classes> ObjectClasses::of(const Expr *Object, unsigned Depth) const {
  if (!Object || Depth > 4)
    return std::nullopt;
  const Expr *E = CallTargets::throughAccess(Object);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
    return of(UO->getSubExpr(), Depth + 1);
  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    if (const CXXRecordDecl *RD = New->getAllocatedType()->getAsCXXRecordDecl())
      return Classes{RD};
    return std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      return ofParameter(*P, Depth);
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->isLocalVarDecl())
      return std::nullopt;
    QualType T = VD->getType();
    const CXXRecordDecl *Behind = classBehind(T), *Own = T->getAsCXXRecordDecl();
    const bool Holder = Own && Behind && Own->getCanonicalDecl() != Behind->getCanonicalDecl();
    if (!T->isReferenceType() && !T->isPointerType() && !Holder && Behind)
      return Classes{Behind}; // an object of its declared class
    // A pointer, a reference or a smart pointer: what it was initialised with, if never reassigned.
    if (!VD->getInit() || isAssignedAfterDeclaration(VD))
      return std::nullopt;
    return of(VD->getInit(), Depth + 1);
  }
  E = skipValueWrappers(E);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // `std::make_unique<D>()`, a factory returning `D*`: `D` or a class derived from it.
    if (const CXXRecordDecl *RD = classBehind(CE->getType()))
      return Classes{RD};
    return std::nullopt;
  }
  if (isa<CXXConstructExpr, CXXTemporaryObjectExpr>(E))
    if (const CXXRecordDecl *RD = classBehind(E->getType()))
      return Classes{RD};
  return std::nullopt;
}

std::vector<const CXXMethodDecl *> ObjectClasses::mayRun(const CXXMemberCallExpr &Call,
                                                        llvm::ArrayRef<const CXXMethodDecl *> Overriders) const {
  std::vector<const CXXMethodDecl *> All(Overriders.begin(), Overriders.end());
  const CXXMethodDecl *Called = Call.getMethodDecl();
  auto Possible = Called ? of(Call.getImplicitObjectArgument()) : std::nullopt;
  if (!Possible || Possible->empty())
    return All;
  std::vector<const CXXMethodDecl *> Out;
  for (const CXXMethodDecl *O : All) {
    const CXXRecordDecl *Owner = O->getParent();
    bool Runs = llvm::any_of(*Possible, [&](const CXXRecordDecl *K) {
      if (Owner == K || Owner->isDerivedFrom(K))
        return true; // defined in the class or below it
      // The final overrider the class inherits from above.
      const CXXMethodDecl *Inherited = Called->getCorrespondingMethodInClass(K, /*MayBeBase=*/true);
      return Inherited && Inherited->getCanonicalDecl() == O->getCanonicalDecl();
    });
    if (Runs)
      Out.push_back(O);
  }
  return Out;
}

} // namespace graphify
