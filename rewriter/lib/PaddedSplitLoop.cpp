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

bool Planner::isCollectedVector(const DeclStmt *DS, const Stmt *const *Next, const Stmt *const *End) const {
  const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  if (!V || isa<DecompositionDecl>(V) || V->getType()->isReferenceType() || !V->hasLocalStorage())
    return false;
  // The epilogue declares it: an initialiser that changes nothing and reads only what the
  // epilogue has (`out(preds.size(0), torch::empty({0, 6}))`) may run there.
  const QualType Element = vectorElementType(V->getType());
  if (Element.isNull() || !Api.isTensor(Element) ||
      (!initRunsNoUserCode(V->getInit(), Api, Ctx) &&
       (findSideEffect(V->getInit(), Api, false, Evaluation::AsBefore) || readsBodyState(V->getInit(), Body, {}))))
    return false;
  for (; Next != End; ++Next)
    if (const auto *For = dyn_cast<ForStmt>(*Next);
        For && (llvm::is_contained(loopPushes(For), V) || llvm::is_contained(loopSlots(For), V)))
      return true;
  return false;
}

llvm::Expected<bool> Planner::prefill(const ForStmt *For, llvm::ArrayRef<const Stmt *> Earlier,
                                      llvm::ArrayRef<const Stmt *> Later, const Plan &P) const {
  const VarDecl *Index = loopCounter(For);
  if (!Index || !For->getCond() || !For->getInc() || !incrementsOnly(For->getInc(), Index))
    return refuse("does not count with an integer it declares");
  std::map<const ValueDecl *, unsigned> Allowed = withHostDecls({{Index, ~0u}}, P);
  const std::set<const ParmVarDecl *> Settled = settledReferenceParameters(For, Later, F, Api);
  for (const ParmVarDecl *Param : Settled)
    Allowed.emplace(Param, ~0u);
  const std::string AfterCoreNote = " (the epilogue runs it after the core, which leaves only a reference "
                                    "parameter's last value, and that only for its shape or metadata)";
  // Run before the core, the loop would not see what the statements before it write into a
  // parameter's elements (readsBodyState sees assignments only); its metadata stays.
  for (const ParmVarDecl *Param : F.parameters())
    if (!Settled.count(Param) && !usesOf(Param, For).empty() && !readsOnlyMetadata(For, Param, Api))
      if (const Stmt *Write = firstChangeOf(Param, Earlier, Api))
        return refuse("reads '" + Param->getNameAsString() + "', which the function writes in place before it (line " +
                      lineOf(Write, Ctx) + "), and the epilogue runs it before the core");
  for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()}) {
    if (auto Why = findSideEffect(Part, Api, false, Evaluation::AsBefore))
      return refuse(*Why);
    if (auto Why = readsBodyState(Part, Body, Allowed))
      return refuse(*Why + AfterCoreNote);
  }
  for (const Stmt *S : bodyStatements(For->getBody())) {
    const Expr *Value = nullptr;
    std::string Method;
    const VarDecl *Into = pushInto(S, Value, Method);
    if (!Into || !P.Collected.count(Into) || !Api.isTensorExpr(Value))
      return refuse("does other work than pushing tensors into it (line " + lineOf(S, Ctx) + ")");
    if (auto Why = findSideEffect(Value, Api, false, Evaluation::AsBefore))
      return refuse(*Why);
    if (auto Why = readsBodyState(Value, Body, Allowed))
      return refuse(*Why + AfterCoreNote);
  }
  return !Settled.empty();
}

llvm::SmallVector<const VarDecl *, 4> Planner::loopSlots(const ForStmt *For) {
  llvm::SmallVector<const VarDecl *, 4> Into;
  for (const Stmt *S : bodyStatements(For->getBody())) {
    const Expr *Value = nullptr;
    if (const VarDecl *V = slotInto(S, loopCounter(For), Value))
      Into.push_back(V);
  }
  return Into;
}

llvm::SmallVector<const VarDecl *, 4> Planner::loopPushes(const ForStmt *For) {
  llvm::SmallVector<const VarDecl *, 4> Into;
  for (const Stmt *S : bodyStatements(For->getBody())) {
    const Expr *Value = nullptr;
    std::string Method;
    if (const VarDecl *V = pushInto(S, Value, Method))
      Into.push_back(V);
  }
  return Into;
}

