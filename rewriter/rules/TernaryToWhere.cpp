// ternary-to-where:
//   c ? a : b  (tensors)            ->  torch::where(c', a, b)
//   c1 ? a : c2 ? b : d             ->  torch::where(c1', a, torch::where(c2', b, d))
// The same conditions as if-return-to-where: arms free of side effects, compatible shapes and
// dtypes, and a condition that lifts to a 0-d tensor.
#include "lib/ConditionLifting.h"
#include "lib/DomainGuard.h"
#include "lib/Predication.h"
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

/// The tensor conditional operator directly under `E`'s implicit wrappers and parentheses.
const ConditionalOperator *asTernary(const Expr *E) { return dyn_cast<ConditionalOperator>(stripAll(E)); }

/// Builds the where() text for `T`, recursing into arms that are themselves tensor ternaries.
llvm::Expected<std::string> select(const ConditionalOperator *T, const MatchResult &R, const ApiModel &Api,
                                   const Stmt *Body, std::vector<const VarDecl *> &Locals) {
  ASTContext &Ctx = *R.Context;
  std::string Arms[2];
  const Expr *ArmExprs[2] = {T->getTrueExpr(), T->getFalseExpr()};
  for (int I = 0; I < 2; ++I) {
    const char *Label = I == 0 ? "the first arm" : "the second arm";
    if (const ConditionalOperator *Inner = asTernary(ArmExprs[I]); Inner && Api.isTensorExpr(Inner)) {
      auto Text = select(Inner, R, Api, Body, Locals);
      if (!Text)
        return Text.takeError();
      Arms[I] = *Text;
      continue;
    }
    if (auto Why = findSideEffect(ArmExprs[I], Api))
      return refuse(std::string(Label) + " " + *Why);
  }
  if (!asTernary(ArmExprs[0]) && !asTernary(ArmExprs[1]))
    if (auto Why = armsIncompatible(ArmExprs[0], ArmExprs[1], Api, Ctx))
      return refuse(*Why);
  auto Cond = liftCondition(T->getCond(), LiftScope{Body, T}, Api, Ctx);
  if (!Cond)
    return Cond.takeError();
  Locals.insert(Locals.end(), Cond->Locals.begin(), Cond->Locals.end());
  for (int I = 0; I < 2; ++I)
    if (Arms[I].empty())
      Arms[I] = guardedArmText(ArmExprs[I], Cond->Text, /*TakenWhenTrue=*/I == 0, Api, Ctx);
  return Api.spell(T, "where") + "(" + Cond->Text + ", " + Arms[0] + ", " + Arms[1] + ")";
}

} // namespace

namespace matchers {
/// The ternary is an arm of an enclosing tensor ternary (the outer one rewrites both).
AST_MATCHER(ConditionalOperator, isArmOfTernary) {
  ASTContext &Ctx = Finder->getASTContext();
  DynTypedNode N = DynTypedNode::create(Node);
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return false;
    N = Parents[0];
    if (const auto *CO = N.get<ConditionalOperator>())
      return stripAll(CO->getTrueExpr()) == &Node || stripAll(CO->getFalseExpr()) == &Node;
    const Expr *E = N.get<Expr>();
    if (!E || !(isa<ImplicitCastExpr>(E) || isa<MaterializeTemporaryExpr>(E) || isa<CXXBindTemporaryExpr>(E) ||
                isa<CXXConstructExpr>(E) || isa<ParenExpr>(E)))
      return false;
  }
  return false;
}
} // namespace matchers

NamedRewriteRule makeTernaryToWhereRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = conditionalOperator(isUserCode(), hasTensorType(A), unless(isArmOfTernary())).bind("ternary");
  auto Edits = planOnce<PredicatedCode>(
      [A](const MatchResult &R) -> llvm::Expected<PredicatedCode> {
        const auto *T = R.Nodes.getNodeAs<ConditionalOperator>("ternary");
        const Stmt *Body = functionBody(enclosingFunction(T, *R.Context));
        if (!Body)
          return refuse("the conditional operator is not inside a function body");
        PredicatedCode P;
        auto Text = select(T, R, *A, Body, P.LiftedLocals);
        if (!Text)
          return Text.takeError();
        if (auto Why = storageSharingLostByValue(T, Body, *A, *R.Context))
          return refuse(*Why);
        P.Text = std::move(*Text);
        return P;
      },
      [A](const MatchResult &R, const PredicatedCode &P) {
        return selectEdits(R, node("ternary"), P.Text, P.LiftedLocals, *A);
      });
  return {"ternary-to-where",
          makeRule(Matcher, Edits,
                   cat("the conditional operator becomes a where() select on a 0-d tensor condition, so "
                       "the graph computes both arms and keeps the choice on the device"))};
}

} // namespace graphify::rewriter
