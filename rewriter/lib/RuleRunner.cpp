// The rule runner keeps one invariant: every candidate is either a complete set of edits that a
// rule produced after all of its safety predicates passed, or a refusal with its reason — never a
// partial edit list. Rules run on the statements of the functions being analysed only (not on
// LibTorch's headers), which keeps a pass over a TU that includes <torch/torch.h> cheap.
#include "graphify/rewriter/RewriteCandidates.h"

#include "ApiModel.h"
#include "CommentCarry.h"
#include "IfChain.h"
#include "LoopAccumulators.h"
#include "ExprUtil.h"
#include "FreshNames.h"
#include "PreprocessorHazards.h"
#include "Refusal.h"
#include "RuleSupport.h"
#include "Safety.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Tooling/Core/Replacement.h>

#include <llvm/Support/xxhash.h>

#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace graphify {

namespace {

/// The hash of the text clang parsed for `Path`: fix application compares it with the file on
/// disk, so an edit made after the analysis is never overwritten by offsets that no longer fit.
uint64_t analysedContentHash(const SourceManager &SM, llvm::StringRef Path) {
  auto File = SM.getFileManager().getOptionalFileRef(Path);
  if (!File)
    return 0;
  const FileID Id = SM.translateFile(*File);
  if (Id.isInvalid())
    return 0;
  return llvm::xxh3_64bits(SM.getBufferData(Id));
}

using rewriter::ApiModel;
using rewriter::NamedRewriteRule;

SourcePoint pointOf(SourceLocation L, const SourceManager &SM) {
  SourcePoint P;
  L = SM.getExpansionLoc(L);
  if (L.isInvalid())
    return P;
  if (auto FE = SM.getFileEntryRefForID(SM.getFileID(L)))
    P.File = FE->getName().str();
  P.Line = SM.getExpansionLineNumber(L);
  P.Column = SM.getExpansionColumnNumber(L);
  P.Offset = SM.getFileOffset(L);
  return P;
}

/// Whether the subtree reads tensor values on the host or builds a value-dependent shape,
/// directly or through the initialiser of a local it names.
bool touchesDataDependentApi(const Stmt *S, const ApiModel &Api, int Depth = 0) {
  if (!S || Depth > 3)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    for (const char *Tag : {"data_dependent_output", "host_sync", "dynamic_output_shape", "bool_mask_index"})
      if (Api.callHasTag(E, Tag))
        return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasLocalStorage() && V->getInit())
      if (touchesDataDependentApi(V->getInit(), Api, Depth + 1))
        return true;
  for (const Stmt *C : S->children())
    if (touchesDataDependentApi(C, Api, Depth))
      return true;
  return false;
}

/// The conditions of a select-shaped statement (an if / else-if chain, a ?: chain) or of a
/// loop (its condition and those of the `if (c) break;` that leave it), or none.
llvm::SmallVector<const Stmt *, 2> selectConditions(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 2> Conds;
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S)) {
    if (const auto *F = dyn_cast<ForStmt>(S); F && F->getCond())
      Conds.push_back(F->getCond());
    if (const auto *W = dyn_cast<WhileStmt>(S))
      Conds.push_back(W->getCond());
    if (const auto *D = dyn_cast<DoStmt>(S))
      Conds.push_back(D->getCond());
    for (const Expr *C : rewriter::loopExitConditions(S))
      Conds.push_back(C);
    return Conds;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    for (; If; If = dyn_cast_or_null<IfStmt>(If->getElse()))
      Conds.push_back(If->getCond());
  } else if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    for (; CO; CO = dyn_cast<ConditionalOperator>(CO->getFalseExpr()->IgnoreParenImpCasts()))
      Conds.push_back(CO->getCond());
  }
  return Conds;
}

void coverStatement(const Stmt *S, const SourceManager &SM, std::vector<std::pair<unsigned, unsigned>> &Covered) {
  SourceLocation B = SM.getExpansionLoc(S->getBeginLoc());
  SourceLocation E = SM.getExpansionLoc(S->getEndLoc());
  if (B.isValid() && E.isValid() && SM.getFileID(B) == SM.getFileID(E))
    Covered.push_back({SM.getFileOffset(B), SM.getFileOffset(E) + 1});
}