bool Planner::pushesIntoCollected(const ForStmt *For, const Plan &P) const {
  return llvm::any_of(loopPushes(For), [&](const VarDecl *V) { return P.Collected.count(V) > 0; }) ||
         llvm::any_of(loopSlots(For), [&](const VarDecl *V) { return P.Collected.count(V) > 0; });
}

llvm::Error Planner::loop(const ForStmt *For, Plan &P) {
  const std::string Line = lineOf(For, Ctx);
  const auto *Block = dyn_cast<CompoundStmt>(For->getBody());
  if (!Block)
    return refuse("the body of the loop at line " + Line + " is not a block");
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Index = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
  if (!Index || !Index->getType()->isIntegerType() || !For->getCond() || !For->getInc())
    return refuse("the loop at line " + Line + " does not count with an integer it declares (for (int64_t i = 0; "
                  "i < n; ++i))");
  for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()}) {
    if (!Part)
      continue;
    if (Lifter.touchesPadded(Part))
      return refuse("the header of the loop at line " + Line + " reads a value-dependent selection, so its trip "
                    "count is not static");
    if (auto Why = findSideEffect(Part, Api, false, Ran))
      return refuse("the header of the loop at line " + Line + " " + *Why);
  }
  if (!incrementsOnly(For->getInc(), Index))
    return refuse("the loop at line " + Line + " steps something other than its counter '" +
                  Index->getNameAsString() + "'");
  for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()})
    if (const Expr *Read = findExpr(Part, [&](const Expr *E) {
          const auto *DR = dyn_cast<DeclRefExpr>(E);
          const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
          return V && isReassigned(V, Block);
        }))
      return refuse("the body of the loop at line " + Line + " assigns '" + sourceText(Read, Ctx) +
                    "', which its header reads: the trip count is not static");
  if (isReassigned(Index, Block))
    return refuse("the body of the loop at line " + Line + " assigns its counter '" + Index->getNameAsString() + "'");

  LoopPlan L;
  L.For = For;
  const VarDecl *First = nullptr;
  for (const VarDecl *V : loopPushes(For))
    if (P.Collected.count(V) && !First)
      First = V;
  for (const VarDecl *V : loopSlots(For))
    if (P.Collected.count(V) && !First)
      First = V;
  L.Type = First ? elementTypeText(First) : Api.spell(firstSelection(For), "Tensor");
  if (L.Type.empty())
    return refuse("the type of '" + First->getNameAsString() + "' cannot be written outside the function");
  const size_t FirstGroup = Lifter.groupCount();
  std::string Outer = std::move(P.Core);
  P.Core.clear();
  InLoop = For;
  std::string Collect;
  for (auto It = Block->body_begin(); It != Block->body_end(); ++It) {
    const Stmt *S = *It;
    llvm::Error Err = llvm::Error::success();
    const Expr *Value = nullptr;
    std::string Method;
    if (const auto *If = dyn_cast<IfStmt>(S); If && isContinueGuard(If))
      Err = loopGuard(If, L, P);
    else if (const VarDecl *Into = pushInto(S, Value, Method); Into && P.Collected.count(Into))
      Err = push(S, Into, Method, Value, L, P);
    else if (const VarDecl *Slot = slotInto(S, Index, Value); Slot && P.Collected.count(Slot))
      Err = push(S, Slot, "", Value, L, P);
    else if (If && isCap(If))
      Err = cap(If, P);
    else
      Err = statement(S, P);
    if (!Err)
      continue;
    // What the padded form does not take may start the iteration's host part, which the
    // epilogue's loop runs on the sliced values.
    const bool Tail = Lifter.groupCount() > FirstGroup && !hasDeviceFormOfItsOwn(S) &&
                      std::any_of(It, Block->body_end(), [&](const Stmt *T) { return readsOnHost(T); });
    if (Tail) {
      llvm::consumeError(std::move(Err));
      Err = loopTail(It, Block, L, Collect, P);
    }
    InLoop = nullptr;
    if (Err)
      return Err;
    break;
  }
  InLoop = nullptr;
  // A collected vector is the epilogue's: the body may only push into it (or use it in its
  // host part, which the epilogue runs).
  for (const VarDecl *V : P.Collected)
    for (const DeclRefExpr *Use : usesOf(V, Block))
      if (!inLoopTail(Use, L) && !llvm::any_of(L.Steps, [&](const LoopStep &Step) {
            return Step.Guard < 0 && Step.Into == V &&
                   Use->getBeginLoc() >= Step.PushLoc.getBegin() && Use->getEndLoc() <= Step.PushLoc.getEnd();
          }))
        return refuse("'" + sourceText(Use, Ctx) + "' (line " + lineOf(Use, Ctx) + ") is read by the loop at line " +
                      Line + " other than by a push, and the epilogue fills it after the core has run");
  if (llvm::none_of(L.Outputs, [](const Output &O) { return O.Each; }))
    return refuse("the loop at line " + Line + " collects nothing");
  if (L.ReadsCounter) {
    std::map<const ValueDecl *, unsigned> Allowed = withHostDecls({}, P);
    Allowed.emplace(Index, ~0u);
    // The epilogue's loop runs after the core: a reference parameter the header reads is the
    // value the core left, the same as the original's when nothing from the loop on changes it.
    const auto *Block = cast<CompoundStmt>(Body);
    const auto *At = llvm::find(Block->body(), For);
    for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond()})
      for (const ParmVarDecl *Param :
           settledReferenceParameters(Part, llvm::ArrayRef<const Stmt *>(At, Block->body_end()), F, Api))
        Allowed.emplace(Param, ~0u);
    for (const Stmt *Part : {(const Stmt *)Index->getInit(), (const Stmt *)For->getCond(), (const Stmt *)For->getInc()})
      if (auto Why = readsBodyState(Part, Body, Allowed))
        return refuse("the host part of the loop at line " + Line + " reads the counter '" +
                      Index->getNameAsString() + "', and the loop's header " + *Why +
                      ", so the epilogue cannot run it");
  }
  // The counts of the groups the iterations select are collected at the end of each iteration.
  std::string Declared;
  for (size_t G = FirstGroup; G < Lifter.groupCount(); ++G) {
    const std::string &Count = Lifter.countOf(G);
    const bool Read = llvm::any_of(L.Outputs, [&](const Output &O) { return O.Count == Count; }) ||
                      llvm::any_of(L.Guards, [&](const Guard &G) {
                        return llvm::any_of(G.CountReads, [&](const auto &R) { return R.second == Count; });
                      });
    if (!Read || L.EachCounts.count(Count))
      continue;
    const std::string Each = freshName(Count + "_each", Body, Taken);
    L.EachCounts[Count] = Each;
    Declared += "std::vector<" + L.Type + "> " + Each + ";\n";
    Collect += Each + ".push_back(" + Count + ");\n";
  }
  for (const Output &O : L.Outputs)
    if (O.Each)
      Declared += "std::vector<" + L.Type + "> " + O.Text + ";\n";
  const std::string Header = textBetween(For->getBeginLoc(), Block->getBeginLoc(), Ctx);
  if (Header.empty())
    return refuse("the header of the loop at line " + Line + " is produced by a macro expansion");
  P.Core = Outer + Declared + Header + "{\n" + P.Core + Collect + "}\n";
  P.Loop = std::move(L);
  return llvm::Error::success();
}

