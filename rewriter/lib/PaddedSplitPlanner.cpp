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

std::optional<std::string> Planner::sideEffect(const Expr *E) const {
  const Expr *Stripped = stripAll(E);
  if (isReplaced(Stripped)) {
    // nms(boxes, scores, t): its arguments; m.nonzero().select(1, 0): the mask m.
    const Expr *Call = Api.callHasTag(Stripped, "greedy_suppression") ? Stripped : stripAll(callObject(Stripped));
    for (const Expr *Operand : callOperands(Call))
      if (auto Why = sideEffect(Operand))
        return Why;
    return std::nullopt;
  }
  if (Lifter.isPaddedGather(Stripped)) {
    for (const Expr *Operand : callOperands(Stripped))
      if (auto Why = sideEffect(Operand))
        return Why;
    return std::nullopt;
  }
  if (!containsReplaced(Stripped))
    return findSideEffect(E, Api, false, Ran);
  if (isa<CallExpr>(Stripped) && (Api.callHasTag(Stripped, "pure") || Api.callHasTag(Stripped, "gathers_rows") ||
                                  Api.callHasTag(Stripped, "bool_mask_index"))) {
    for (const Expr *Operand : callOperands(Stripped))
      if (auto Why = sideEffect(Operand))
        return Why;
    return std::nullopt;
  }
  return "calls '" + calleeName(firstReplaced(Stripped)) + "' inside an expression the padded form cannot "
         "take apart (give its result a name: auto keep = " + calleeName(firstReplaced(Stripped)) + "(...);)";
}

const Expr *Planner::firstReplaced(const Expr *E) const {
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *Sub = dyn_cast_or_null<Expr>(S); Sub && isReplaced(Sub))
      return Sub;
    if (S)
      for (const Stmt *C : S->children())
        Work.push_back(C);
  }
  return nullptr;
}

bool Planner::isReplaced(const Expr *E) const {
  return isa<CallExpr>(E) && isPaddableSelection(E, Api) && !Api.callHasTag(E, "bool_mask_index");
}

