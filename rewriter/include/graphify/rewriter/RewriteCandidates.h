#pragma once
/// \file
/// The rule runner: every rewrite rule applied to a set of functions, yielding one candidate per
/// match — edits, or the reason the rule refused. attachFixes maps candidates to findings; tests
/// and graphify-validate may use candidates directly.
///
/// \code
///   auto Cands = graphify::findRewriteCandidates(Ctx, Rules, /*Facts=*/nullptr, /*Scopes=*/{});
///   for (const graphify::RewriteCandidate &C : Cands)
///     llvm::outs() << C.RuleName << ": " << (C.Fix ? "fix" : C.NoFixReason) << "\n";
/// \endcode

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/Finding.h"
#include "graphify/rules/RuleSet.h"

#include <clang/AST/ASTContext.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace graphify {

/// What a rule's rewrite does to the findings it covers, declared by the rule (its factory in
/// rewriter/rules/) so that attaching fixes to findings asks the rule instead of naming it.
struct RewriteRuleTraits {
  /// The checks whose findings the rewrite removes; empty: any. Building a factory on the device
  /// removes a copy from host memory, not a size that follows the data on the same line.
  std::vector<std::string> Addresses;
  /// The rewrite moves the construct out of the graph (after it, on the host) instead of making it
  /// capturable: a finding it fixes keeps the by-hand advice for keeping the construct in the
  /// graph, and its refusal is no finding's reason (it covers a function, not a construct).
  bool MovesOutOfGraph = false;

  bool addresses(const std::string &CheckId) const {
    return Addresses.empty() || std::find(Addresses.begin(), Addresses.end(), CheckId) != Addresses.end();
  }
};

/// One match of one rewrite rule.
struct RewriteCandidate {
  std::string RuleName;
  RewriteRuleTraits Traits;
  const clang::Stmt *Root = nullptr;      ///< the matched node
  SourcePoint Where;                      ///< start of the matched node
  /// Byte ranges [Begin, End) in `Where.File` that the candidate is about: for a select (if,
  /// ?:) its conditions (and, when it rewrote, those of every if it converted) with the
  /// initialisers of the host locals they read; for other rules the initialisers of the tensor
  /// locals holding a value-dependent result they fold (`auto i = m.nonzero();`). A finding
  /// anchored inside one of them is "about" this candidate.
  std::vector<std::pair<unsigned, unsigned>> Covered;
  /// The value-dependent calls a non-select rewrite folds away: a finding anchored on one of
  /// them is about this candidate.
  std::vector<const clang::Stmt *> ConcernNodes;
  std::optional<FixIt> Fix;               ///< the edits, when the rule rewrote
  unsigned FixSpan = 0;                   ///< bytes the fix replaces (wider fixes win)
  std::string NoFixReason;                ///< why the rule refused ("the else branch calls 'add_', ..."), when it did
  /// The refusal says the code is outside the shapes the rule covers (RefusalError::outOfScope).
  bool OutOfScope = false;
  /// Whether the matched code reads tensor values on the host or has a value-dependent shape
  /// (used only when no analysis ran, to decide which matches are worth reporting).
  bool TouchesDataDependentApi = false;
};

/// Runs every rule over the bodies of `Scopes` (functions, methods or lambdas; empty: every
/// function defined in the main file). Matches nested inside another candidate's root of the
/// same rule are dropped (the outer one rewrites them).
std::vector<RewriteCandidate> findRewriteCandidates(clang::ASTContext &Ctx, const RuleSet &Rules,
                                                    const DataFacts *Facts,
                                                    const std::vector<const clang::Decl *> &Scopes);

} // namespace graphify