std::string Planner::elementTypeText(const VarDecl *V) const {
  TypeLoc Loc = V->getTypeSourceInfo() ? V->getTypeSourceInfo()->getTypeLoc() : TypeLoc();
  if (auto Elaborated = Loc.getAs<ElaboratedTypeLoc>())
    Loc = Elaborated.getNamedTypeLoc();
  if (auto Spec = Loc.getAs<TemplateSpecializationTypeLoc>(); Spec && Spec.getNumArgs() > 0) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Spec.getArgLoc(0).getSourceRange()), SM, Ctx.getLangOpts());
    if (R.isValid())
      return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  }
  return nameableType(vectorElementType(V->getType()), Ctx, &F);
}

const Expr *Planner::firstSelection(const ForStmt *For) const {
  for (const Stmt *S : bodyStatements(For->getBody())) {
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
      continue;
    if (const Expr *Sel = findExpr(S, [&](const Expr *E) { return Lifter.isSelection(E); }))
      return Sel;
  }
  return nullptr;
}

bool Planner::writesTensorData(const Expr *E) const {
  if (isa<CallExpr>(E) && Api.callHasTag(E, "in_place"))
    return true;
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
  return OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && returnsTensorByValue(OC->getArg(0));
}

bool Planner::returnsTensorByValue(const Expr *E) const {
  const auto *Call = dyn_cast<CallExpr>(stripAll(E));
  return Call && Api.isTensorExpr(E) && !Call->getCallReturnType(Ctx)->isReferenceType();
}

