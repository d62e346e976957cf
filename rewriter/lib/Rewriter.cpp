// attachFixes: the bridge between findings and rewrite rules. The invariant it keeps: a finding
// receives a fix only from a candidate that covers the finding's anchor, and never a fix and a
// refusal at once. A finding no rule matched keeps an empty NoFixReason (no rewrite exists).
#include "graphify/rewriter/Rewriter.h"
#include "graphify/rewriter/RewriteCandidates.h"

#include "ApiModel.h"
#include "BranchObstacles.h"
#include "ConditionLifting.h"
#include "ExprUtil.h"
#include "HostWork.h"
#include "ManualRecipe.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <set>

using namespace clang;

namespace graphify {

namespace {

/// A loop whose body holds no tensor is host code, not a trip count to mask: the reads that
/// decide it are advised as host code too (their use becomes "host-code").
void markHostCodeUses(AnalysisResult &Result, const rewriter::ApiModel &Api) {
  std::set<unsigned> HostLoops; // lines: a use names its line only
  for (size_t I = 0; I < Result.Findings.size() && I < Result.Anchors.size(); ++I)
    if (const Stmt *Body = rewriter::loopBody(Result.Anchors[I]);
        Body && Result.Findings[I].CheckId == "graphify-data-dependent-loop" && rewriter::worksOnHostOnly(Body, Api))
      HostLoops.insert(Result.Findings[I].Where.Line);
  if (HostLoops.empty())
    return;
  for (Finding &F : Result.Findings)
    for (auto &[Check, Line] : F.ValueUses)
      if (Check == "graphify-data-dependent-loop" && HostLoops.count(Line))
        Check = "host-code";
}

/// Branches that no select can express whatever their condition (host work in an arm, a
/// compaction, a host object tested), by line, with why: the reads that decide them get that
/// reason instead of the select recipe.
rewriter::BlockedBranches blockedBranches(const AnalysisResult &Result, const rewriter::ApiModel &Api,
                                          ASTContext &Ctx) {
  rewriter::BlockedBranches Blocked;
  for (size_t I = 0; I < Result.Findings.size() && I < Result.Anchors.size(); ++I)
    if (const auto *If = dyn_cast_or_null<IfStmt>(Result.Anchors[I]);
        If && Result.Findings[I].CheckId == "graphify-data-dependent-branch")
      if (auto Why = rewriter::branchObstacle(If->getCond(), Api, Ctx))
        Blocked.emplace(Result.Findings[I].Where.Line, *Why);
      else if (auto Exit = rewriter::loopExitObstacle(If->getCond(), Ctx))
        Blocked.emplace(Result.Findings[I].Where.Line, *Exit);
  return Blocked;
}

/// Why the function holding a host read was not split at its host part (split-at-host-boundary
/// covers the function, not the read, so its refusal is said beside the read's recipe), or empty
/// when it was not tried or is outside what the split covers.
std::string whySplitRefused(const Finding &F, const Stmt *Anchor, const std::vector<RewriteCandidate> &Candidates,
                            ASTContext &Ctx) {
  if (F.CheckId != "graphify-host-sync")
    return "";
  const Stmt *Body = rewriter::functionBody(rewriter::enclosingFunction(Anchor, Ctx));
  for (const RewriteCandidate &C : Candidates)
    if (C.Root == Body && C.Traits.MovesOutOfGraph && !C.Fix && !C.OutOfScope &&
        !C.NoFixReason.empty())
      return " (not split automatically: " + C.NoFixReason + ")";
  return "";
}

} // namespace

void attachFixes(ASTContext &Ctx, AnalysisResult &Result, const RuleSet &Rules) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const Decl *> Scopes;
  for (const Stmt *Anchor : Result.Anchors)
    if (Anchor)
      if (const Decl *D = rewriter::enclosingFunction(Anchor, Ctx))
        if (std::find(Scopes.begin(), Scopes.end(), D) == Scopes.end())
          Scopes.push_back(D);
  if (Scopes.empty())
    return;
  std::vector<RewriteCandidate> Candidates = findRewriteCandidates(Ctx, Rules, Result.Facts.get(), Scopes);
  rewriter::ApiModel Api(Rules, Result.Facts.get(), &Ctx);
  markHostCodeUses(Result, Api);
  const rewriter::BlockedBranches Blocked = blockedBranches(Result, Api, Ctx);