/// The `if` keyword itself: a branch finding may be anchored on the statement.
void coverStatementHead(const Stmt *S, const SourceManager &SM, std::vector<std::pair<unsigned, unsigned>> &Covered) {
  SourceLocation B = SM.getExpansionLoc(S->getBeginLoc());
  if (B.isValid())
    Covered.push_back({SM.getFileOffset(B), SM.getFileOffset(B) + 1});
}

/// The calls under `S` that read tensor values on the host or have a value-dependent shape.
void collectValueDependentCalls(const Stmt *S, const ApiModel &Api, std::vector<const Stmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    for (const char *Tag : {"data_dependent_output", "host_sync", "dynamic_output_shape", "bool_mask_index"})
      if (isa<CallExpr>(E) && Api.callHasTag(E, Tag)) {
        Out.push_back(S);
        break;
      }
  for (const Stmt *C : S->children())
    collectValueDependentCalls(C, Api, Out);
}

/// Adds the condition of every if inside a replaced range of `Fix` (the region an if-conversion
/// rewrote) to what the candidate covers.
void coverConvertedIfs(const Stmt *Root, const FixIt &Fix, ASTContext &Ctx,
                       std::vector<std::pair<unsigned, unsigned>> &Covered, const ApiModel &Api);

/// Bytes the fix replaces, in total (wider fixes contain narrower ones they overlap).
unsigned fixSpan(const FixIt &Fix) {
  unsigned Span = 0;
  for (const Replacement &R : Fix.Replacements)
    Span += R.Length;
  return Span;
}

/// Covers the initialisers of the locals `S` reads that carry a value read from a tensor or a
/// value-dependent shape themselves (`auto i = m.nonzero();`, `float s = x.sum().item<float>();`):
/// the rewrite removes them. A local merely computed from such a value (a buffer sized by it)
/// stays what its own finding says.
void coverLocalInitializers(const Stmt *S, const SourceManager &SM, std::vector<std::pair<unsigned, unsigned>> &Covered,
                            const ApiModel &Api, bool TensorsOnly = false) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && !isa<ParmVarDecl>(V) && V->hasLocalStorage() &&
                                                          V->getInit() && (!TensorsOnly || Api.isTensor(V->getType())) &&
                                                          touchesDataDependentApi(V->getInit(), Api, /*Depth=*/3)) {
      SourceLocation B = SM.getExpansionLoc(V->getInit()->getBeginLoc());
      SourceLocation E = SM.getExpansionLoc(V->getInit()->getEndLoc());
      if (B.isValid() && E.isValid() && SM.getFileID(B) == SM.getFileID(E))
        Covered.push_back({SM.getFileOffset(B), SM.getFileOffset(E) + 1});
    }
  for (const Stmt *C : S->children())
    coverLocalInitializers(C, SM, Covered, Api, TensorsOnly);
}

/// A rule rooted at the initialiser of a host local (`int64_t i = t.item<int64_t>();`) rewrites
/// where that value goes: findings on the local's uses (a position `x[i]`) are about it too.
void coverUsesOfInitialisedLocal(const Stmt *Root, ASTContext &Ctx,
                                 std::vector<std::pair<unsigned, unsigned>> &Covered) {
  const auto *E = dyn_cast<Expr>(Root);
  const VarDecl *V = E ? rewriter::localInitialisedBy(E, Ctx) : nullptr;
  const Stmt *Body = V ? rewriter::functionBody(rewriter::enclosingFunction(Root, Ctx)) : nullptr;
  if (!Body)
    return;
  for (const DeclRefExpr *Use : rewriter::usesOf(V, Body))
    coverStatement(Use, Ctx.getSourceManager(), Covered);
}

void coverConvertedIfs(const Stmt *Root, const FixIt &Fix, ASTContext &Ctx,
                       std::vector<std::pair<unsigned, unsigned>> &Covered, const ApiModel &Api) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = rewriter::functionBody(rewriter::enclosingFunction(Root, Ctx));
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      unsigned Begin = SM.getFileOffset(SM.getExpansionLoc(If->getBeginLoc()));
      for (const Replacement &R : Fix.Replacements)
        if (Begin >= R.Offset && Begin < R.Offset + R.Length) {
          coverStatementHead(If, SM, Covered);
          for (const Stmt *Cond : selectConditions(If)) {
            coverStatement(Cond, SM, Covered);
            coverLocalInitializers(Cond, SM, Covered, Api);
          }
        }
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
}

