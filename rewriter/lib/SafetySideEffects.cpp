// Side-effect freedom of a where() arm. A where() evaluates both arms, so anything an arm does
// besides computing its value would now happen on the side not taken. The walk accepts only
// what is known to compute a value: literals, variables, arithmetic, calls tagged `pure` in the
// rule packs, const tensor methods that are not mutators, and std arithmetic helpers. Anything
// else is a reason to refuse — naming the first offending call or statement.
#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <llvm/ADT/StringSet.h>

using namespace clang;

namespace graphify::rewriter {

// Tensor methods that mutate state although at::Tensor declares them const and their names do
// not follow the trailing-underscore convention of in-place ops.
// FIXME: these belong in rules/libtorch.yaml as `in_place` entries; kept here until the pack
// lists autograd mutators.
static bool isAutogradMutator(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {"backward", "set_requires_grad", "set_data",
                                          "retain_grad", "register_hook", "mutable_grad"};
  return Names.contains(Name);
}

static bool isOstream(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string N = RD->getQualifiedNameAsString();
  return llvm::StringRef(N).contains("ostream") || llvm::StringRef(N).contains("basic_ios");
}

static bool inNamespace(const Decl *D, llvm::StringRef NS) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC))
      if (N->getName() == NS && isa<TranslationUnitDecl>(N->getParent()))
        return true;
  return false;
}

static bool isValueLibraryType(const CXXRecordDecl *RD) {
  if (!RD)
    return true;
  for (llvm::StringRef NS : {"std", "at", "c10", "torch", "gfy"})
    if (inNamespace(RD, NS))
      return true;
  return false;
}

static std::optional<std::string> checkCall(const CallExpr *C, const ApiModel &Api, bool AllowHostReads) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD)
    return std::string("calls a function through a pointer, which is not known to be pure");
  std::string Name = FD->getNameAsString();
  for (unsigned I = 0; I < C->getNumArgs(); ++I)
    if (isOstream(C->getArg(I)->getType()))
      return std::string("writes output");
  if (Name == "printf" || Name == "puts" || Name == "fprintf" || Name == "putchar" || Name == "print")
    return std::string("writes output");
  if (Api.callHasTag(C, "in_place"))
    return "calls '" + Name + "', which changes state";
  if (AllowHostReads && Api.callHasTag(C, "data_dependent_output"))
    return std::nullopt;
  if (Api.callHasTag(C, "host_sync"))
    return "calls '" + Name + "', which reads the tensor on the host and may fail on the side not taken";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator() ||
        MD->getOverloadedOperator() == OO_Equal)
      return std::string("assigns to a variable");
  }
  if (Api.callHasTag(C, "pure"))
    return std::nullopt;
  const Expr *Object = callObject(C);
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && Object && Api.isTensor(Object->getType())) {
    if (llvm::StringRef(Name).ends_with("_") || isAutogradMutator(Name))
      return "calls '" + Name + "', which changes state";
    if (MD->isConst())
      return std::nullopt;
  }
  // Arithmetic helpers of the standard library on host values (std::max, std::exp).
  if (inNamespace(FD, "std") && FD->getReturnType()->isArithmeticType()) {
    bool AllArithmetic = true;
    for (const ParmVarDecl *P : FD->parameters())
      AllArithmetic &= P->getType().getNonReferenceType()->isArithmeticType();
    if (AllArithmetic)
      return std::nullopt;
  }
  return "calls '" + Name + "', which is not known to be pure";
}

std::optional<std::string> findSideEffect(const Stmt *S, const ApiModel &Api, bool AllowHostReads) {
  if (!S)
    return std::nullopt;
  if (isa<CXXThrowExpr>(S))
    return std::string("throws an exception");
  if (isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return std::string("contains a lambda");
  if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S))
    return std::string("allocates or frees memory");
  if (isa<StmtExpr>(S) || isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S))
    return std::string("contains a statement expression or assembly");
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return std::string("changes control flow");
  if (isa<DeclStmt>(S))
    return std::string("declares a variable");
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    std::string Target;
    if (const VarDecl *V = referencedVar(BO->getLHS()))
      Target = " '" + V->getNameAsString() + "'";
    return "assigns to" + (Target.empty() ? std::string(" a variable") : Target);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
    return std::string("increments or decrements a variable");
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    if (!isValueLibraryType(CE->getConstructor()->getParent()))
      return "constructs '" + CE->getConstructor()->getParent()->getNameAsString() +
             "', which is not known to be pure";
  }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C); OC && OC->isAssignmentOp()) {
      // Compound assignments on tensors are in-place ops; plain ones rebind a variable.
      if (OC->getOperator() != OO_Equal && Api.isTensor(OC->getArg(0)->getType()))
        return "calls '" + C->getDirectCallee()->getNameAsString() + "', which changes state";
      std::string Target;
      if (const VarDecl *V = referencedVar(OC->getArg(0)))
        Target = " '" + V->getNameAsString() + "'";
      return "assigns to" + (Target.empty() ? std::string(" a variable") : Target);
    }
    if (auto Why = checkCall(C, Api, AllowHostReads))
      return Why;
  }
  for (const Stmt *Child : S->children())
    if (auto Why = findSideEffect(Child, Api, AllowHostReads))
      return Why;
  return std::nullopt;
}

} // namespace graphify::rewriter