  for (size_t I = 0; I < Result.Findings.size() && I < Result.Anchors.size(); ++I) {
    const Stmt *Anchor = Result.Anchors[I];
    if (!Anchor)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(Anchor->getBeginLoc());
    if (Loc.isInvalid())
      continue;
    unsigned Offset = SM.getFileOffset(Loc);
    std::string File;
    if (auto FE = SM.getFileEntryRefForID(SM.getFileID(Loc)))
      File = FE->getName().str();
    // A fix beats a refusal; among fixes the widest wins (an if-conversion of a whole region
    // contains the fixes of the ifs inside it), among refusals the narrowest (the most specific
    // reason). The candidate rooted at the anchor itself is preferred among equals; among fixes
    // of one span, the one rooted at the narrower construct (two splits of one function: the
    // masked loop's, which captures the loop, before the host split's, which leaves it to the host).
    const RewriteCandidate *Best = nullptr;
    auto rootExtent = [&](const Stmt *Root) -> unsigned {
      SourceLocation B = SM.getExpansionLoc(Root->getBeginLoc()), E = SM.getExpansionLoc(Root->getEndLoc());
      return B.isValid() && E.isValid() ? SM.getFileOffset(E) - SM.getFileOffset(B) : ~0u;
    };
    auto Better = [&](const RewriteCandidate &C, unsigned Width, unsigned BestWidth) {
      if (!Best)
        return true;
      if (bool(C.Fix) != bool(Best->Fix))
        return bool(C.Fix);
      if (C.Fix && C.FixSpan != Best->FixSpan)
        return C.FixSpan > Best->FixSpan;
      if (C.Root == Anchor && Best->Root != Anchor)
        return true;
      if (C.Fix && Best->Root != Anchor && rootExtent(C.Root) != rootExtent(Best->Root))
        return rootExtent(C.Root) < rootExtent(Best->Root);
      return !C.Fix && Width < BestWidth;
    };
    unsigned BestWidth = ~0u;
    // No rewrite is about a CUDA call that capture forbids (a rule on the error-checking `if`
    // around it would give its refusal as the reason): its advice is where capture begins and ends.
    const bool CaptureCall = Result.Findings[I].CheckId == "graphify-capture-unsafe-api";
    for (const RewriteCandidate &C : Candidates) {
      if (C.Where.File != File || CaptureCall)
        continue;
      // A function split at its host part is no finding's own rewrite: where it does not apply,
      // the findings keep their advice (whySplitRefused adds its reason to host reads'). A rewrite
      // that removes another check's findings does not touch this one (`torch::zeros({sel.size(0)})
      // .to(dev)` built on the device still has a size that follows the data).
      if ((!C.Fix && C.Traits.MovesOutOfGraph) || !C.Traits.addresses(Result.Findings[I].CheckId))
        continue;
      // A rule that found its shape missing (the sum of an integer gather, no selection) says
      // nothing about the finding: its own advice stays. Whole-function rules keep theirs below.
      if (!C.Fix && C.OutOfScope && !isa<CompoundStmt>(C.Root))
        continue;
      unsigned Width = ~0u;
      if (C.Root == Anchor)
        Width = 0;
      else if ((C.Fix || isa<Expr>(C.Root)) && llvm::is_contained(C.ConcernNodes, Anchor))
        // An expression rule (index_put_ with a nonzero()) is about the calls it folds, fixed or
        // refused; a statement rule (a loop) that refused names what blocked the statement, not
        // every value-dependent call in its body.
        Width = 1;
      for (auto [B, E] : C.Covered)
        if (Offset >= B && Offset < E)
          Width = std::min(Width, E - B);
      if (Width != ~0u && Better(C, Width, BestWidth)) {
        Best = &C;
        BestWidth = Width;
      }
    }
    Finding &F = Result.Findings[I];
    // A call whose pack entry says how to do without its read (multinomial's exponential race)
    // keeps that advice unless a rewrite replaces the call itself: an enclosing one fixes
    // something else (`multinomial(p, 1).item()`'s item, while multinomial still reads back).
    if (F.CheckId == "graphify-host-sync" && isa_and_nonnull<Expr>(Anchor) && (!Best || Best->Root != Anchor))
      if (std::string Pack = Api.packRecipe(cast<Expr>(Anchor)); !Pack.empty()) {
        F.Fix.reset();
        F.NoFixReason.clear();
        F.Recipe = Pack;
        continue;
      }
    // A construct's recipe says what the whole construct becomes; a refusal of one rewrite
    // inside it would name something narrower.
    if (!Best || (F.Construct != Finding::ConstructKind::None && !Best->Fix)) {
      F.Recipe = rewriter::manualRecipe(F, Anchor, Ctx, Api, Blocked) + whySplitRefused(F, Anchor, Candidates, Ctx);
      continue;
    }
    // A whole-function rewrite (selection-to-padded) that does not apply: the by-hand recipe
    // stays the advice (it says what to do), with why the automatic form did not apply when the
    // finding is about the selection it would have padded and the reason is about that code (not
    // "the function is a method", which says what the rule covers, not what blocks the selection).
    if (!Best->Fix && isa<CompoundStmt>(Best->Root)) {
      F.Recipe = rewriter::manualRecipe(F, Anchor, Ctx, Api, Blocked) + whySplitRefused(F, Anchor, Candidates, Ctx);
      if ((F.SizeOfSelection || F.CheckId == "graphify-dynamic-shape") && !Best->OutOfScope)
        F.Recipe += (F.Recipe.empty() ? "" : " ") + std::string("(not rewritten automatically: ") + Best->NoFixReason +
                    ")";
      continue;
    }
    if (Best->Fix) {
      F.Fix = Best->Fix;
      F.NoFixReason.clear();
      // The split keeps the function's callers working by running this construct on the host,
      // after the graph; how to keep the construct itself in the graph is still the advice a user
      // wants (pad the selection, a static trip count, the exponential race for multinomial).
      if (Best->Traits.MovesOutOfGraph)
        F.Recipe = rewriter::manualRecipe(F, Anchor, Ctx, Api, Blocked);
    } else {
      F.Fix.reset();
      F.NoFixReason = Best->NoFixReason;
    }
  }
}

} // namespace graphify
