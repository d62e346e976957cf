#include "PaddedSplitPlan.h"
#include "PaddedSplitShapes.h"
#include "ExprUtil.h"
#include "HostRead.h"
#include "HostWork.h"
#include "IfChain.h"
#include "Outlining.h"
#include "PaddedSelection.h"
#include "Predication.h"
#include "RuleSupport.h"
#include "Safety.h"
#include "SettledParameters.h"

#include "graphify/analyzer/HostOrigin.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include <map>
#include <optional>
#include <set>

using namespace clang;
using namespace clang::transformer;

namespace graphify::rewriter::padded_split {

namespace {

/// `torch::Tensor pred` for the parameter `torch::Tensor &pred`: its type as written without
/// the reference (as Clang names it when the spelling is not at hand).
std::string byValueDeclText(const ParmVarDecl &Param, const ASTContext &Ctx, const FunctionDecl &F) {
  std::string Type;
  if (const TypeSourceInfo *TSI = Param.getTypeSourceInfo())
    if (auto Ref = TSI->getTypeLoc().getAs<ReferenceTypeLoc>()) {
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Ref.getPointeeLoc().getSourceRange()),
                                                   SM, Ctx.getLangOpts());
      if (R.isValid())
        Type = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
    }
  if (Type.empty())
    Type = nameableType(Param.getType().getNonReferenceType(), Ctx, &F);
  return Type + " " + Param.getNameAsString();
}

/// The spelling of the function's return type as written (`torch::Tensor`).
std::string returnTypeText(const FunctionDecl &F, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(F.getReturnTypeSourceRange()), SM,
                                               Ctx.getLangOpts());
  std::string Text = R.isValid() ? Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str() : "";
  return Text.empty() ? F.getReturnType().getAsString() : Text;
}

/// The spelling of the tensor type the function returns: its return type, or the first element
/// type of a returned tuple, pair or vector as written (`torch::Tensor`), else as Clang prints it.
std::string tensorTypeText(const FunctionDecl &F, bool Aggregate, const ASTContext &Ctx) {
  if (!Aggregate)
    return returnTypeText(F, Ctx);
  TypeLoc Loc = F.getFunctionTypeLoc() ? F.getFunctionTypeLoc().getReturnLoc() : TypeLoc();
  if (auto Elaborated = Loc.getAs<ElaboratedTypeLoc>())
    Loc = Elaborated.getNamedTypeLoc();
  if (auto Spec = Loc.getAs<TemplateSpecializationTypeLoc>(); Spec && Spec.getNumArgs() > 0) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Spec.getArgLoc(0).getSourceRange()),
                                                 SM, Ctx.getLangOpts());
    if (R.isValid())
      return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  }
  const auto *RD = cast<ClassTemplateSpecializationDecl>(F.getReturnType()->getAsCXXRecordDecl());
  const TemplateArgument &First = RD->getTemplateArgs()[0];
  QualType Element = First.getKind() == TemplateArgument::Pack ? First.pack_begin()->getAsType() : First.getAsType();
  return Element.getAsString(Ctx.getPrintingPolicy());
}

/// `Text` with every `this->` (spaces allowed around the arrow) removed.
std::string withoutThisArrows(std::string Text) {
  auto IsIdentifier = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t At = Text.find("this"); At != std::string::npos; At = Text.find("this", At + 1)) {
    if (At > 0 && IsIdentifier(Text[At - 1]))
      continue;
    size_t End = At + 4;
    while (End < Text.size() && llvm::isSpace(Text[End]))
      ++End;
    if (Text.compare(End, 2, "->") != 0)
      continue;
    End += 2;
    while (End < Text.size() && llvm::isSpace(Text[End]))
      ++End;
    Text.erase(At, End - At);
  }
  return Text;
}

} // namespace