class CandidateCollector : public MatchFinder::MatchCallback {
public:
  CandidateCollector(const NamedRewriteRule &Rule, const ApiModel &Api, std::vector<RewriteCandidate> &Out)
      : Rule(Rule), Api(Api), Out(Out) {}

  void run(const MatchFinder::MatchResult &R) override {
    auto It = R.Nodes.getMap().find(transformer::RootID);
    if (It == R.Nodes.getMap().end())
      return;
    const Stmt *Root = It->second.get<Stmt>();
    if (!Root || !Seen.insert(Root).second)
      return;
    const SourceManager &SM = *R.SourceManager;
    rewriter::FreshNameRegistry::Owner NamesOwnedBy(Root);
    RewriteCandidate C;
    C.RuleName = Rule.Name;
    C.Traits = Rule.Traits;
    C.Root = Root;
    C.Where = pointOf(Root->getBeginLoc(), SM);
    C.TouchesDataDependentApi = touchesDataDependentApi(Root, Api);
    // A select rewrite (if, ?:) concerns its conditions only: a finding inside an arm (a print,
    // a gather) is neither removed by it nor blocked by the arm's own refusal. Values computed
    // into locals flow into what the candidate concerns: a finding on such an initializer (the
    // `nonzero()` of `auto i = m.nonzero();`, the `item()` of `float s = ...`) is about it too.
    // Other rules are about the value-dependent calls they fold away (the nonzero(), the
    // masked_select(), the item()), not about everything written inside the matched call (a
    // Slice bound among index_put_'s indices is its own finding).
    const bool SelectsOnConditions = !selectConditions(Root).empty();
    if (SelectsOnConditions) {
      for (const Stmt *Concern : selectConditions(Root)) {
        coverStatement(Concern, SM, C.Covered);
        coverLocalInitializers(Concern, SM, C.Covered, Api);
        // A branch finding on an `if (c) break;` is anchored on the if itself.
        for (const DynTypedNode &P : R.Context->getParents(*Concern))
          if (const auto *If = P.get<IfStmt>(); If && If != Root && If->getCond() == Concern)
            coverStatementHead(If, SM, C.Covered);
      }
      coverStatementHead(Root, SM, C.Covered);
    } else {
      collectValueDependentCalls(Root, Api, C.ConcernNodes);
      coverLocalInitializers(Root, SM, C.Covered, Api, /*TensorsOnly=*/true);
      coverUsesOfInitialisedLocal(Root, *R.Context, C.Covered);
      coverStatementHead(Root, SM, C.Covered); // a finding on the value the root starts with
    }
    size_t CaseIndex = transformer::detail::findSelectedCase(R, Rule.Rule);
    auto Edits = Rule.Rule.Cases[CaseIndex].Edits(R);
    if (!Edits) {
      llvm::handleAllErrors(
          Edits.takeError(), [&](const rewriter::RefusalError &E) {
            C.NoFixReason = E.reason();
            C.OutOfScope = E.outOfScope();
          },
          [&](const llvm::ErrorInfoBase &E) { C.NoFixReason = E.message(); });
      Out.push_back(std::move(C));
      return;
    }
    llvm::SmallVector<CharSourceRange, 4> Ranges;
    for (const transformer::Edit &E : *Edits)
      if (E.Kind == transformer::EditKind::Range)
        Ranges.push_back(E.Range);
    if (auto Why = rewriter::preprocessorHazard(Ranges, Root, *R.Context, Api)) {
      C.NoFixReason = *Why;
      Out.push_back(std::move(C));
      return;
    }
    FixIt Fix;
    Fix.RuleName = Rule.Name;
    auto Explanation = Rule.Rule.Metadata[CaseIndex]->eval(R);
    if (Explanation)
      Fix.Explanation = *Explanation;
    else
      llvm::consumeError(Explanation.takeError());
    for (const transformer::Edit &E : *Edits) {
      if (E.Kind != transformer::EditKind::Range)
        continue;
      tooling::Replacement Rep(SM, E.Range,
                               rewriter::withCarriedComments(SM, R.Context->getLangOpts(), E.Range, E.Replacement));
      Fix.Replacements.push_back({Rep.getFilePath().str(), Rep.getOffset(), Rep.getLength(),
                                  Rep.getReplacementText().str(), analysedContentHash(SM, Rep.getFilePath())});
    }
    if (Fix.Replacements.empty()) {
      C.NoFixReason = "the code is produced by a macro expansion";
    } else {
      // An if-conversion rewrites every if of its region: their conditions are its concern too.
      if (SelectsOnConditions)
        coverConvertedIfs(Root, Fix, *R.Context, C.Covered, Api);
      // A rewrite of a whole function body (selection-to-padded) rewrites every statement in it.
      if (isa<CompoundStmt>(Root))
        coverStatement(Root, SM, C.Covered);
      // A masked loop keeps the host sums of its body on the device: their reads are folded.
      if (const auto *Loop = dyn_cast<ForStmt>(Root))
        for (const rewriter::Accumulation &A : rewriter::loopAccumulations(Loop, Api, *R.Context))
          for (const auto &Update : A.Updates)
            collectValueDependentCalls(Update.first, Api, C.ConcernNodes);
      C.FixSpan = fixSpan(Fix);
      C.Fix = std::move(Fix);
    }
    Out.push_back(std::move(C));
  }

private:
  const NamedRewriteRule &Rule;
  const ApiModel &Api;
  std::vector<RewriteCandidate> &Out;
  std::set<const Stmt *> Seen;
};

