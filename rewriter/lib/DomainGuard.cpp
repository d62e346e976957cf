// Guards are insertions around the guarded input's source range, so guards nested inside each
// other (`(x / y).sqrt()` guards both `x / y` and `y`), the guards of several path conditions,
// and the renames of predication compose in one pass over the text.
#include "DomainGuard.h"

#include "ExprUtil.h"

#include "graphify/rules/RuleSet.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <algorithm>
#include <map>
#include <optional>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// A guarded input: its range in the expression's text and the safe value its op accepts.
struct GuardedInput {
  unsigned Begin, End;
  std::string Safe;
  const Expr *Input;
};

void collectInputs(const Stmt *S, const ApiModel &Api, ASTContext &Ctx, unsigned Base, std::vector<GuardedInput> &Out) {
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
        Out.push_back({SM.getFileOffset(Range->getBegin()) - Base, SM.getFileOffset(Range->getEnd()) - Base,
                       std::to_string(*Entry->SafeValue), Input});
      }
      break;
    }
  for (const Stmt *C : S->children())
    collectInputs(C, Api, Ctx, Base, Out);
}

std::optional<unsigned> fileBegin(const Stmt *S, ASTContext &Ctx) {
  auto Range = tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(S->getSourceRange()), Ctx);
  if (!Range)
    return std::nullopt;
  return Ctx.getSourceManager().getFileOffset(Range->getBegin());
}

} // namespace

std::string guardedText(const Expr *X, llvm::ArrayRef<PathCondition> Path, llvm::ArrayRef<TextEdit> Renames,
                        const ApiModel &Api, ASTContext &Ctx) {
  const std::string Text = sourceText(X, Ctx);
  std::vector<GuardedInput> Inputs;
  if (auto Base = fileBegin(X, Ctx); Base && !Path.empty())
    collectInputs(X, Api, Ctx, *Base, Inputs);
  // Insertions at one offset: closing texts of inner guards first, opening texts of outer ones
  // first. Wider ranges are outer; on one range, the outer condition of the path is.
  struct Insertion {
    unsigned Width, Level;
    std::string Text;
  };
  std::map<unsigned, std::vector<Insertion>> Opens, Closes;
  for (const GuardedInput &G : Inputs) {
    if (G.End > Text.size() || G.Begin > G.End)
      return sourceText(X, Ctx);
    for (unsigned L = 0; L < Path.size(); ++L) {
      const PathCondition &C = Path[L];
      const std::string Where = Api.spell(G.Input, "where") + "(" + C.Cond + ", ";
      Opens[G.Begin].push_back({G.End - G.Begin, L, C.TakenWhenTrue ? Where : Where + G.Safe + ", "});
      Closes[G.End].push_back({G.End - G.Begin, L, C.TakenWhenTrue ? ", " + G.Safe + ")" : ")"});
    }
  }
  auto Outer = [](const Insertion &A, const Insertion &B) {
    return A.Width != B.Width ? A.Width > B.Width : A.Level < B.Level;
  };
  std::map<unsigned, const TextEdit *> RenameAt;
  for (const TextEdit &R : Renames)
    RenameAt[R.Begin] = &R;
  std::string Out;
  for (unsigned I = 0; I <= Text.size();) {
    if (auto It = Closes.find(I); It != Closes.end()) {
      std::sort(It->second.begin(), It->second.end(), [&](auto &A, auto &B) { return Outer(B, A); });
      for (const Insertion &C : It->second)
        Out += C.Text;
    }
    if (auto It = Opens.find(I); It != Opens.end()) {
      std::sort(It->second.begin(), It->second.end(), Outer);
      for (const Insertion &O : It->second)
        Out += O.Text;
    }
    if (I == Text.size())
      break;
    if (auto It = RenameAt.find(I); It != RenameAt.end() && It->second->Length > 0) {
      Out += It->second->Text;
      I += It->second->Length;
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

std::string guardedArmText(const Expr *Arm, llvm::StringRef Cond, bool TakenWhenTrue, const ApiModel &Api,
                           ASTContext &Ctx) {
  const PathCondition Path[] = {{Cond.str(), TakenWhenTrue}};
  return guardedText(Arm, Path, {}, Api, Ctx);
}

bool armNeedsGuards(const Stmt *S, const ApiModel &Api, ASTContext &Ctx) {
  std::vector<GuardedInput> Inputs;
  if (auto Base = fileBegin(S, Ctx))
    collectInputs(S, Api, Ctx, *Base, Inputs);
  return !Inputs.empty();
}

} // namespace graphify::rewriter