llvm::Expected<std::string> render(const Plan &P, std::vector<std::string> &Taken, ASTContext &Ctx) {
  const FunctionDecl &F = *P.Function;
  const Stmt *Body = F.getBody();
  // The core's outputs: the returned values, then the values the guards test, then those the
  // host tail reads, then what the loop collects per iteration.
  std::vector<Output> Outputs = P.Returned;
  Outputs.insert(Outputs.end(), P.Kept.begin(), P.Kept.end());
  for (const auto &[V, O] : P.TailReads)
    Outputs.push_back(O);
  const size_t LoopBase = Outputs.size();
  size_t FirstEach = LoopBase;
  if (P.Loop) {
    Outputs.insert(Outputs.end(), P.Loop->Outputs.begin(), P.Loop->Outputs.end());
    while (!Outputs[FirstEach].Each)
      ++FirstEach;
  }
  std::string T;
  if (P.Loop)
    T = P.Loop->Type;
  else if (!P.TailBegin)
    T = tensorTypeText(F, P.ReturnsAggregate, Ctx);
  else if (!P.TailReads.empty())
    T = nameableType(P.TailReads.front().first->getType(), Ctx, &F);
  if (T.empty())
    return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads no tensor the core computes");
  std::string CoreName = F.getNameAsString() + "_padded";
  for (int N = 2; Ctx.Idents.find(CoreName) != Ctx.Idents.end(); ++N)
    CoreName = F.getNameAsString() + "_padded" + std::to_string(N);
  for (const ParmVarDecl *Param : F.parameters())
    Taken.push_back(Param->getNameAsString());

  // The core returns the values, then one count per group they use (a vector of them, one per
  // iteration, for a group the loop's iterations select).
  auto EachCount = [&](const std::string &Count) -> const std::string * {
    if (!P.Loop)
      return nullptr;
    auto It = P.Loop->EachCounts.find(Count);
    return It == P.Loop->EachCounts.end() ? nullptr : &It->second;
  };
  std::vector<std::string> Counts;
  for (const Output &O : Outputs)
    if (!O.Count.empty() && !llvm::is_contained(Counts, O.Count))
      Counts.push_back(O.Count);
  std::vector<const Guard *> AllGuards;
  for (const Guard &G : P.Guards)
    AllGuards.push_back(&G);
  if (P.Loop)
    for (const Guard &G : P.Loop->Guards)
      AllGuards.push_back(&G);
  for (const Guard *G : AllGuards)
    for (const auto &[D, Count] : G->CountReads)
      if (!llvm::is_contained(Counts, Count))
        Counts.push_back(Count);
  const std::string Vector = "std::vector<" + T + ">";
  std::string Types, Returned, Params, Args;
  for (const Output &O : Outputs) {
    Returned += (Returned.empty() ? "" : ", ") + O.Text;
    Types += (Types.empty() ? "" : ", ") + (O.Each ? Vector : T);
  }
  for (const std::string &C : Counts) {
    Returned += ", " + (EachCount(C) ? *EachCount(C) : C);
    Types += ", " + (EachCount(C) ? Vector : T);
  }
  for (const ParmVarDecl *Param : F.parameters()) {
    Params += (Params.empty() ? "" : ", ") +
              (P.ByValueInCore.count(Param) ? byValueDeclText(*Param, Ctx, F) : declText(*Param, Ctx));
    Args += (Args.empty() ? "" : ", ") + Param->getNameAsString();
  }
  // A method's fields reach the core by reference under their own names (outlineMethodBody
  // refuses a body that declares one of them), so the core's text names them as the body does;
  // `this->` goes, every use of `this` being a field's.
  const bool ConstFields = isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F).isConst();
  for (const FieldDecl *Field : P.Fields) {
    Params += (Params.empty() ? "" : ", ") + std::string(ConstFields && !Field->isMutable() ? "const " : "") +
              nameableType(Field->getType(), Ctx, &F) + " &" + Field->getNameAsString();
    Args += (Args.empty() ? "" : ", ") + std::string("this->") + Field->getNameAsString();
  }
  std::string Core = "static std::tuple<" + Types + "> " + CoreName + "(" + Params + ") {\n" + P.Core +
                     "return std::make_tuple(" + Returned + ");\n}\n\n";
  if (isa<CXXMethodDecl>(F))
    Core = withoutThisArrows(Core);

  // The epilogue: read each count once (per iteration for the loop's), slice each output, take
  // the early returns in order.
  const std::string Padded = freshName("padded", Body, Taken);
  std::string Epilogue = "auto " + Padded + " = " + CoreName + "(" + Args + ");\n";
  for (const Stmt *S : P.RepeatedAssignments)
    Epilogue += statementText(S, Ctx) + "\n";
  for (const ForStmt *For : P.Prefills)
    if (P.PrefillsAfterCore.count(For))
      Epilogue += statementText(For, Ctx) + "\n";
  const std::string Iteration = P.Loop ? freshName("iteration", Body, Taken) : "";
  std::map<std::string, std::string> Rows;
  std::string EachRows;
  for (size_t I = 0; I < Counts.size(); ++I) {
    Rows[Counts[I]] = freshName("rows", Body, Taken);
    const std::string Get = "std::get<" + std::to_string(Outputs.size() + I) + ">(" + Padded + ")";
    (EachCount(Counts[I]) ? EachRows : Epilogue) += "const int64_t " + Rows[Counts[I]] + " = " + Get +
                                                    (EachCount(Counts[I]) ? "[" + Iteration + "]" : "") +
                                                    ".item<int64_t>();\n";
  }
  auto Sliced = [&](unsigned I) {
    const Output &O = Outputs[I];
    std::string Get = "std::get<" + std::to_string(I) + ">(" + Padded + ")" + (O.Each ? "[" + Iteration + "]" : "");
    return O.Count.empty() ? Get : Get + ".narrow(0, 0, " + Rows[O.Count] + ")";
  };
  auto Tested = [&](const Guard &G, unsigned Base) {
    std::map<const Stmt *, std::string> Replaced;
    llvm::SmallVector<const Stmt *, 16> Work{G.Cond};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S)) {
        if (auto It = G.Reads.find(DR->getDecl()); It != G.Reads.end())
          Replaced[DR] = Sliced(Base + It->second);
        if (auto It = G.CountReads.find(DR->getDecl()); It != G.CountReads.end())
          Replaced[DR] = Rows[It->second];
      }
      if (S)
        for (const Stmt *C : S->children())
          Work.push_back(C);
    }
    return textWithReplacements(G.Cond, Replaced, Ctx);
  };
  for (const Guard &G : P.Guards)
    Epilogue += "if (" + Tested(G, P.Returned.size()) + ")\n  return " + sourceText(G.Value, Ctx) + ";\n";
  if (P.TailBegin || P.Loop) {
    for (unsigned I = 0; I < P.TailReads.size(); ++I)
      Epilogue += std::string(isa<ParmVarDecl>(P.TailReads[I].first) ? "" : "auto ") +
                  P.TailReads[I].first->getNameAsString() + " = " +
                  Sliced(P.Returned.size() + P.Kept.size() + I) + ";\n";
    if (P.Loop) {
      const LoopPlan &L = *P.Loop;
      for (const auto &[V, I] : L.TailReads)
        if (!Outputs[LoopBase + I].Each)
          Epilogue += "auto " + V->getNameAsString() + " = " + Sliced(LoopBase + I) + ";\n";
      // One iteration per element of what the core collected — under the original's header when
      // the host part reads the counter — in the original's order of guards and pushes, then the
      // host part on the iteration's sliced values.
      if (L.ReadsCounter)
        Epilogue += "size_t " + Iteration + " = 0;\n" +
                    textBetween(L.For->getBeginLoc(), L.For->getRParenLoc(), Ctx) + ", ++" + Iteration + ") {\n";
      else
        Epilogue += "for (size_t " + Iteration + " = 0; " + Iteration + " < std::get<" + std::to_string(FirstEach) +
                    ">(" + Padded + ").size(); ++" + Iteration + ") {\n";
      Epilogue += EachRows;
      for (const LoopStep &Step : L.Steps)
        Epilogue += Step.Guard >= 0      ? "if (" + Tested(L.Guards[Step.Guard], LoopBase) + ")\n  continue;\n"
                    : !Step.Slot.empty() ? Step.Slot + " = " + Sliced(LoopBase + Step.Value) + ";\n"
                                         : Step.Into->getNameAsString() + "." + Step.Method + "(" +
                                               Sliced(LoopBase + Step.Value) + ");\n";
      if (L.TailBegin) {
        for (const auto &[V, I] : L.TailReads)
          if (Outputs[LoopBase + I].Each)
            Epilogue += "auto " + V->getNameAsString() + " = " + Sliced(LoopBase + I) + ";\n";
        Epilogue += textBetween(L.TailBegin->getBeginLoc(), cast<CompoundStmt>(L.For->getBody())->getRBracLoc(), Ctx);
      }
      Epilogue += "}\n";
    }
    if (P.TailBegin)
      Epilogue += textBetween(P.TailBegin->getBeginLoc(), cast<CompoundStmt>(Body)->getRBracLoc(), Ctx);
  } else if (P.ReturnsAggregate) {
    std::string Values;
    for (unsigned I = 0; I < P.Returned.size(); ++I)
      Values += (I ? ", " : "") + Sliced(I);
    Epilogue += "return {" + Values + "};\n";
  } else {
    Epilogue += "return " + Sliced(0) + ";\n";
  }
  std::string Leading;
  for (const DeclStmt *DS : P.HostDecls)
    Leading += sourceText(DS, Ctx) + "\n";
  for (const ForStmt *For : P.Prefills)
    if (!P.PrefillsAfterCore.count(For))
      Leading += statementText(For, Ctx) + "\n";
  for (const std::string &L : P.LeadingGuards)
    Leading += L + "\n";
  std::string Signature = textBetween(F.getBeginLoc(), Body->getBeginLoc(), Ctx);
  if (Signature.empty())
    return refuse("the function's signature is produced by a macro expansion");
  std::string Doc;
  if (P.Loop) {
    std::string Host;
    if (P.Loop->TailBegin)
      Host = "from line " + lineOf(P.Loop->TailBegin, Ctx) + " in the loop";
    if (P.TailBegin)
      Host += (Host.empty() ? "from line " : ", from line ") + lineOf(P.TailBegin, Ctx) + " after it";
    Doc = "' (reads the counts and slices the padded outputs of each iteration of the loop at line " +
          lineOf(P.Loop->For, Ctx) + ", then runs the original's host code (" + Host + ") on them; not a graph "
          "region)\n";
  } else {
    Doc = P.TailBegin ? "' (reads the counts, slices the padded outputs and runs the host part, from "
                                    "line " + lineOf(P.TailBegin, Ctx) + ", on them; not a graph region)\n"
                                  : "' (reads the counts and slices the padded outputs; not a graph region)\n";
  }
  return Core + "/// graphify: host epilogue of '" + CoreName + Doc + Signature + "{\n" + Leading + Epilogue + "}";
}

} // namespace graphify::rewriter::padded_split
