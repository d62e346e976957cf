#include "GrowingBuffers.h"

#include "CoreSplit.h"
#include "ExprUtil.h"
#include "Predication.h"
#include "HostWork.h"
#include "Outlining.h"
#include "Predication.h"
#include "Refusal.h"
#include "Safety.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/Tooling/Transformer/SourceCode.h>

using namespace clang;

namespace graphify::rewriter {

namespace {

/// Whether `V` is declared inside `Scope`.
bool declaredWithin(const VarDecl *V, const Stmt *Scope) {
  return Scope->getSourceRange().fullyContains(V->getSourceRange());
}

/// The entry of `Call` that concatenates (tag concatenates), or null.
const ApiEntry *concatenation(const Expr *Call, const ApiModel &Api) {
  for (const ApiEntry *Entry : Api.entriesFor(Call))
    if (Entry->hasTag("concatenates") && Entry->hasTag("joins_inputs"))
      return Entry;
  return nullptr;
}

/// Why the tensor `V`, joined to itself by `Call` in `S`, cannot be kept growing; fills `Dim`.
std::optional<std::string> growthObstacle(const VarDecl *V, const Expr *Call, const Stmt *S, const ApiModel &Api,
                                          ASTContext &Ctx, int64_t &Dim) {
  const std::string Name = "'" + V->getNameAsString() + "'", Line = " (line " + lineOf(S, Ctx) + ")";
  const ApiEntry *Entry = concatenation(Call, Api);
  if (!Entry)
    return Name + " is joined to itself by '" + calleeName(Call) + "' each iteration" + Line +
           ", which does not concatenate along a dimension, so its shape changes every step: preallocate it to "
           "its size after the last iteration and write each iteration's part into it (a slice copy_ or "
           "index_put_ at the step), the static decoding buffer; the loop's exit then becomes a done mask";
  llvm::SmallVector<const Expr *, 4> Parts;
  for (const Expr *A : callArgs(Call))
    if (auto Elements = bracedListElements(A); !Elements.empty()) {
      Parts = Elements;
      break;
    }
  if (Parts.empty() || referencedVar(Parts.front()) != V ||
      llvm::count_if(Parts, [&](const Expr *P) { return referencedVar(P) == V; }) != 1)
    return Name + " grows at its front or more than once per concatenation" + Line +
           ", so what the original grew would not be a prefix of the fixed-trip loop's tensor: concatenate the new "
           "part after it";
  Dim = 0;
  if (!Entry->DimArgs.empty())
    if (const Expr *D = Api.argAt(Call, Entry->DimArgs[0])) {
      Expr::EvalResult R;
      if (D->isValueDependent() || !D->EvaluateAsInt(R, Ctx))
        return Name + " grows along the dimension '" + sourceText(D, Ctx) + "'" + Line +
               ", which is not a constant, so the length it reaches cannot be sliced along it";
      Dim = R.Val.getInt().getExtValue();
    }
  if (const auto *P = dyn_cast<ParmVarDecl>(V); P && P->getType()->isReferenceType())
    return Name + " grows in the loop" + Line + " and is a reference parameter: the caller would see it grown to "
           "the static bound's size (take it by value and return it)";
  if (!V->hasLocalStorage())
    return Name + " grows in the loop" + Line + " and is not a local variable: code outside the function would see "
           "it grown to the static bound's size";
  return std::nullopt;
}

} // namespace

llvm::Expected<std::vector<Growth>> loopGrowths(const ForStmt *Loop, const ApiModel &Api, ASTContext &Ctx) {
  std::vector<Growth> Out;
  llvm::SmallVector<const Stmt *, 32> Work{Loop->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (auto Assign = asAssignment(S)) {
      const VarDecl *V = referencedVar(Assign->first);
      const Expr *Call = stripAll(Assign->second);
      if (V && Api.isTensor(V->getType()) && !declaredWithin(V, Loop) && Call && Api.callHasTag(Call, "joins_inputs") &&
          llvm::any_of(callArgs(Call), [&](const Expr *A) {
            return llvm::any_of(bracedListElements(A), [&](const Expr *P) { return referencedVar(P) == V; });
          })) {
        int64_t Dim = 0;
        if (auto Why = growthObstacle(V, Call, S, Api, Ctx, Dim))
          return refuse(*Why);
        auto It = llvm::find_if(Out, [&](const Growth &G) { return G.V == V; });
        if (It == Out.end()) {
          Out.push_back(Growth{V, Dim, "", {}});
          It = std::prev(Out.end());
        } else if (It->Dim != Dim) {
          return refuse("'" + V->getNameAsString() + "' grows along two dimensions (line " + lineOf(S, Ctx) +
                        "), so no one length says how far the original grew it");
        }
        It->Assignments.push_back(S);
        continue;
      }
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  // Program order, for the names and the outputs.
  llvm::sort(Out, [&](const Growth &A, const Growth &B) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(A.Assignments.front()->getBeginLoc(),
                                                            B.Assignments.front()->getBeginLoc());
  });
  return Out;
}

bool readAfterLoop(const VarDecl *V, const Stmt *Loop, const Stmt *Body, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  return llvm::any_of(usesOf(V, Body), [&](const DeclRefExpr *Use) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loop->getEndLoc()), SM.getExpansionLoc(Use->getBeginLoc()));
  });
}

