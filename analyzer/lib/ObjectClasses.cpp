// Virtual calls narrowed to the classes of the objects the unit passes. Invariant: a class set is
// returned only when every way the object can be made is seen; one unknown source makes the
// whole answer unknown, and unknown keeps every overrider.
#include "ObjectClasses.h"

#include "CallTargets.h"
#include "graphify/analyzer/ApiResolver.h"

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

} // namespace

std::optional<Classes> ObjectClasses::ofParameter(const ParmVarDecl &P, unsigned Depth) const {
  const auto *F = dyn_cast_or_null<FunctionDecl>(P.getDeclContext());
  auto Calls = F ? Sites.allCallsOf(*F, WholeProgram) : std::nullopt;
  if (!Calls)
    return std::nullopt;
  Classes Out;
  for (const CallExpr *CE : *Calls) {
    auto Passed = of(CallSites::argumentFor(*CE, *F, P.getFunctionScopeIndex()), Depth + 1);
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
  // An object's class is the called method's class or one derived from it; anything else (an
  // iterator's class, read through the hidden variables of a range-based for) says nothing.
  const CXXRecordDecl *Static = Called->getParent();
  if (llvm::any_of(*Possible, [&](const CXXRecordDecl *K) {
        return K->getCanonicalDecl() != Static->getCanonicalDecl() && !K->isDerivedFrom(Static);
      }))
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
