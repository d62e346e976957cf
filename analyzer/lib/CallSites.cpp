// The calls of a function in its unit. Invariant: a list is handed out only when no call can be
// made from elsewhere or through a pointer; any doubt answers nothing.
#include "CallSites.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/DenseSet.h>

namespace graphify {

using namespace clang;

namespace {

/// Collects the calls of each function and the functions referred to other than by a call.
class CallIndex : public RecursiveASTVisitor<CallIndex> {
public:
  CallIndex(llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> &Calls,
            llvm::DenseMap<const FunctionDecl *, bool> &Escaped,
            llvm::DenseMap<const CallExpr *, const FunctionDecl *> &Callers)
      : Calls(Calls), Escaped(Escaped), Callers(Callers) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    // The libraries' headers call none of the project's functions.
    if (D && !isa<TranslationUnitDecl>(D) && D->getASTContext().getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    // The function a call is written in; a lambda's calls are its enclosing function's.
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(D);
    const bool Encloses = FD && FD->doesThisDeclarationHaveABody() && !(MD && MD->getParent()->isLambda());
    if (Encloses)
      Enclosing.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (Encloses)
      Enclosing.pop_back();
    return Result;
  }

  // A call is visited before the callee's reference in it, one of its children.
  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      Calls[FD->getCanonicalDecl()].push_back(CE);
      Callers[CE] = Enclosing.empty() ? nullptr : Enclosing.back();
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
  llvm::DenseMap<const CallExpr *, const FunctionDecl *> &Callers;
  llvm::DenseSet<const DeclRefExpr *> Callees;
  std::vector<const FunctionDecl *> Enclosing;
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

/// Whether the object of the member call `CE` is `this` (written or implicit).
bool calledOnThis(const CallExpr &CE) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&CE))
    return isa<CXXThisExpr>(Member->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return isa<DeclRefExpr>(CE.getCallee()->IgnoreParenImpCasts()); // a static method named unqualified
}

} // namespace

bool CallSites::helperOfItsClass(const FunctionDecl &FD, llvm::ArrayRef<const CallExpr *> Found) const {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || Found.empty() || Ast.getSourceManager().isInSystemHeader(MD->getParent()->getLocation()))
    return false;
  const CXXRecordDecl *Class = MD->getParent()->getCanonicalDecl();
  return llvm::all_of(Found, [&](const CallExpr *CE) {
    const auto *Caller = dyn_cast_or_null<CXXMethodDecl>(Callers.lookup(CE));
    return Caller && Caller->getParent()->getCanonicalDecl() == Class && calledOnThis(*CE);
  });
}

void CallSites::index() const {
  if (Indexed)
    return;
  Indexed = true;
  CallIndex Index(Calls, Escaped, Callers);
  // The whole unit, global initialisers included (a dispatch table takes addresses).
  Index.TraverseDecl(Ast.getTranslationUnitDecl());
}

std::optional<llvm::ArrayRef<const CallExpr *>> CallSites::allCallsOf(const FunctionDecl &FD,
                                                                      bool WholeProgram) const {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD); MD && MD->isVirtual())
    return std::nullopt; // called through its base's method too
  index();
  const FunctionDecl *Key = FD.getCanonicalDecl();
  auto It = Calls.find(Key);
  if (Escaped.lookup(Key) || It == Calls.end())
    return std::nullopt;
  // Other files may call it. One file alone: a method that only its class's own methods call
  // here is taken for the class's helper, whose calls are these (documented in CallSites.h).
  if (FD.isExternallyVisible() &&
      (WholeProgram || (!declaredOnlyInMainFile(FD) && !helperOfItsClass(FD, It->second))))
    return std::nullopt;
  return llvm::ArrayRef<const CallExpr *>(It->second);
}

const Expr *CallSites::argumentFor(const CallExpr &CE, const FunctionDecl &FD, unsigned Index) {
  const unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  if (Index + Shift >= CE.getNumArgs() || isa<CXXDefaultArgExpr>(CE.getArg(Index + Shift)))
    return nullptr;
  return CE.getArg(Index + Shift);
}

} // namespace graphify
