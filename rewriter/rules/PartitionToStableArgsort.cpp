// partition-to-stable-argsort:
//   torch::cat({x.index({m}), x.index({~m})})
//       ->  x.index_select(0, torch::argsort((~m).to(torch::kInt), /*stable=*/true, 0))
// A stable sort of the 0/1 key "belongs to the second part" puts the first part's rows first,
// each part in its original order: exactly the concatenation, with a fixed-size index.
// Conditions: both gathers index the same variable with one boolean index each, the second
// mask is the complement of the first (`~m`, `m.logical_not()`, `torch::logical_not(m)`), the
// concatenation is along dimension 0, and the mask is side-effect free. Complementary comparisons
// (`x > 0` / `x <= 0`) are refused: a NaN element is in neither part of the original, which has
// fewer elements than x then, and no fixed-size form can drop it.
#include "lib/RuleSupport.h"
#include "lib/Safety.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>

using namespace clang;
using namespace clang::transformer;
using MatchResult = clang::ast_matchers::MatchFinder::MatchResult;

namespace graphify::rewriter {

namespace {

struct Gather {
  const VarDecl *Source = nullptr;
  const Expr *SourceExpr = nullptr;
  const Expr *Mask = nullptr;
};

std::optional<Gather> asMaskGather(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC || calleeName(MC) != "index" || !Api.callHasTag(MC, "bool_mask_index"))
    return std::nullopt;
  auto Args = callArgs(MC);
  if (Args.size() != 1)
    return std::nullopt;
  auto Elements = bracedListElements(Args[0]);
  if (Elements.size() != 1)
    return std::nullopt;
  Gather G;
  G.SourceExpr = MC->getImplicitObjectArgument();
  G.Source = referencedVar(G.SourceExpr);
  G.Mask = Elements[0];
  if (!G.Source || !Api.isTensorExpr(G.Mask))
    return std::nullopt;
  return G;
}

/// `~m`, `m.logical_not()`, `torch::logical_not(m)`, `!m` -> m; else null.
const Expr *negated(const Expr *E) {
  E = stripAll(E);
  std::string N = calleeName(E);
  if (N == "operator~" || N == "operator!" || N == "logical_not" || N == "bitwise_not") {
    if (const Expr *Obj = callObject(E))
      return Obj;
    auto Args = callArgs(E);
    return Args.size() == 1 ? Args[0] : nullptr;
  }
  return nullptr;
}

bool sameText(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  return sourceText(stripAll(A), Ctx) == sourceText(stripAll(B), Ctx);
}

/// `a > b` and `a <= b` (and the other complementary pairs) on the same operands.
bool complementaryComparisons(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  static const std::pair<const char *, const char *> Pairs[] = {
      {"operator>", "operator<="}, {"operator<", "operator>="}, {"operator==", "operator!="}};
  std::string NA = calleeName(A), NB = calleeName(B);
  bool Complementary = false;
  for (auto [P, Q] : Pairs)
    Complementary |= (NA == P && NB == Q) || (NA == Q && NB == P);
  if (!Complementary)
    return false;
  const auto *CA = dyn_cast<CXXOperatorCallExpr>(stripAll(A));
  const auto *CB = dyn_cast<CXXOperatorCallExpr>(stripAll(B));
  return CA && CB && CA->getNumArgs() == 2 && CB->getNumArgs() == 2 && sameText(CA->getArg(0), CB->getArg(0), Ctx) &&
         sameText(CA->getArg(1), CB->getArg(1), Ctx);
}

/// A concatenation that lists a gather `x.index({i})` among its parts: what the rule is about.
/// Other concatenations (of columns, of host tensors) are not matched, so that a finding about
/// something else in their statement is not answered with this rule's refusal.
AST_MATCHER_P(CallExpr, listsGather, const ApiModel *, Api) {
  auto Args = callArgs(&Node);
  return !Args.empty() && llvm::any_of(bracedListElements(Args[0]),
                                       [&](const Expr *Part) { return asMaskGather(Part, *Api).has_value(); });
}

} // namespace

NamedRewriteRule makePartitionToStableArgsortRule(const ApiModel &Api) {
  using namespace matchers;
  const ApiModel *A = &Api;
  auto Matcher = callExpr(isUserCode(), isApiCall(A, "cat"), hasTensorType(A), listsGather(A)).bind("cat");
  auto Rewrite = computed([A](const MatchResult &R) -> llvm::Expected<std::string> {
    ASTContext &Ctx = *R.Context;
    const auto *Cat = R.Nodes.getNodeAs<CallExpr>("cat");
    auto Args = callArgs(Cat);
    if (Args.empty())
      return refuse("the concatenation has no arguments");
    if (Args.size() == 2) {
      Expr::EvalResult Dim;
      if (!Args[1]->EvaluateAsInt(Dim, Ctx) || Dim.Val.getInt() != 0)
        return refuse("the concatenation is not along dimension 0");
    }
    auto Parts = bracedListElements(Args[0]);
    if (Parts.size() != 2)
      return refuse("the concatenation does not have exactly two parts");
    auto First = asMaskGather(Parts[0], *A), Second = asMaskGather(Parts[1], *A);
    if (!First || !Second)
      return refuse("the parts are not two boolean-mask gathers 'x.index({m})'");
    if (First->Source != Second->Source)
      return refuse("the two gathers index different tensors");
    std::string SecondMask;
    if (const Expr *Inner = negated(Second->Mask); Inner && sameText(Inner, First->Mask, Ctx)) {
      SecondMask = sourceText(Second->Mask, Ctx);
    } else if (const Expr *Inner = negated(First->Mask); Inner && sameText(Inner, Second->Mask, Ctx)) {
      return refuse("the first part takes the complement ('~m' first); only 'm' then '~m' is rewritten");
    } else if (complementaryComparisons(First->Mask, Second->Mask, Ctx)) {
      // NaN compares false both ways, so the original drops NaN elements while any fixed-size
      // permutation keeps them, and the dtype (whether NaN can occur) is not known statically.
      return refuse("NaN elements satisfy neither '" + sourceText(First->Mask, Ctx) + "' nor '" +
                    sourceText(Second->Mask, Ctx) +
                    "', so the concatenation drops them where a fixed-size permutation would keep them; "
                    "gather with a named mask and its complement ('x.index({m})', 'x.index({~m})') to keep "
                    "NaN in the second part");
    } else {
      return refuse("the second mask is not the complement of the first");
    }
    if (auto Why = findSideEffect(First->Mask, *A, false, Evaluation::AsBefore))
      return refuse("the mask " + *Why);
    const Expr *X = First->SourceExpr;
    std::string Key = "(" + SecondMask + ")";
    if (isa<ParenExpr>(stripImplicit(Second->Mask)))
      Key = SecondMask;
    return sourceText(X, Ctx) + ".index_select(0, " + A->spell(X, "argsort") + "(" + Key + ".to(" +
           A->spellConstant(X, "kInt") + "), /*stable=*/true, 0))";
  });
  return {"partition-to-stable-argsort",
          makeRule(Matcher, changeTo(node("cat"), Rewrite),
                   cat("the two value-dependent gathers become one fixed-size gather through a stable "
                       "argsort of the mask, which keeps each part in its original order"))};
}

} // namespace graphify::rewriter
