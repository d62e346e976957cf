#include "PaddedSplitPlanner.h"
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

llvm::Error Planner::statement(const Stmt *S, Plan &P) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (const auto *DD = DS->isSingleDecl() ? dyn_cast<DecompositionDecl>(DS->getSingleDecl()) : nullptr;
        DD && DD->getInit())
      return bindings(DS, DD, P);
    if (!DS->isSingleDecl())
      return declarations(DS, P);
    if (!isa<VarDecl>(DS->getSingleDecl()) || isa<DecompositionDecl>(DS->getSingleDecl()))
      return refuse("the declaration at line " + lineOf(S, Ctx) + " declares something other than a variable");
    const auto *V = cast<VarDecl>(DS->getSingleDecl());
    if (!V->getInit())
      return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") has no initialiser");
    return value(S, V, V->getInit(), P);
  }
  const Expr *Value = nullptr;
  if (const VarDecl *V = assignedLocal(S, Value); V && Api.isTensor(V->getType()))
    return value(S, V, Value, P);
  if (const auto *OC = isa<Expr>(S) ? dyn_cast<CXXOperatorCallExpr>(stripAll(cast<Expr>(S))) : nullptr;
      OC && isColumnWrite(OC))
    return write(OC, P);
  std::string Kind = isa<Expr>(S) ? "'" + sourceText(S, Ctx) + "'" : std::string(S->getStmtClassName());
  if (const auto *For = dyn_cast<ForStmt>(S); For)
    Kind = "the loop";
  else if (isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
    Kind = "the loop";
  else if (const auto *If = dyn_cast<IfStmt>(S)) {
    Kind = "the if";
    // `if (c) break;` and `if (c) return v;` in a loop: name the jump, which is what is not taken.
    auto Then = bodyStatements(If->getThen());
    if (InLoop && !If->getElse() && Then.size() == 1 && (isa<BreakStmt>(Then[0]) || isa<ReturnStmt>(Then[0]))) {
      S = Then[0];
      Kind = isa<BreakStmt>(S) ? "the 'break'" : "the return";
    }
  } else if (isa<BreakStmt>(S))
    Kind = "the 'break'";
  else if (isa<ContinueStmt>(S))
    Kind = "the 'continue'";
  else if (isa<ReturnStmt>(S))
    Kind = "the return";
  if (InLoop) // the loop is a shape the split covers: say what in it is not
    return refuse("the padded form covers loops whose body is straight-line code (locals, assignments, "
                  "'continue' tested on selections, pushes into vectors of tensors); " + Kind + " at line " +
                  lineOf(S, Ctx) + " is not");
  return refuseOutOfScope(
      "the padded form covers straight-line code (locals, assignments, returns tested on selections); " + Kind +
      " at line " + lineOf(S, Ctx) + " is not");
}

bool Planner::isColumnWrite(const CXXOperatorCallExpr *OC) const {
  const OverloadedOperatorKind Op = OC->getOperator();
  return OC->getNumArgs() == 2 && returnsTensorByValue(OC->getArg(0)) &&
         (Op == OO_Equal || Op == OO_PlusEqual || Op == OO_MinusEqual || Op == OO_StarEqual || Op == OO_SlashEqual);
}

const VarDecl *Planner::viewedVariable(const Expr *E, const ApiModel &Api) {
  E = stripAll(E);
  while (isa<CallExpr>(E) && callObject(E) && Api.callHasTag(E, "shares_storage") &&
         !Api.callHasTag(E, "device_transfer"))
    E = stripAll(callObject(E));
  return referencedVar(E);
}