llvm::Expected<Plan> Planner::plan() {
  if (auto Err = checkSignature())
    return std::move(Err);
  const auto *Block = cast<CompoundStmt>(Body);
  Plan P;
  P.Function = &F;
  // The core may take any field as a parameter of its name: no local it declares may have one.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&F))
    for (const std::string &Name : fieldNames(MD->getParent()))
      Taken.push_back(Name);
  P.ReturnsAggregate = !Api.isTensor(F.getReturnType());
  bool Started = false;
  // Every statement so far is a host declaration the epilogue may run as well.
  bool OnlyHostDeclsSoFar = true;
  for (auto It = Block->body_begin(); It != Block->body_end(); ++It) {
    const Stmt *S = *It;
    const bool Last = It + 1 == Block->body_end();
    OnlyHostDeclsSoFar &= It == Block->body_begin() || (!P.HostDecls.empty() && P.HostDecls.back() == *(It - 1));
    if (const auto *If = dyn_cast<IfStmt>(S); If && guardReturn(If)) {
      if (auto Err = guard(If, Started, P))
        return std::move(Err);
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S);
        DS && (isIdleHostDecl(DS) || (OnlyHostDeclsSoFar && readsOnlyParameterSizes(DS, P)))) {
      P.HostDecls.push_back(DS);
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && isCollectedVector(DS, It + 1, Block->body_end())) {
      P.HostDecls.push_back(DS);
      P.Collected.insert(cast<VarDecl>(DS->getSingleDecl()));
      continue;
    }
    if (const auto *For = dyn_cast<ForStmt>(S); For && !P.Loop && !firstSelection(For) && pushesIntoCollected(For, P)) {
      auto AfterCore =
          prefill(For, llvm::ArrayRef(Block->body_begin(), It), llvm::ArrayRef(It + 1, Block->body_end()), P);
      if (!AfterCore)
        return refuse("the loop at line " + lineOf(For, Ctx) + " fills a vector before the selection with values "
                      "the epilogue cannot compute: it " + llvm::toString(AfterCore.takeError()));
      P.Prefills.push_back(For);
      if (*AfterCore)
        P.PrefillsAfterCore.insert(For);
      continue;
    }
    Started = true;
    llvm::Error Err = llvm::Error::success();
    if (const auto *For = dyn_cast<ForStmt>(S);
        For && !P.Loop && (pushesIntoCollected(For, P) || firstSelection(For))) {
      if (auto LoopErr = loop(For, P))
        return std::move(LoopErr);
      // What follows reads what the loop collected, which the epilogue does: it is the host tail.
      // A function that returns nothing may end with a loop whose host part does the work.
      if (Last && (!P.Loop->TailBegin || !F.getReturnType()->isVoidType()))
        return refuse("nothing after the loop at line " + lineOf(For, Ctx) + " reads what it collects");
      if (Last)
        break;
      if (auto TailErr = hostTail(It + 1, Block->body_end(), P))
        return std::move(TailErr);
      break;
    }
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (!Last || !R->getRetValue())
        Err = refuseOutOfScope("the return at line " + lineOf(S, Ctx) + " is not the last statement");
      else
        Err = finalReturn(R, P);
    } else if (const auto *If = dyn_cast<IfStmt>(S); If && isCap(If)) {
      Err = cap(If, P);
    } else {
      Err = statement(S, P);
    }
    if (!Err)
      continue;
    // Before the first selection and any early return, the core runs what it does not take as
    // written: it runs there once, in the original's order, as in the original.
    if (isVerbatimPrefix(S, P)) {
      llvm::consumeError(std::move(Err));
      P.Core += statementText(S, Ctx) + "\n";
      continue;
    }
    // What the padded form does not take may start a host tail: the epilogue runs it on the
    // sliced values.
    if (Lifter.groupCount() == 0 || !startsHostTail(It, Block->body_end(), P))
      return std::move(Err);
    llvm::consumeError(std::move(Err));
    if (auto TailErr = hostTail(It, Block->body_end(), P))
      return std::move(TailErr);
    break;
  }
  if (auto Err = checkCountAliases())
    return std::move(Err);
  if (auto Err = checkCoreStaysOnDevice(P))
    return std::move(Err);
  if (!P.TailBegin && !P.Loop)
    if (auto Err = checkReturnType())
      return std::move(Err);
  if (auto Err = referenceParameters(P))
    return std::move(Err);
  if (auto Err = placeHostDecls(P))
    return std::move(Err);
  if (P.Returned.empty() && !P.TailBegin && !P.Loop)
    return refuseOutOfScope("the function does not end with a return of a tensor");
  if (Lifter.groupCount() == 0)
    return refuseOutOfScope("no value-dependent selection reaches a return");
  if (isa<CXXMethodDecl>(F)) {
    auto Outlined = outlineMethodBody(F, Ctx, stayInMethod(P));
    if (!Outlined)
      return Outlined.takeError();
    P.Fields = Outlined->Fields;
  }
  return P;
}

bool Planner::isVerbatimPrefix(const Stmt *S, const Plan &P) const {
  if (Lifter.groupCount() > 0 || !P.Guards.empty() || InLoop || readsOnHost(S) ||
      findExpr(S, [&](const Expr *E) { return Lifter.isSelection(E); }))
    return false;
  llvm::SmallVector<const Stmt *, 16> Work{S};
  while (!Work.empty()) {
    const Stmt *T = Work.pop_back_val();
    if (!T || isa<LambdaExpr>(T))
      continue;
    if (isa<ReturnStmt>(T) || isa<GotoStmt>(T) || isa<CoreturnStmt>(T))
      return false;
    for (const Stmt *C : T->children())
      Work.push_back(C);
  }
  return true;
}

std::set<const Stmt *> Planner::stayInMethod(const Plan &P) const {
  std::set<const Stmt *> Stay(P.HostDecls.begin(), P.HostDecls.end());
  Stay.insert(P.Prefills.begin(), P.Prefills.end());
  bool InTail = false;
  for (const Stmt *S : cast<CompoundStmt>(Body)->body()) {
    InTail |= S == P.TailBegin;
    const auto *If = dyn_cast<IfStmt>(S);
    if (InTail || (If && guardReturn(If)))
      Stay.insert(S);
  }
  if (!P.Loop)
    return Stay;
  bool InLoopTail = false;
  for (const Stmt *S : cast<CompoundStmt>(P.Loop->For->getBody())->body()) {
    InLoopTail |= S == P.Loop->TailBegin;
    const auto *If = dyn_cast<IfStmt>(S);
    if (InLoopTail || (If && isContinueGuard(If)))
      Stay.insert(S);
  }
  return Stay;
}

