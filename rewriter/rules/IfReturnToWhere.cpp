// if-return-to-where:
//   if (c) return a; return b;            ->  return torch::where(c', a, b);
//   if (c) return a; else return b;       ->  return torch::where(c', a, b);
//   if (c1) return a; else if (c2) return b; else return d;
//                                         ->  return torch::where(c1', a, torch::where(c2', b, d));
// c' is c lifted to a 0-d tensor (ConditionLifting). where() evaluates every arm, so each arm
// must be free of side effects and the arms must agree in shape and dtype where that is known.
#include "lib/BranchObstacles.h"
#include "lib/ConditionLifting.h"
#include "lib/DomainGuard.h"
#include "lib/IfChain.h"
#include "lib/Predication.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Tooling/Transformer/SourceCode.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

struct ReturnSelect {
  IfChain Chain;
  llvm::SmallVector<const Expr *, 3> Values; // one per branch, then the fallback
  std::vector<LiftedCondition> Conds;
};

/// Why an early return in a function that returns no tensor has no where() form: what its
/// condition tests when that blocks any form (host work in the branch, a host object, the size of
/// a selection: moving the code out is the advice), else the function's return type.
std::string notTensorFunctionReason(const IfStmt *If, const FunctionDecl *FD, const ApiModel &Api,
                                    ASTContext &Ctx) {
  if (auto Why = conditionObstacle(If->getCond(), Api, Ctx))
    return *Why;
  const QualType T = FD ? FD->getReturnType() : QualType();
  if (T.isNull())
    return "the early return is not in a function's body";
  if (Api.isTensor(T.getNonReferenceType()))
    return "the function returns a reference to a tensor, which a select cannot rebind: return it by value";
  if (T->isVoidType())
    return "the early return skips the rest of the function, which no select expresses: compute what the rest "
           "assigns either way and select each value with torch::where on the test kept as a 0-d tensor, or move "
           "the test and the code it skips out of the graph region, after the replay";
  // A host result decided by tensor data (`bool taken(...)`, a string a tokenizer builds): it
  // leaves the graph whatever the rewrite does.
  return "the function returns a host '" + T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) +
         "' that the test decides: return the result as a 0-d tensor instead (the test kept on the device, the "
         "values selected with torch::where) and let the callers select with it, or move the call and the reads "
         "that feed it out of the graph region, after the replay";
}

llvm::Expected<ReturnSelect> analyse(const MatchResult &R, const ApiModel &Api) {
  ASTContext &Ctx = *R.Context;
  const auto *If = R.Nodes.getNodeAs<IfStmt>("if");
  const auto *Next = R.Nodes.getNodeAs<ReturnStmt>("next");
  const Decl *Fn = enclosingFunction(If, Ctx);
  const Stmt *Body = functionBody(Fn);
  if (!Body)
    return refuse("the if is not inside a function body");
  const auto *FD = dyn_cast<FunctionDecl>(Fn);
  if (!FD || !Api.isTensor(FD->getReturnType()) || FD->getReturnType()->isReferenceType())
    return refuse(notTensorFunctionReason(If, FD, Api, Ctx));
  // An early return inside a branch of another if is only half of a nested select; rewriting it
  // alone would leave the outer one for a second pass.
  for (DynTypedNodeList Parents = Ctx.getParents(*If); !Parents.empty(); Parents = Ctx.getParents(Parents[0])) {
    if (Parents[0].get<FunctionDecl>() || Parents[0].get<LambdaExpr>())
      break;
    if (const auto *Outer = Parents[0].get<IfStmt>(); Outer && Outer->getElse() != If)
      return refuse("the early returns are nested inside another if");
  }
  ReturnSelect S;
  S.Chain = decomposeIfChain(If);
  for (const IfChain::Branch &B : S.Chain.Branches) {
    if (B.If->hasInitStorage() || B.If->hasVarStorage() || B.If->isConstexpr() || B.If->isConsteval())
      return refuse("the if declares a variable or is constexpr");
    const Expr *V = soleReturnValue(B.Body);
    if (!V) {
      // Name the first statement that cannot run unconditionally, if any.
      for (const Stmt *St : bodyStatements(B.Body))
        if (!isa<ReturnStmt>(St) && !containsReturn(St))
          if (auto Why = findSideEffect(St, Api))
            return refuse("the " + S.Chain.armName(&B - S.Chain.Branches.begin()) + " branch " + *Why);
      if (containsReturn(B.Body))
        return refuse("the early returns are nested: the " +
                      S.Chain.armName(&B - S.Chain.Branches.begin()) + " branch does more than return a value");
      return refuse("the " + S.Chain.armName(&B - S.Chain.Branches.begin()) + " branch does not return a value");
    }
    S.Values.push_back(V);
  }
  if (S.Chain.Else) {
    const Expr *V = soleReturnValue(S.Chain.Else);
    if (!V)
      return refuse(containsReturn(S.Chain.Else)
                        ? "the early returns are nested: the else branch does more than return a value"
                        : "the else branch does not return a value");
    S.Values.push_back(V);
  } else if (Next && Next->getRetValue()) {
    S.Values.push_back(Next->getRetValue());
  } else {
    return refuse("the if returns early but the statement after it is not a return");
  }
  for (size_t I = 0; I < S.Values.size(); ++I) {
    std::string Arm = I < S.Chain.Branches.size() ? S.Chain.armName(I) + " branch"
                                                 : (S.Chain.Else ? "else branch" : "return after the if");
    if (auto Why = findSideEffect(S.Values[I], Api))
      return refuse("the " + Arm + " " + *Why);
    if (I > 0)
      if (auto Why = armsIncompatible(S.Values[0], S.Values[I], Api, Ctx))
        return refuse(*Why);
  }
  LiftScope Scope{Body, If};
  for (size_t I = 0; I < S.Chain.Branches.size(); ++I) {
    const Expr *C = S.Chain.Branches[I].Cond;
    // A later condition used to run only when the earlier ones were false; now it always runs.
    if (I > 0)
      if (auto Why = findSideEffect(C, Api, /*AllowHostReads=*/true))
        return refuse("the " + S.Chain.armName(I) + " condition " + *Why);
    auto L = liftCondition(C, Scope, Api, Ctx);
    if (!L)
      return L.takeError();
    S.Conds.push_back(std::move(*L));
  }
  return S;
}

