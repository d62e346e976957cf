#include "LoopAccumulators.h"

#include "ExprUtil.h"
#include "Safety.h"

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>

#include <optional>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// The dtype constant of a host number type the device sums in exactly, or empty.
std::string dtypeOf(QualType T, const ASTContext &Ctx) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return "kFloat";
  if (T->isSpecificBuiltinType(BuiltinType::Double))
    return "kDouble";
  if (T->isSignedIntegerType() && !T->isBooleanType() && !T->isAnyCharacterType()) {
    const uint64_t Bits = Ctx.getTypeSize(T);
    if (Bits == 32)
      return "kInt";
    if (Bits == 64)
      return "kLong";
  }
  return "";
}

/// `v += e` or `v = v + e` (built-in operators on a host number): the variable and `e`.
std::optional<std::pair<const VarDecl *, const Expr *>> additionTo(const Stmt *S) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
  if (!BO)
    return std::nullopt;
  const VarDecl *V = referencedVar(BO->getLHS());
  if (!V)
    return std::nullopt;
  if (BO->getOpcode() == BO_AddAssign)
    return std::make_pair(V, BO->getRHS());
  if (BO->getOpcode() != BO_Assign)
    return std::nullopt;
  const auto *Add = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
  if (!Add || Add->getOpcode() != BO_Add)
    return std::nullopt;
  if (referencedVar(Add->getLHS()) == V)
    return std::make_pair(V, Add->getRHS());
  if (referencedVar(Add->getRHS()) == V)
    return std::make_pair(V, Add->getLHS());
  return std::nullopt;
}

} // namespace

std::vector<Accumulation> loopAccumulations(const ForStmt *Loop, const ApiModel &Api, ASTContext &Ctx) {
  std::vector<Accumulation> Found;
  llvm::SmallVector<const Stmt *, 32> Work{Loop->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (auto Add = additionTo(S)) {
      const VarDecl *V = Add->first;
      std::string DType = dtypeOf(V->getType(), Ctx);
      const bool Outside = !Loop->getSourceRange().fullyContains(V->getSourceRange());
      const bool Owned = V->hasLocalStorage() && !V->getType()->isReferenceType() && !V->getType().isConstQualified();
      if (!DType.empty() && Outside && Owned && !Api.isTensor(V->getType())) {
        auto It = llvm::find_if(Found, [&](const Accumulation &A) { return A.V == V; });
        if (It == Found.end()) {
          Found.push_back(Accumulation{V, DType, "", {}});
          It = std::prev(Found.end());
        }
        It->Updates.emplace_back(S, Add->second);
        continue;
      }
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  // Only additions: any other use in the loop (a read, another update, the condition) keeps the
  // host variable a host variable.
  std::vector<Accumulation> Out;
  for (Accumulation &A : Found) {
    size_t InUpdates = 0;
    for (const auto &[S, Added] : A.Updates) {
      InUpdates += usesOf(A.V, S).size();
      if (!usesOf(A.V, Added).empty())
        InUpdates = ~size_t(0); // `v += v * 2` reads it
    }
    size_t Uses = usesOf(A.V, Loop).size();
    if (InUpdates == Uses)
      Out.push_back(std::move(A));
  }
  // Program order (the walk above visits the body last to first), for the names and the outputs.
  llvm::sort(Out, [&](const Accumulation &X, const Accumulation &Y) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(X.Updates.front().first->getBeginLoc(),
                                                            Y.Updates.front().first->getBeginLoc());
  });
  return Out;
}

const Accumulation *accumulationAt(const Stmt *S, llvm::ArrayRef<Accumulation> All) {
  for (const Accumulation &A : All)
    for (const auto &U : A.Updates)
      if (U.first == S)
        return &A;
  return nullptr;
}

} // namespace graphify::rewriter
