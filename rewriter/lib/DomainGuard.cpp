// Guards are insertions around the guarded input's source range, so guards nested inside each
// other (`(x / y).sqrt()` guards both `x / y` and `y`) compose without re-rendering anything.
#include "DomainGuard.h"

#include "ExprUtil.h"

#include "graphify/rules/RuleSet.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <algorithm>
#include <map>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// Text to insert before (Open) and after (Close) an input.
struct Guard {
  unsigned Begin, End;
  std::string Open, Close;
};

void collectGuards(const Stmt *S, llvm::StringRef Cond, bool TakenWhenTrue, const ApiModel &Api, ASTContext &Ctx,
                   unsigned ArmBegin, std::vector<Guard> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *E = dyn_cast<Expr>(S); E && isa<CallExpr>(E))
    for (const ApiEntry *Entry : Api.entriesFor(E)) {
      if (!Entry->hasTag("domain_restricted") || !Entry->SafeValue)
        continue;
      for (unsigned Pos : Entry->DomainArgs) {
        const Expr *Input = Api.argAt(E, Pos);
        if (!Input || !Api.isTensorExpr(Input))
          continue;
        auto Range = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(Input->getSourceRange()), Ctx);
        if (!Range)
          continue;
        const SourceManager &SM = Ctx.getSourceManager();
        const std::string Safe = std::to_string(*Entry->SafeValue);
        const std::string Where = Api.spell(Input, "where") + "(" + Cond.str() + ", ";
        Guard G{SM.getFileOffset(Range->getBegin()) - ArmBegin, SM.getFileOffset(Range->getEnd()) - ArmBegin,
                TakenWhenTrue ? Where : Where + Safe + ", ", TakenWhenTrue ? ", " + Safe + ")" : ")"};
        Out.push_back(std::move(G));
      }
      break;
    }
  for (const Stmt *C : S->children())
    collectGuards(C, Cond, TakenWhenTrue, Api, Ctx, ArmBegin, Out);
}

} // namespace

std::string guardedArmText(const Expr *Arm, llvm::StringRef Cond, bool TakenWhenTrue, const ApiModel &Api,
                           ASTContext &Ctx) {
  std::string Text = sourceText(Arm, Ctx);
  auto ArmRange = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(Arm->getSourceRange()), Ctx);
  if (!ArmRange)
    return Text;
  const unsigned ArmBegin = Ctx.getSourceManager().getFileOffset(ArmRange->getBegin());
  std::vector<Guard> Guards;
  collectGuards(Arm, Cond, TakenWhenTrue, Api, Ctx, ArmBegin, Guards);
  // Insertions at one offset: closing texts of inner inputs first, opening texts of outer ones
  // first (wider ranges open before, and close after, the ranges they contain).
  std::multimap<unsigned, std::string> Closes, Opens;
  std::sort(Guards.begin(), Guards.end(),
            [](const Guard &A, const Guard &B) { return A.End - A.Begin > B.End - B.Begin; });
  for (const Guard &G : Guards) {
    if (G.End > Text.size() || G.Begin > G.End)
      return sourceText(Arm, Ctx);
    Opens.emplace(G.Begin, G.Open);
  }
  for (auto It = Guards.rbegin(); It != Guards.rend(); ++It)
    Closes.emplace(It->End, It->Close);
  std::string Out;
  for (unsigned I = 0; I <= Text.size(); ++I) {
    for (auto [B, E] = Closes.equal_range(I); B != E; ++B)
      Out += B->second;
    for (auto [B, E] = Opens.equal_range(I); B != E; ++B)
      Out += B->second;
    if (I < Text.size())
      Out += Text[I];
  }
  return Out;
}

bool armNeedsGuards(const Expr *Arm, const ApiModel &Api, ASTContext &Ctx) {
  std::vector<Guard> Guards;
  auto ArmRange = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(Arm->getSourceRange()), Ctx);
  if (!ArmRange)
    return false;
  collectGuards(Arm, "", true, Api, Ctx, Ctx.getSourceManager().getFileOffset(ArmRange->getBegin()), Guards);
  return !Guards.empty();
}

} // namespace graphify::rewriter