/// The region an early return starts: the if alone when it has an else, else the if and the
/// statements of its block after it through the first return.
llvm::SmallVector<const Stmt *, 4> returnRegion(const IfStmt *If, ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 4> Region{If};
  if (If->getElse())
    return Region;
  for (const DynTypedNode &P : Ctx.getParents(*If))
    if (const auto *CS = P.get<CompoundStmt>()) {
      const auto *It = llvm::find(CS->body(), If);
      for (++It; It != CS->body_end(); ++It) {
        Region.push_back(*It);
        if (isa<ReturnStmt>(*It))
          break;
      }
    }
  return Region;
}

/// The where() form, from the select analysis or, when that refuses, the general if-conversion.
llvm::Expected<PredicatedCode> rewriteOf(const MatchResult &R, const ApiModel &Api) {
  auto S = analyse(R, Api);
  if (S) {
    PredicatedCode Out;
    ASTContext &Ctx = *R.Context;
    // Guards of domain-restricted inputs repeat the condition: it is then computed once.
    std::vector<std::string> Conds, Taken;
    std::string Lines;
    bool Guarded = false;
    for (const Expr *V : S->Values)
      Guarded = Guarded || armNeedsGuards(V, Api, Ctx);
    for (const LiftedCondition &C : S->Conds) {
      if (!Guarded) {
        Conds.push_back(C.Text);
        continue;
      }
      Conds.push_back(freshName("cond", functionBody(enclosingFunction(S->Values.back(), Ctx)), Taken));
      Lines += "auto " + Conds.back() + " = " + C.Text + ";\n";
    }
    // The final value is taken where every condition is false, so the innermost one guards it.
    std::string Acc = guardedArmText(S->Values.back(), Conds.back(), /*TakenWhenTrue=*/false, Api, Ctx);
    for (size_t I = Conds.size(); I-- > 0;)
      Acc = Api.spell(S->Values[I], "where") + "(" + Conds[I] + ", " +
            guardedArmText(S->Values[I], Conds[I], /*TakenWhenTrue=*/true, Api, Ctx) + ", " + Acc + ")";
    Out.Text = Lines + "return " + Acc + ";";
    for (const LiftedCondition &C : S->Conds)
      Out.LiftedLocals.insert(Out.LiftedLocals.end(), C.Locals.begin(), C.Locals.end());
    return Out;
  }
  llvm::consumeError(S.takeError());
  const auto *If = R.Nodes.getNodeAs<IfStmt>("if");
  const auto *FD = dyn_cast_or_null<FunctionDecl>(enclosingFunction(If, *R.Context));
  if (!FD || !Api.isTensor(FD->getReturnType()) || FD->getReturnType()->isReferenceType())
    return refuse(notTensorFunctionReason(If, FD, Api, *R.Context));
  return predicateReturnRegion(returnRegion(If, *R.Context), Api, *R.Context);
}

/// The source range of the region, for the edit.
RangeSelector regionOfIf(std::string Id) {
  return [Id](const MatchResult &R) -> llvm::Expected<CharSourceRange> {
    const auto *If = R.Nodes.getNodeAs<IfStmt>(Id);
    auto Region = returnRegion(If, *R.Context);
    // Through the semicolon of a final `return e;` (its statement ends at `e`).
    return tooling::maybeExtendRange(
        CharSourceRange::getTokenRange(Region.front()->getBeginLoc(), Region.back()->getEndLoc()), tok::semi,
        *R.Context);
  };
}

} // namespace

NamedRewriteRule makeIfReturnToWhereRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher =
      ifStmt(isUserCode(), unless(isInsideIfChain()), hasThen(anyOf(returnStmt(), hasDescendant(returnStmt()))),
             optionally(allOf(unless(hasElse(stmt())), isFollowedBy(returnStmt().bind("next")))))
          .bind("if");
  auto Edits = planOnce<PredicatedCode>([A](const MatchResult &R) { return rewriteOf(R, *A); },
                                        [A](const MatchResult &R, const PredicatedCode &P) {
                                          return selectEdits(R, regionOfIf("if"), P.Text, P.LiftedLocals, *A);
                                        });
  return {"if-return-to-where",
          makeRule(Matcher, Edits,
                   cat("the branch becomes one where() select on a 0-d tensor condition, so the graph "
                       "computes both arms and keeps the choice on the device"))};
}

} // namespace graphify::rewriter
