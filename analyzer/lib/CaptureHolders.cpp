// Capture guards held by library holders. Invariant: a holder's call stands for a project
// function only when the holder's template arguments name it; anything else is left as the
// library call it is (no effect on windows).
#include "CaptureHolders.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/DenseSet.h>

namespace graphify {

using namespace clang;

namespace {

/// The type arguments of the class template specialization `T` names, or none.
const TemplateArgumentList *typeArguments(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  return Spec ? &Spec->getTemplateArgs() : nullptr;
}

QualType typeArgument(const TemplateArgumentList *Args, unsigned I) {
  if (!Args || I >= Args->size() || (*Args)[I].getKind() != TemplateArgument::Type)
    return QualType();
  return (*Args)[I].getAsType();
}

const FunctionDecl *callOperator(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call)
      return M;
  return nullptr;
}

const FunctionDecl *destructorOf(QualType Held) {
  const CXXRecordDecl *RD = Held.isNull() ? nullptr : Held->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() ? RD->getDestructor() : nullptr;
}

/// The function a holder variable's initialiser gives as its deleter (`unique_ptr<G, void
/// (*)(G *)> p(&g, &endCapture)`).
const FunctionDecl *deleterGiven(const VarDecl *Var) {
  const Expr *Init = Var ? Var->getInit() : nullptr;
  const auto *Construct = Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
  if (!Construct || Construct->getNumArgs() < 2)
    return nullptr;
  const Expr *D = Construct->getArg(1)->IgnoreParenImpCasts();
  if (const auto *Address = dyn_cast<UnaryOperator>(D); Address && Address->getOpcode() == UO_AddrOf)
    D = Address->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(D);
  return Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
}

/// The constructor of `Class` that `S` or the library functions it calls run, up to `Depth`
/// calls down (optional's emplace constructs three calls below).
const CXXConstructorDecl *constructorIn(const Stmt *S, const CXXRecordDecl *Class, unsigned Depth,
                                        llvm::DenseSet<const FunctionDecl *> &Seen) {
  if (!S)
    return nullptr;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    if (const CXXConstructorDecl *Ctor = CE->getConstructor();
        Ctor && Ctor->getParent()->getCanonicalDecl() == Class->getCanonicalDecl())
      return Ctor;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && Depth > 0)
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && Seen.insert(FD->getCanonicalDecl()).second)
      if (const FunctionDecl *Def = nullptr; FD->hasBody(Def))
        if (const CXXConstructorDecl *Ctor = constructorIn(Def->getBody(), Class, Depth - 1, Seen))
          return Ctor;
  for (const Stmt *Child : S->children())
    if (const CXXConstructorDecl *Ctor = constructorIn(Child, Class, Depth, Seen))
      return Ctor;
  return nullptr;
}

} // namespace

const FunctionDecl *heldDestroyer(QualType Holder, const VarDecl *Var,
                                  llvm::function_ref<bool(const FunctionDecl *)> Keep) {
  const TemplateArgumentList *Args = typeArguments(Holder);
  QualType Held = typeArgument(Args, 0);
  if (Held.isNull())
    return nullptr;
  QualType Deleter = typeArgument(Args, 1);
  if (!Deleter.isNull()) {
    const FunctionDecl *Op = Deleter->isFunctionPointerType() ? deleterGiven(Var)
                                                               : callOperator(Deleter->getAsCXXRecordDecl());
    if (Op && Keep(Op))
      return Op;
  }
  return destructorOf(Held);
}

const CXXConstructorDecl *heldConstructor(const CallExpr &Call) {
  // The held class: the holder's first argument (emplace), or the call's (make_unique<Guard>).
  QualType Held;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    if (const Expr *Object = Member->getImplicitObjectArgument()) // none through a member pointer
      Held = typeArgument(typeArguments(Object->getType()), 0);
  }
  else if (const FunctionDecl *FD = Call.getDirectCallee())
    if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
      Held = typeArgument(Args, 0);
  const CXXRecordDecl *Class = Held.isNull() ? nullptr : Held->getAsCXXRecordDecl();
  const FunctionDecl *Callee = Call.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Class || !Callee || !Callee->hasBody(Def))
    return nullptr;
  llvm::DenseSet<const FunctionDecl *> Seen;
  return constructorIn(Def->getBody(), Class, /*Depth=*/6, Seen);
}

bool assignmentEmpties(const CallExpr &Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  if (!Op || Op->getNumArgs() != 2)
    return false;
  auto Bare = [](QualType T) { return T.getNonReferenceType().getUnqualifiedType().getCanonicalType(); };
  QualType Holder = Bare(Op->getArg(0)->getType());
  QualType Right = Bare(Op->getArg(1)->IgnoreImplicit()->getType());
  QualType Held = typeArgument(typeArguments(Holder), 0);
  return Right != Holder && (Held.isNull() || Right != Bare(Held));
}

} // namespace graphify