llvm::Error Planner::write(const CXXOperatorCallExpr *OC, Plan &P) {
  const std::string Line = lineOf(OC, Ctx);
  const Expr *Target = OC->getArg(0), *Source = OC->getArg(1);
  const VarDecl *V = viewedVariable(Target, Api);
  const int Group = V ? Lifter.groupOf(V) : -1;
  if (Group < 0)
    return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes into a tensor that is not the rows of a "
                  "value-dependent selection: the padded form writes only through views of such rows");
  if (InLoop && V->getBeginLoc() < InLoop->getBody()->getBeginLoc())
    return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes into '" + V->getNameAsString() +
                  "', declared before the loop at line " + lineOf(InLoop, Ctx) + ", which the core would write in "
                  "iterations the original skips");
  if (Lifter.isDerived(Group))
    return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes into '" + V->getNameAsString() +
                  "' after a cap on its rows: the original writes through a view of the first rows, the padded "
                  "form would write every row");
  if (auto Why = sideEffect(Source))
    return refuse("the value written at line " + Line + " " + *Why);
  if (auto Why = sideEffect(Target))
    return refuse("the view written at line " + Line + " " + *Why);
  std::string Prelude;
  auto Into = Lifter.lift(Target, "", Prelude);
  if (!Into)
    return Into.takeError();
  if (Into->Group != Group)
    return refuse("'" + sourceText(Target, Ctx) + "' (line " + Line + ") is not a view that keeps every row of '" +
                  V->getNameAsString() + "'");
  std::map<const Stmt *, std::string> Replaced{{stripAll(Target), Into->Text}};
  if (Api.isTensorExpr(Source)) {
    auto From = Lifter.lift(Source, "", Prelude);
    if (!From)
      return From.takeError();
    if (From->Group >= 0 && From->Group != Group)
      return refuse("'" + sourceText(OC, Ctx) + "' (line " + Line + ") writes the rows of one selection into "
                    "those of another, which do not line up once padded");
    if (From->Group < 0 && !isProvablySingleElement(Source, Body, Api))
      return refuse("cannot prove that '" + sourceText(Source, Ctx) + "' (line " + Line + ") lines up with the "
                    "rows of '" + sourceText(Target, Ctx) + "' (write one element, or a value computed from "
                    "them)");
    Replaced[stripAll(Source)] = From->Text;
  } else if (Lifter.touchesPadded(Source)) {
    return refuse("'" + sourceText(Source, Ctx) + "' (line " + Line + ") is a host value computed from a "
                  "value-dependent selection");
  }
  P.Core += Prelude + textWithReplacements(OC, Replaced, Ctx) + ";\n";
  Lifter.forget(V);
  return llvm::Error::success();
}

llvm::Error Planner::declarations(const DeclStmt *DS, Plan &P) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || isa<DecompositionDecl>(V) || !V->getInit() || V->getType()->isReferenceType())
      return refuse("the declaration at line " + lineOf(DS, Ctx) + " declares several names, one of them without "
                    "a value of its own (declare it on its own line)");
  }
  for (const Decl *D : DS->decls()) {
    const auto *V = cast<VarDecl>(D);
    const bool Deduced = V->getTypeSourceInfo() && V->getTypeSourceInfo()->getType()->getContainedAutoType();
    const std::string Type = Deduced ? "auto" : nameableType(V->getType(), Ctx, &F);
    if (Type.empty())
      return refuse("the type of '" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) + ") cannot be written "
                    "on a declaration of its own");
    if (!Api.isTensor(V->getType()) && Lifter.touchesPadded(V->getInit()))
      return refuse("'" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) + ") is a host value computed from a "
                    "value-dependent selection");
    if (auto Why = sideEffect(V->getInit()))
      return refuse("the value of '" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) + ") " + *Why);
    std::string Prelude;
    auto Lifted = Lifter.lift(V->getInit(), V->getName(), Prelude);
    if (!Lifted)
      return Lifted.takeError();
    P.Core += Prelude + Type + " " + V->getNameAsString() + " = " + Lifted->Text + ";\n";
    Lifter.setGroup(V, Lifted->Group);
    Lifter.forget(V);
  }
  return llvm::Error::success();
}

