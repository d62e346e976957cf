#pragma once
/// \file
/// What every rewrite rule file shares: the named-rule type the registry lists, the custom AST
/// matchers that ask the rule packs (tensor types, API calls), and small stencil helpers.
/// A rule file defines one factory, `NamedRewriteRule make<Name>Rule(const ApiModel &)`, whose
/// result is a clang Transformer rule: a matcher, `changeTo(selector, stencil)` edits, and an
/// explanation. Stencils refuse with a RefusalError when a safety predicate fails.

#include "ApiModel.h"
#include "ExprUtil.h"
#include "IfChain.h"
#include "Refusal.h"

#include "graphify/rewriter/RewriteCandidates.h"

#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Tooling/Transformer/RangeSelector.h>
#include <clang/Tooling/Transformer/RewriteRule.h>
#include <clang/Tooling/Transformer/SourceCode.h>
#include <clang/Tooling/Transformer/Stencil.h>

#include <string>
#include <vector>

namespace graphify::rewriter {

/// A rewrite rule with its stable id (used as FixIt::RuleName and as testdata/rewrite/<id>/).
struct NamedRewriteRule {
  std::string Name;
  clang::transformer::RewriteRuleWith<std::string> Rule;
  RewriteRuleTraits Traits = {};
};

/// Every rule, in the order they are tried (the registry, rewriter/lib/RuleRegistry.cpp).
std::vector<NamedRewriteRule> allRewriteRules(const ApiModel &Api);

namespace matchers {
using namespace clang::ast_matchers;

/// The expression's type (implicit nodes stripped) is a tensor of some flavor.
AST_MATCHER_P(clang::Expr, hasTensorType, const ApiModel *, Api) {
  return Api->isTensorExpr(&Node);
}

/// The statement is the `else if` of another if: chains are matched once, at their head.
AST_MATCHER(clang::IfStmt, isInsideIfChain) {
  for (const clang::DynTypedNode &P : Finder->getASTContext().getParents(Node))
    if (const auto *Parent = P.get<clang::IfStmt>(); Parent && Parent->getElse() == &Node)
      return true;
  return false;
}

/// `if (c) break;`: leaving a loop is the loop rewrite's concern (early-exit-loop-to-masked),
/// not a select.
AST_MATCHER(clang::IfStmt, isLoopExit) { return breakCondition(&Node) != nullptr; }

/// The call's first argument is an index list with a tensor among its entries (a mask, a
/// nonzero() result, a long tensor), not only integers and slices.
AST_MATCHER_P(clang::Expr, hasTensorIndexEntry, const ApiModel *, Api) {
  auto Args = callArgs(&Node);
  if (Args.empty())
    return false;
  for (const clang::Expr *E : bracedListElements(Args[0]))
    if (Api->isTensorExpr(E))
      return true;
  return false;
}

/// The statement is directly followed, in its enclosing block, by one matching `Inner`.
AST_MATCHER_P(clang::Stmt, isFollowedBy, clang::ast_matchers::internal::Matcher<clang::Stmt>, Inner) {
  for (const clang::DynTypedNode &P : Finder->getASTContext().getParents(Node)) {
    const auto *CS = P.get<clang::CompoundStmt>();
    if (!CS)
      continue;
    for (auto It = CS->body_begin(); It != CS->body_end(); ++It)
      if (*It == &Node && It + 1 != CS->body_end())
        return Inner.matches(**(It + 1), Finder, Builder);
  }
  return false;
}

/// A call (method, function or operator) whose callee's unqualified name is `Name` and that the
/// rule packs describe (so it belongs to a tensor API, not a user function of the same name).
AST_MATCHER_P2(clang::Expr, isApiCall, const ApiModel *, Api, std::string, Name) {
  return calleeName(&Node) == Name && !Api->entriesFor(&Node).empty();
}

/// `t.item<T>()`-like reads of one element as a number, `t.item().toFloat()` included (see
/// ApiModel::elementRead).
AST_MATCHER_P(clang::Expr, isHostScalarRead, const ApiModel *, Api) {
  return llvm::isa<clang::CXXMemberCallExpr>(&Node) && Api->elementRead(&Node);
}

/// Only code the user wrote: not in system headers, not in template instantiations.
inline auto isUserCode() {
  return allOf(unless(isExpansionInSystemHeader()), unless(isInTemplateInstantiation()));
}
} // namespace matchers

/// A stencil computed by `Fn`; a thin alias that reads better in rule definitions.
inline clang::transformer::Stencil computed(
    std::function<llvm::Expected<std::string>(const clang::ast_matchers::MatchFinder::MatchResult &)> Fn) {
  return clang::transformer::run(std::move(Fn));
}

/// The edits of a rule whose replacement and companion edits (lifted locals, a removed
/// declaration) come from one safety analysis: `Plan(match)` analyses the match once and returns
/// the rule's plan or refuses; `Render(match, plan)` turns that plan into every edit, the main
/// replacement first. (A stencil plus a second edit generator would run the analysis twice.)
/// \code
///   planOnce<PredicatedCode>(analyse, [](const MatchResult &R, const PredicatedCode &P) { ... });
/// \endcode
template <class PlanT, class PlanFn, class RenderFn>
clang::transformer::EditGenerator planOnce(PlanFn Plan, RenderFn Render) {
  return [Plan = std::move(Plan), Render = std::move(Render)](const clang::ast_matchers::MatchFinder::MatchResult &R)
             -> llvm::Expected<llvm::SmallVector<clang::transformer::Edit, 1>> {
    llvm::Expected<PlanT> P = Plan(R);
    if (!P)
      return P.takeError();
    return Render(R, *P);
  };
}

/// What `changeTo(Where, Text)` edits: the range `Where` selects replaced by `Text`. A range that
/// no file edit can express (inside a macro expansion) refuses, rather than letting the rule's
/// other edits go through without their replacement.
inline llvm::Expected<clang::transformer::Edit> replaceRange(const clang::ast_matchers::MatchFinder::MatchResult &R,
                                                             const clang::transformer::RangeSelector &Where,
                                                             std::string Text) {
  llvm::Expected<clang::CharSourceRange> Range = Where(R);
  if (!Range)
    return Range.takeError();
  std::optional<clang::CharSourceRange> InFile = clang::tooling::getFileRangeForEdit(*Range, *R.Context);
  if (!InFile)
    return refuse("the code to rewrite comes from a macro expansion");
  clang::transformer::Edit E;
  E.Kind = clang::transformer::EditKind::Range;
  E.Range = *InFile;
  E.Replacement = std::move(Text);
  return E;
}


} // namespace graphify::rewriter