bool Planner::writesOwnTensor(const Expr *E, const LoopPlan &L) const {
  const Expr *Target = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getNumArgs() == 2)
    Target = OC->getArg(0);
  else if (isa<CallExpr>(E))
    Target = callObject(E) ? callObject(E) : Api.argAt(E, 0);
  const VarDecl *V = Target ? viewedVariable(Target, Api) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getType()->isReferenceType() ||
      V->getBeginLoc() < L.TailBegin->getBeginLoc() || L.For->getBody()->getEndLoc() < V->getBeginLoc())
    return false;
  auto IsNew = [&](const Expr *Value) {
    Value = Value ? stripAll(Value) : nullptr;
    return Value && isa<CallExpr>(Value) && !Api.entriesFor(Value).empty() &&
           !Api.callHasTag(Value, "shares_storage") && !Api.callHasTag(Value, "in_place");
  };
  if (!IsNew(V->getInit()))
    return false;
  // Every later value: `keep = keep.toType(torch::kInt64);` in the loop's body.
  return !findExpr(L.For->getBody(), [&](const Expr *A) {
    const Expr *Lhs = nullptr, *Rhs = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(A); BO && BO->isAssignmentOp())
      Lhs = BO->getLHS(), Rhs = BO->getRHS();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(A); OC && OC->getOperator() == OO_Equal &&
                                                                 OC->getNumArgs() == 2)
      Lhs = OC->getArg(0), Rhs = OC->getArg(1);
    return Lhs && referencedVar(stripAll(Lhs)) == V && !IsNew(Rhs);
  });
}

bool Planner::inLoopTail(const Stmt *S, const LoopPlan &L) const {
  return L.TailBegin && !(S->getBeginLoc() < L.TailBegin->getBeginLoc()) &&
         !(L.For->getBody()->getEndLoc() < S->getEndLoc());
}

llvm::Error Planner::loopTail(const Stmt *const *It, const CompoundStmt *Block, LoopPlan &L, std::string &Collect,
                              const Plan &P) {
  L.TailBegin = *It;
  const std::string Line = lineOf(L.TailBegin, Ctx);
  // The core runs every iteration's device part before the epilogue runs any host part: a host
  // part that wrote tensor data could change what a later iteration's device part read in the
  // original (a tensor from before the loop, a view of a parameter), so none may, except into
  // tensors the host part makes itself (writesOwnTensor).
  for (auto T = It; T != Block->body_end(); ++T)
    if (const Expr *Write =
            findExpr(*T, [&](const Expr *E) { return writesTensorData(E) && !writesOwnTensor(E, L); }))
      return refuse("the host part of the loop from line " + Line + " writes tensor data in place ('" +
                    sourceText(Write, Ctx) + "', line " + lineOf(Write, Ctx) + "), which a later iteration may "
                    "read: the core runs every iteration's device part before the epilogue runs the host parts");
  const auto *Index = cast<VarDecl>(cast<DeclStmt>(L.For->getInit())->getSingleDecl());
  for (const DeclRefExpr *DR : firstReferences(It, Block->body_end())) {
    {
      const SourceLocation At = DR->getDecl()->getBeginLoc();
      const bool BeforeTail = At < L.TailBegin->getBeginLoc() && Body->getBeginLoc() < At;
      if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()); B && BeforeTail)
        return refuse("the host part of the loop from line " + Line + " reads '" + B->getNameAsString() +
                      "' (line " + lineOf(DR, Ctx) + "), a structured binding of the statements before it (give "
                      "it a local of its own)");
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V || !V->hasLocalStorage())
        continue;
      if (V == Index) {
        L.ReadsCounter = true;
        continue;
      }
      if (isa<ParmVarDecl>(V)) {
        if (isReassigned(V, Body))
          return refuse("the host part of the loop from line " + Line + " reads the parameter '" +
                        V->getNameAsString() + "', which the function assigns");
        continue;
      }
      if (!BeforeTail || P.Collected.count(V) ||
          llvm::any_of(P.HostDecls, [&](const DeclStmt *DS) { return DS->getSingleDecl() == V; }))
        continue; // declared in the host part, or by the epilogue
      if (!Api.isTensor(V->getType()) || V->getType()->isReferenceType())
        return refuse("the host part of the loop from line " + Line + " reads '" + V->getNameAsString() + "' (line " +
                      lineOf(V->getInit() ? (const Stmt *)V->getInit() : DR, Ctx) +
                      "), a host value the statements before it compute");
      const int Group = Lifter.groupOf(V);
      const std::string Count = Group >= 0 ? Lifter.countOf(Group) : "";
      if (L.For->getBody()->getBeginLoc() < At) { // the iteration's own
        const std::string Each = freshName(V->getNameAsString() + "_each", Body, Taken);
        Collect += Each + ".push_back(" + V->getNameAsString() + ");\n";
        L.TailReads.push_back({V, unsigned(L.Outputs.size())});
        L.Outputs.push_back({Each, Count, true});
      } else {
        L.TailReads.push_back({V, unsigned(L.Outputs.size())});
        L.Outputs.push_back({V->getNameAsString(), Count, false});
      }
    }
  }
  return llvm::Error::success();
}