llvm::Error Planner::checkCountAliases() const {
  for (const auto &[D, Group] : CountAliases)
    for (const DeclRefExpr *Use : usesOf(cast<VarDecl>(D), Body))
      if (llvm::none_of(GuardConds, [&](const Expr *Cond) {
            return !(Use->getBeginLoc() < Cond->getBeginLoc()) && !(Cond->getEndLoc() < Use->getEndLoc());
          }))
        return refuse("'" + D->getNameAsString() + "' holds the row count of a value-dependent selection, which "
                      "the padded form reads only in the test of a return or a 'continue'; line " +
                      lineOf(Use, Ctx) + " reads it otherwise");
  return llvm::Error::success();
}

llvm::Error Planner::checkCoreStaysOnDevice(const Plan &P) const {
  const std::set<const Stmt *> Stay = stayInMethod(P);
  llvm::SmallVector<const Stmt *, 16> Core;
  for (const Stmt *S : cast<CompoundStmt>(Body)->body())
    if (P.Loop && S == P.Loop->For)
      llvm::append_range(Core, cast<CompoundStmt>(P.Loop->For->getBody())->body());
    else
      Core.push_back(S);
  for (const Stmt *S : Core) {
    if (Stay.count(S))
      continue;
    const Expr *Copy = findExpr(S, [&](const Expr *E) {
      auto Call = Api.resolver().resolve(E);
      return Call && Call->hasTag("device_transfer") && copiesToHost(*Call);
    });
    if (Copy)
      return refuse("the core would still copy a tensor to the host ('" + sourceText(Copy, Ctx) + "', line " +
                    lineOf(Copy, Ctx) + "), which waits for the device and which no capture holds: keep the "
                    "tensor on the device (drop the copy, the selections then run there padded), or run the "
                    "function after the replay");
  }
  return llvm::Error::success();
}

llvm::Error Planner::checkSignature() {
  if (auto Err = checkCoreCanStandBeside(F))
    return Err;
  if (F.isTemplated())
    return refuseOutOfScope("'" + F.getNameAsString() + "' is a template");
  for (const ParmVarDecl *P : F.parameters())
    if (P->getName().empty())
      return refuse("a parameter of '" + F.getNameAsString() + "' has no name, so the epilogue cannot pass it on");
  return llvm::Error::success();
}

llvm::Error Planner::referenceParameters(Plan &P) {
  for (const ParmVarDecl *Param : F.parameters()) {
    const QualType T = Param->getType();
    if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified() || !Api.isTensor(T) ||
        !isReassigned(Param, Body))
      continue;
    for (const Stmt *S : cast<CompoundStmt>(Body)->body()) {
      if (!isReassigned(Param, S))
        continue;
      if (!isViewOfItself(S, Param, P))
        return refuse("the core would assign the reference parameter '" + Param->getNameAsString() + "' (line " +
                      lineOf(S, Ctx) + "), which a replay of the captured core does not do: the epilogue repeats "
                      "only top-level assignments of views of it (" + Param->getNameAsString() + " = " +
                      Param->getNameAsString() + ".transpose(1, 2);)");
      P.RepeatedAssignments.push_back(S);
    }
    P.ByValueInCore.insert(Param);
  }
  return llvm::Error::success();
}

bool Planner::isViewOfItself(const Stmt *S, const ParmVarDecl *Param, const Plan &P) const {
  const auto *OC = isa<Expr>(S) ? dyn_cast<CXXOperatorCallExpr>(stripAll(cast<Expr>(S))) : nullptr;
  if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2 || referencedVar(OC->getArg(0)) != Param)
    return false;
  const Expr *E = stripAll(OC->getArg(1));
  bool Viewed = false;
  while (isa<CallExpr>(E) && callObject(E) && Api.callHasTag(E, "shares_storage") && Api.callHasTag(E, "pure") &&
         !Api.callHasTag(E, "in_place") && !Api.callHasTag(E, "device_transfer")) {
    for (const Expr *Arg : callArgs(E))
      if (Api.isTensorExpr(Arg) || readsBodyState(Arg, Body, withHostDecls({}, P)) ||
          findSideEffect(Arg, Api, false, Evaluation::AsBefore))
        return false;
    E = stripAll(callObject(E));
    Viewed = true;
  }
  return Viewed && referencedVar(E) == Param;
}

llvm::Error Planner::checkReturnType() {
  const QualType Result = F.getReturnType();
  if (Result->getContainedAutoType() || (!Api.isTensor(Result) && !isTensorAggregate(Result, Api)))
    return refuseOutOfScope("'" + F.getNameAsString() + "' returns '" + Result.getAsString() +
                  "', not a tensor or a tuple, pair or vector of tensors (the split returns fixed-size tensors "
                  "and counts)");
  return llvm::Error::success();
}

} // namespace graphify::rewriter::padded_split