const Growth *growthOf(const VarDecl *V, llvm::ArrayRef<Growth> Growths) {
  for (const Growth &G : Growths)
    if (G.V == V)
      return &G;
  return nullptr;
}

llvm::Expected<std::optional<std::string>>
splitAfterMaskedLoop(const ForStmt *Loop, const std::string &MaskedLoop, llvm::ArrayRef<Growth> Growths,
                     llvm::ArrayRef<Accumulation> Accumulations, const std::string &TensorType,
                     const std::map<const Stmt *, std::string> &LocalDecls, const ApiModel &Api, ASTContext &Ctx,
                     std::string &Explanation) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(enclosingFunction(Loop, Ctx));
  const auto *Body = F ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body)
    return refuse("the masked loop is not in a function's body");
  llvm::SmallVector<const Stmt *, 32> Stmts(Body->body_begin(), Body->body_end());
  const auto *At = llvm::find(Stmts, Loop);
  llvm::ArrayRef<const Stmt *> All(Stmts);
  llvm::ArrayRef<const Stmt *> After = At == Stmts.end() ? All.take_back(0) : All.drop_front(At - Stmts.begin() + 1);
  // The grown tensors the code after the loop reads; also where the loop is nested deeper.
  std::vector<const Growth *> Read;
  for (const Growth &G : Growths)
    if (!G.Length.empty())
      Read.push_back(&G);
  std::vector<const Accumulation *> Sums;
  for (const Accumulation &A : Accumulations)
    if (readAfterLoop(A.V, Loop, Body, Ctx))
      Sums.push_back(&A);
  if (Read.empty() && Sums.empty())
    return std::nullopt;
  const std::string Grown = "'" + (Read.empty() ? Sums.front()->V : Read.front()->V)->getNameAsString() + "'";
  const std::string Verb = Read.empty() ? "accumulates" : "grows";
  if (At == Stmts.end())
    return refuse("the loop that " + Verb + " " + Grown + " is nested in another statement, so no capturable core "
                  "can end with it and return " + Grown + " as the original left it");
  if (F->isTemplated())
    return refuseOutOfScope("'" + F->getNameAsString() + "' is a template");
  if (auto Err = checkCoreCanStandBeside(*F))
    return std::move(Err);
  llvm::ArrayRef<const Stmt *> Core = All.take_front(At - Stmts.begin() + 1);
  if (std::string Work = firstHostWork(Core.drop_back(), Api, Ctx, /*TensorFills=*/false); !Work.empty())
    return refuse("the statements before the loop do host work (" + Work +
                  "), which a replay of the core that returns " + Grown + " would not repeat");
  std::vector<const ParmVarDecl *> AssignedParams;
  auto Outlined = outlineBlock(*F, Core, After, Ctx, &AssignedParams);
  if (!Outlined)
    return Outlined.takeError();
  llvm::sort(AssignedParams, [](const ParmVarDecl *A, const ParmVarDecl *B) {
    return A->getFunctionScopeIndex() < B->getFunctionScopeIndex();
  });
  // What crosses: the values the code after the loop reads, then the lengths of the grown ones.
  std::vector<const VarDecl *> Outputs(AssignedParams.begin(), AssignedParams.end());
  Outputs.insert(Outputs.end(), Outlined->Outputs.begin(), Outlined->Outputs.end());
  std::vector<std::string> Taken;
  for (const ParmVarDecl *P : F->parameters())
    Taken.push_back(P->getNameAsString());
  auto Interface = coreInterface(*F, *Body, *Outlined, Taken, Ctx, /*KeepDefaults=*/true);
  if (!Interface)
    return Interface.takeError();
  const std::string CoreName = coreName(*F, "_padded", Ctx);
  std::string Types, Returned;
  auto Add = [](std::string &List, const std::string &Item) { List += (List.empty() ? "" : ", ") + Item; };
  auto SumOf = [&](const VarDecl *V) -> const Accumulation * {
    auto It = llvm::find_if(Sums, [&](const Accumulation *A) { return A->V == V; });
    return It == Sums.end() ? nullptr : *It;
  };
  for (const VarDecl *V : Outputs) {
    const Accumulation *A = SumOf(V);
    Add(Types, A ? TensorType : nameableType(V->getType().getUnqualifiedType(), Ctx, F));
    Add(Returned, A ? A->Tensor : V->getNameAsString());
  }
  for (const Growth *G : Read) {
    Add(Types, nameableType(G->V->getType().getNonReferenceType().getUnqualifiedType(), Ctx, F));
    Add(Returned, G->Length);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.getFileID(SM.getExpansionLoc(Body->getLBracLoc())) != SM.getMainFileID())
    return refuse("the function is not written in the main file");
  unsigned CoreBegin, CoreEnd, Unused;
  if (!statementOffsets(Core.front(), Ctx, CoreBegin, Unused) || !statementOffsets(Core.back(), Ctx, Unused, CoreEnd))
    return refuse("the statements up to the loop come from a macro expansion");
  const unsigned BodyBegin = SM.getFileOffset(SM.getExpansionLoc(Body->getLBracLoc())) + 1;
  const unsigned BodyEnd = SM.getFileOffset(SM.getExpansionLoc(Body->getRBracLoc()));
  const unsigned FunctionBegin = SM.getFileOffset(SM.getExpansionLoc(F->getBeginLoc()));
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  std::map<const Stmt *, std::string> Replaced = Interface->FieldUses;
  Replaced.insert(LocalDecls.begin(), LocalDecls.end());
  Replaced[Loop] = MaskedLoop;
  std::string Text = "static std::tuple<" + Types + "> " + CoreName + "(" + Interface->Params + ") {\n" +
                     splicedText(CoreBegin, CoreEnd, Replaced, Ctx) + "\nreturn std::make_tuple(" + Returned +
                     ");\n}\n\n";
  Text += "/// graphify: host epilogue of '" + CoreName + "' (" +
          (Read.empty() ? "reads back what its loop summed" : "slices what its loop grew to the length the loop reached") +
          "; not a graph region)\n" +
          Buffer.slice(FunctionBegin, BodyBegin - 1).str() + "{" + Buffer.slice(BodyBegin, CoreBegin).str();
  std::vector<std::string> Names = Taken;
  for (const VarDecl *V : Outputs)
    Names.push_back(V->getNameAsString());
  const std::string Results = freshName("padded", Body, Names);
  Text += "auto " + Results + " = " + CoreName + "(" + Interface->Args + ");";
  for (size_t I = 0; I < Outputs.size(); ++I) {
    const VarDecl *V = Outputs[I];
    std::string Value = "std::get<" + std::to_string(I) + ">(" + Results + ")";
    auto Pos = llvm::find_if(Read, [&](const Growth *G) { return G->V == V; });
    const Accumulation *Sum = SumOf(V);
    if (Sum)
      Value += ".item<" + nameableType(V->getType().getNonReferenceType().getUnqualifiedType(), Ctx, F) + ">()";
    else if (Pos != Read.end())
      Value += ".narrow(" + std::to_string((*Pos)->Dim) + ", 0, std::get<" +
               std::to_string(Outputs.size() + (Pos - Read.begin())) + ">(" + Results + ").item<int64_t>())";
    else
      Value = "std::move(" + Value + ")";
    Text += "\n" + (isa<ParmVarDecl>(V) ? V->getNameAsString()
                                        : nameableType(V->getType(), Ctx, F) + " " + V->getNameAsString()) +
            " = " + Value + ";";
  }
  Text += Buffer.slice(CoreEnd, BodyEnd).str() + "}";
  std::string Kept;
  for (const Growth *G : Read)
    Kept += (Kept.empty() ? "'" : ", '") + G->V->getNameAsString() + "'";
  std::string Summed;
  for (const Accumulation *A : Sums)
    Summed += (Summed.empty() ? "'" : ", '") + A->V->getNameAsString() + "'";
  Explanation = "the loop runs to its static bound with the updates of the iterations after the original would have "
                "stopped masked" +
                (Kept.empty() ? std::string() : "; " + Kept + ", which it grows, keeps growing with the length the original reached") +
                (Summed.empty() ? std::string()
                                : "; " + Summed + ", which it sums into, " +
                                      (Sums.size() == 1 ? "becomes a 0-d tensor" : "become 0-d tensors")) +
                "; the function is split after the loop: a capturable core '" + CoreName + "' returns them, and the "
                "function, now a host epilogue, " +
                (Kept.empty() ? "reads the sums back" : Summed.empty() ? "slices what grew to its length"
                                                                       : "slices what grew to its length, reads the sums back") +
                " and runs the code after the loop";
  return Text;
}

} // namespace graphify::rewriter