/// Offers every statement under a body to the match finder (matchers then see one node each,
/// with full parent information from the ASTContext).
class StatementFeeder : public RecursiveASTVisitor<StatementFeeder> {
public:
  StatementFeeder(MatchFinder &Finder, ASTContext &Ctx) : Finder(Finder), Ctx(Ctx) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitStmt(Stmt *S) {
    Finder.match(*S, Ctx);
    return true;
  }

private:
  MatchFinder &Finder;
  ASTContext &Ctx;
};

} // namespace

std::vector<RewriteCandidate> findRewriteCandidates(ASTContext &Ctx, const RuleSet &Rules, const DataFacts *Facts,
                                                    const std::vector<const Decl *> &Scopes) {
  ApiModel Api(Rules, Facts, &Ctx);
  std::vector<NamedRewriteRule> All = rewriter::allRewriteRules(Api);
  std::vector<RewriteCandidate> Out;
  std::vector<std::unique_ptr<CandidateCollector>> Collectors;
  MatchFinder Finder;
  for (const NamedRewriteRule &Rule : All) {
    Collectors.push_back(std::make_unique<CandidateCollector>(Rule, Api, Out));
    for (const auto &M : transformer::detail::buildMatchers(Rule.Rule))
      Finder.addDynamicMatcher(M, Collectors.back().get());
  }
  std::vector<const Decl *> Targets = Scopes;
  if (Targets.empty()) {
    // Every function body written in the main file (methods of classes included).
    struct MainFileFunctions : RecursiveASTVisitor<MainFileFunctions> {
      const SourceManager &SM;
      std::vector<const Decl *> &Found;
      MainFileFunctions(const SourceManager &SM, std::vector<const Decl *> &Found) : SM(SM), Found(Found) {}
      bool VisitFunctionDecl(FunctionDecl *FD) {
        if (FD->doesThisDeclarationHaveABody() && SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())) &&
            !FD->isTemplateInstantiation())
          Found.push_back(FD);
        return true;
      }
    } Visitor(Ctx.getSourceManager(), Targets);
    Visitor.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  rewriter::FreshNameRegistry Names;
  rewriter::FreshNameRegistry::Active UseNames(Names);
  std::set<const Decl *> Done;
  for (const Decl *D : Targets) {
    if (!D || !Done.insert(D).second)
      continue;
    const Stmt *Body = D->getBody();
    if (!Body)
      continue;
    StatementFeeder Feeder(Finder, Ctx);
    Feeder.TraverseStmt(const_cast<Stmt *>(Body));
  }
  return Out;
}

} // namespace graphify