bool Planner::incrementsOnly(const Expr *Inc, const VarDecl *Index) const {
  Inc = Inc->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
    return UO->isIncrementDecrementOp() && referencedVar(UO->getSubExpr()) == Index;
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
    return (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
           referencedVar(CA->getLHS()) == Index && !findSideEffect(CA->getRHS(), Api, false, Ran);
  return false;
}

llvm::Error Planner::loopGuard(const IfStmt *If, LoopPlan &L, Plan &P) {
  const Expr *Cond = If->getCond();
  const std::string Line = lineOf(If, Ctx);
  if (auto Why = findSideEffect(Cond, Api, /*AllowHostReads=*/true, Evaluation::AsBefore))
    return refuse("the condition at line " + Line + " " + *Why);
  if (!Lifter.touchesPadded(Cond) && !readsComputedTensor(Cond) && !readsCountAlias(Cond))
    return refuse("the 'continue' at line " + Line + " depends on no tensor the function computes, and the core "
                  "runs every iteration to its end");
  Guard G;
  G.Cond = Cond;
  keepReads(Cond, Line, G, L.Outputs, /*Each=*/true, P);
  if (auto Why = readsBodyState(Cond, Body, withHostDecls(guardReads(G), P)))
    return refuse("the condition at line " + Line + " " + *Why + " (the epilogue tests it on the core's outputs)");
  GuardConds.push_back(Cond);
  LoopStep Step;
  Step.Guard = int(L.Guards.size());
  L.Steps.push_back(Step);
  L.Guards.push_back(std::move(G));
  Ran = Evaluation::Conditional;
  if (const ValueDecl *Tested = emptinessTested(Cond))
    Lifter.markNonEmpty(CountAliases.count(Tested) ? CountAliases.at(Tested) : Lifter.groupOf(Tested));
  return llvm::Error::success();
}

llvm::Error Planner::push(const Stmt *S, const VarDecl *Into, const std::string &Method, const Expr *Value, LoopPlan &L,
                          Plan &P) {
  if (!Api.isTensorExpr(Value))
    return refuse("'" + sourceText(Value, Ctx) + "' (line " + lineOf(S, Ctx) + ") is pushed into '" +
                  Into->getNameAsString() + "' but is not a tensor");
  if (auto Why = sideEffect(Value))
    return refuse("the value pushed at line " + lineOf(S, Ctx) + " " + *Why);
  std::string Prelude;
  auto Lifted = Lifter.lift(Value, Into->getName(), Prelude);
  if (!Lifted)
    return Lifted.takeError();
  const std::string Each = freshName(Into->getNameAsString() + "_each", Body, Taken);
  P.Core += Prelude + Each + ".push_back(" + Lifted->Text + ");\n";
  LoopStep Step;
  Step.Into = Into;
  Step.Method = Method;
  Step.Value = L.Outputs.size();
  Step.PushLoc = S->getSourceRange();
  if (Method.empty()) { // out[i] = e: the epilogue rebinds the element under the original header
    const Stmt *Assign = isa<ExprWithCleanups>(S) ? cast<ExprWithCleanups>(S)->getSubExpr() : S;
    Step.Slot = sourceText(cast<CXXOperatorCallExpr>(Assign)->getArg(0), Ctx);
    L.ReadsCounter = true;
  }
  L.Steps.push_back(Step);
  L.Outputs.push_back({Each, Lifted->Group >= 0 ? Lifter.countOf(Lifted->Group) : "", true});
  return llvm::Error::success();
}

} // namespace graphify::rewriter::padded_split