llvm::Error Planner::bindings(const DeclStmt *S, const DecompositionDecl *DD, Plan &P) {
  const Expr *Init = DD->getInit();
  if (auto Why = sideEffect(Init))
    return refuse("the value of the bindings at line " + lineOf(S, Ctx) + " " + *Why);
  if (!isTensorAggregate(DD->getType(), Api)) {
    if (Lifter.touchesPadded(Init))
      return refuse("the bindings at line " + lineOf(S, Ctx) + " are host values computed from a value-dependent "
                    "selection");
    P.Core += sourceText(S, Ctx) + "\n";
    return llvm::Error::success();
  }
  std::string Prelude;
  auto Lifted = Lifter.lift(Init, "", Prelude);
  if (!Lifted)
    return Lifted.takeError();
  std::map<const Stmt *, std::string> Replaced{{stripAll(Init), Lifted->Text}};
  P.Core += Prelude + textWithReplacements(S, Replaced, Ctx) + "\n";
  for (const BindingDecl *B : DD->bindings()) {
    Lifter.setGroup(B, Lifted->Group);
    Lifter.forget(B);
  }
  return llvm::Error::success();
}

llvm::Error Planner::value(const Stmt *S, const VarDecl *V, const Expr *Init, Plan &P) {
  if (InLoop && !isa<DeclStmt>(S))
    if (const Stmt *LoopBody = InLoop->getBody();
        V->getBeginLoc() < LoopBody->getBeginLoc() || LoopBody->getEndLoc() < V->getBeginLoc())
      return refuse("'" + V->getNameAsString() + "' is assigned in the loop at line " + lineOf(InLoop, Ctx) +
                    " (line " + lineOf(S, Ctx) + ") and carries a value from one iteration to the next");
  // A tuple a call returns (`std::tuple<Tensor, Tensor> t = torch::max(kept, 1);`) holds the
  // rows of the call, which the lifting checks; a vector gathers tensors before the return.
  // So does a vector of parts split along another dimension (`x.split({4, nc}, 1)`, tag
  // along_dims), each part holding every row.
  const bool CallTuple = isTensorAggregate(V->getType(), Api) &&
                         (vectorElementType(V->getType()).isNull() || Api.callHasTag(stripAll(Init), "along_dims")) &&
                         isa<CallExpr>(stripAll(Init)) && !Api.entriesFor(stripAll(Init)).empty() &&
                         isa<DeclStmt>(S);
  if (isTensorAggregate(V->getType(), Api) && !CallTuple && Lifter.touchesPadded(Init))
    return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") gathers tensors of a value-dependent "
                  "selection before the return; the split takes apart only a tuple, pair or vector built in the "
                  "return (return {a, b} or std::make_tuple(a, b))");
  if (auto Why = sideEffect(Init))
    return refuse("the value of '" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") " + *Why);
  if (auto Capped = prefixOfSelection(S, V, Init, P))
    return std::move(*Capped);
  // `int n = kept.size(0);`: the count, read by the guards in the epilogue.
  if (const ValueDecl *Rows = rowCountOf(Init);
      Rows && isa<DeclStmt>(S) && V->getType()->isIntegerType() && !isReassigned(V, Body)) {
    CountAliases[V] = Lifter.groupOf(Rows);
    return llvm::Error::success();
  }
  if (!Api.isTensor(V->getType()) && !CallTuple) {
    if (Lifter.touchesPadded(Init))
      return refuse("'" + V->getNameAsString() + "' (line " + lineOf(S, Ctx) + ") is a host value computed from a "
                    "value-dependent selection");
    P.Core += sourceText(S, Ctx) + (isa<Expr>(S) ? ";\n" : "\n");
    return llvm::Error::success();
  }
  std::string Prelude;
  auto Lifted = Lifter.lift(Init, V->getName(), Prelude);
  if (!Lifted)
    return Lifted.takeError();
  std::map<const Stmt *, std::string> Replaced{{stripAll(Init), Lifted->Text}};
  P.Core += Prelude + textWithReplacements(S, Replaced, Ctx) + (isa<Expr>(S) ? ";\n" : "\n");
  Lifter.setGroup(V, Lifted->Group);
  Lifter.forget(V);
  return llvm::Error::success();
}

} // namespace graphify::rewriter::padded_split
