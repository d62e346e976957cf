// Recognizes the dtype-dispatching wrapper torchvision writes around its CPU NMS kernel
// (SuppressionKernel.h, recognizeDispatchingWrapper): detectors copy the pair, and the call the
// user's post-processing makes is the wrapper's.
#include "graphify/analyzer/ApiResolver.h"
#include "graphify/analyzer/SuppressionKernel.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/STLExtras.h>

namespace graphify {

using namespace clang;

namespace {

class WrapperMatcher {
public:
  WrapperMatcher(const FunctionDecl &FD, const ApiResolver &Api) : FD(FD), Api(Api), Ctx(FD.getASTContext()) {}

  std::optional<SuppressionKernel> match() {
    if (FD.getNumParams() != 3 || !Api.isTensor(FD.getReturnType()) || !Api.isTensor(FD.getParamDecl(0)->getType()) ||
        !Api.isTensor(FD.getParamDecl(1)->getType()) ||
        !FD.getParamDecl(2)->getType().getNonReferenceType()->isRealFloatingType())
      return std::nullopt;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
    if (!Body)
      return std::nullopt;
    bool Returned = false;
    for (const Stmt *S : Body->body()) {
      if (Returned || !statement(*S, Returned))
        return std::nullopt;
    }
    if (!Returned || Found.Elements.empty())
      return std::nullopt;
    Found.Dispatches = true;
    return Found;
  }

private:
  const FunctionDecl &FD;
  const ApiResolver &Api;
  const ASTContext &Ctx;
  const VarDecl *Result = nullptr;
  bool Dispatched = false;
  SuppressionKernel Found;

  bool statement(const Stmt &S, bool &Returned) {
    if (isa<NullStmt>(S) || Api.isAssertion(S, Ctx))
      return true;
    if (!Result && !Dispatched)
      return resultDeclaration(S);
    if (!Dispatched && Api.isDispatch(S, Ctx))
      return Dispatched = dispatch(S);
    const auto *Ret = dyn_cast<ReturnStmt>(&S);
    const auto *Ref = Ret && Ret->getRetValue() ? dyn_cast<DeclRefExpr>(skipValueWrappers(Ret->getRetValue())) : nullptr;
    return Dispatched && (Returned = Ref && Ref->getDecl() == Result);
  }

  /// `auto result = at::empty({0}, boxes.options());`: a tensor local made by a pure factory.
  bool resultDeclaration(const Stmt &S) {
    const auto *DS = dyn_cast<DeclStmt>(&S);
    const auto *VD = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!VD || !VD->getInit() || !Api.isTensor(VD->getType()) || VD->getType()->isReferenceType())
      return false;
    auto Call = Api.resolve(skipValueWrappers(VD->getInit()));
    if (!Call || !Call->hasTag("pure"))
      return false;
    Result = VD;
    return true;
  }

  /// The dispatch macro's expansion: the lambdas written by the user (in the macro's arguments)
  /// each assign a kernel's result to the local; the macro's own code chooses which one runs.
  bool dispatch(const Stmt &S) {
    llvm::SmallVector<const LambdaExpr *, 4> Lambdas;
    collectLambdas(&S, Lambdas);
    const SourceManager &SM = Ctx.getSourceManager();
    unsigned Cases = 0;
    for (const LambdaExpr *L : Lambdas) {
      if (!SM.isMacroArgExpansion(L->getBeginLoc()))
        continue; // the macro's own
      if (!caseRunsKernel(L->getBody()))
        return false;
      ++Cases;
    }
    return Cases > 0;
  }

  static void collectLambdas(const Stmt *S, llvm::SmallVectorImpl<const LambdaExpr *> &Out) {
    if (!S)
      return;
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      Out.push_back(L);
      collectLambdas(L->getBody(), Out);
      return;
    }
    for (const Stmt *Child : S->children())
      collectLambdas(Child, Out);
  }

  /// `{ result = kernel<scalar_t>(boxes, scores, threshold); }` with the wrapper's parameters in
  /// order, the threshold of the kernel's own type, and a kernel recognized as such.
  bool caseRunsKernel(const Stmt *Body) {
    const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
    const auto *E = CS && CS->size() == 1 ? dyn_cast<Expr>(CS->body_front()) : nullptr;
    if (!E)
      return false;
    E = E->IgnoreImplicit();
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      LHS = Op->getArg(0), RHS = Op->getArg(1);
    const auto *Target = LHS ? dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()) : nullptr;
    const auto *Call = RHS ? dyn_cast<CallExpr>(skipValueWrappers(RHS)) : nullptr;
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Target || Target->getDecl() != Result || !Callee || Call->getNumArgs() != 3 || Callee->getNumParams() != 3)
      return false;
    for (unsigned I = 0; I < 3; ++I) {
      const auto *Arg = dyn_cast<DeclRefExpr>(Call->getArg(I)->IgnoreParenImpCasts());
      if (!Arg || Arg->getDecl() != FD.getParamDecl(I))
        return false;
    }
    // A threshold converted on the way (double to float) compares otherwise than the kernel's.
    auto Plain = [](QualType T) { return T.getNonReferenceType().getUnqualifiedType(); };
    if (!Ctx.hasSameType(Plain(Callee->getParamDecl(2)->getType()), Plain(FD.getParamDecl(2)->getType())))
      return false;
    const SuppressionKernel *Kernel = Api.suppressionKernel(Callee);
    if (!Kernel)
      return false;
    if (!Found.Elements.empty() && Found.StableSort != Kernel->StableSort)
      return false;
    Found.StableSort = Kernel->StableSort;
    for (QualType T : Kernel->Elements)
      if (llvm::none_of(Found.Elements, [&](QualType U) { return Ctx.hasSameType(T, U); }))
        Found.Elements.push_back(T);
    return true;
  }
};

} // namespace

std::optional<SuppressionKernel> recognizeDispatchingWrapper(const FunctionDecl &FD, const ApiResolver &Api) {
  return WrapperMatcher(FD, Api).match();
}

} // namespace graphify
