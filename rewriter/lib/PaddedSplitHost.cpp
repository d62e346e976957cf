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

std::map<const ValueDecl *, unsigned> Planner::withHostDecls(std::map<const ValueDecl *, unsigned> Allowed,
                                                             const Plan &P) {
  for (const DeclStmt *DS : P.HostDecls)
    Allowed.emplace(cast<VarDecl>(DS->getSingleDecl()), ~0u);
  return Allowed;
}

bool Planner::readsOnlyParameterSizes(const DeclStmt *DS, const Plan &P) const {
  const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  if (!V || !V->getInit() || isa<DecompositionDecl>(V) || V->getType()->isReferenceType() || !V->hasLocalStorage() ||
      V->isStaticLocal() || !V->getType()->isArithmeticType() || findSideEffect(V->getInit(), Api, false, Ran))
    return false;
  return !findExpr(V->getInit(), [&](const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *Read = dyn_cast<VarDecl>(DR->getDecl());
      return Read && Read->hasLocalStorage() && !isa<ParmVarDecl>(Read) &&
             llvm::none_of(P.HostDecls, [&](const DeclStmt *D) { return D->getSingleDecl() == Read; });
    }
    if (!isa<CallExpr>(E) || Api.isTensorExpr(E))
      return false;
    auto Call = Api.resolver().resolve(E);
    return !Call || !(Call->hasTag("shape_query") || Call->hasTag("rank_query") || Call->hasTag("pure"));
  });
}

bool Planner::isIdleHostDecl(const DeclStmt *DS) const {
  const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  if (!V || isa<DecompositionDecl>(V) || V->getType()->isReferenceType() || !V->hasLocalStorage() ||
      Api.isTensor(V->getType()) || isTensorAggregate(V->getType(), Api))
    return false;
  return initRunsNoUserCode(V->getInit(), Api, Ctx);
}

llvm::Error Planner::placeHostDecls(Plan &P) {
  const auto *Block = cast<CompoundStmt>(Body);
  // Where each declaration goes, decided last to first: a declaration read by a later one
  // (`width` by `row_bytes = width * 4`) goes wherever that one went.
  std::map<const Stmt *, std::pair<bool, bool>> Placed; // (in the core, in the epilogue)
  for (auto It = P.HostDecls.rbegin(); It != P.HostDecls.rend(); ++It) {
    const DeclStmt *DS = *It;
    const auto *V = cast<VarDecl>(DS->getSingleDecl());
    bool CoreUses = false, CoreWrites = false, EpilogueUses = false, InTail = false;
    for (const Stmt *S : Block->body()) {
      InTail |= S == P.TailBegin;
      if (S == DS || usesOf(V, S).empty())
        continue;
      if (auto Later = Placed.find(S); Later != Placed.end()) {
        CoreUses |= Later->second.first;
        EpilogueUses |= Later->second.second;
        continue;
      }
      if (llvm::is_contained(P.Prefills, S)) {
        EpilogueUses = true;
        continue;
      }
      if (P.Loop && S == P.Loop->For) {
        // The epilogue does the loop's pushes, takes its guards and runs its host part (and its
        // header, when the host part reads the counter); the core runs the rest.
        const LoopPlan &L = *P.Loop;
        size_t InEpilogueLoop = 0, InBoth = 0;
        for (const Guard &G : L.Guards)
          InEpilogueLoop += usesOf(V, G.Cond).size();
        for (const Stmt *T : bodyStatements(L.For->getBody()))
          if (inLoopTail(T, L))
            InEpilogueLoop += usesOf(V, T).size();
        if (L.ReadsCounter)
          for (const Stmt *Part : {L.For->getInit(), (const Stmt *)L.For->getCond(), (const Stmt *)L.For->getInc()})
            InBoth += usesOf(V, Part).size();
        if (P.Collected.count(V))
          InEpilogueLoop = usesOf(V, S).size();
        EpilogueUses |= InEpilogueLoop + InBoth > 0;
        if (usesOf(V, S).size() > InEpilogueLoop) {
          CoreUses = true;
          CoreWrites |= isReassigned(V, S);
        }
        continue;
      }
      const auto *If = dyn_cast<IfStmt>(S);
      if (InTail || (If && guardReturn(If))) {
        EpilogueUses = true;
        continue;
      }
      CoreUses = true;
      CoreWrites |= isReassigned(V, S);
    }
    if (CoreWrites && EpilogueUses)
      return refuse("'" + V->getNameAsString() + "' (line " + lineOf(DS, Ctx) +
                    ") is host data that the statements before the host part write and the host part reads");
    Placed[DS] = {CoreUses, EpilogueUses || !CoreUses};
  }
  std::string InCore;
  std::vector<const DeclStmt *> InEpilogue;
  for (const DeclStmt *DS : P.HostDecls) {
    if (Placed[DS].first)
      InCore += sourceText(DS, Ctx) + "\n";
    if (Placed[DS].second)
      InEpilogue.push_back(DS);
  }
  P.Core = InCore + P.Core;
  P.HostDecls = std::move(InEpilogue);
  return llvm::Error::success();
}

bool Planner::startsHostTail(const Stmt *const *It, const Stmt *const *End, const Plan &P) const {
  if (!P.Returned.empty())
    return false;
  if (hasDeviceFormOfItsOwn(*It))
    return false;
  const QualType Result = F.getReturnType();
  if (!Result->isVoidType() && !Api.isTensor(Result) && !isTensorAggregate(Result, Api))
    return true;
  for (; It != End; ++It)
    if (readsOnHost(*It))
      return true;
  return false;
}

bool Planner::hasDeviceFormOfItsOwn(const Stmt *S) const {
  return findExpr(S, [&](const Expr *E) {
           return Api.callHasTag(E, "dynamic_output_shape") || Api.callHasTag(E, "bool_mask_index") ||
                  Api.callHasTag(E, "capture_unsafe") || Api.callHasTag(E, "greedy_suppression");
         }) != nullptr;
}

llvm::Error Planner::hostTail(const Stmt *const *It, const Stmt *const *End, Plan &P) {
  P.TailBegin = *It;
  const auto *Block = cast<CompoundStmt>(Body);
  for (const DeclRefExpr *DR : firstReferences(It, End)) {
    {
      if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl()); B && B->getBeginLoc() < P.TailBegin->getBeginLoc())
        return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads '" + B->getNameAsString() +
                      "' (line " + lineOf(DR, Ctx) + "), a structured binding of the statements before it (give "
                      "it a local of its own)");
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V || !V->hasLocalStorage())
        continue;
      if (const auto *Param = dyn_cast<ParmVarDecl>(V)) {
        bool Assigned = false;
        for (const Stmt *C : Block->body()) {
          if (C == P.TailBegin)
            break;
          Assigned |= isReassigned(Param, C);
        }
        if (!Assigned)
          continue;
        // `pred = pred.index({m});` then `pred.cpu()`: a tensor parameter taken by value is the
        // core's own copy; the epilogue gives its own the sliced value.
        if (!Api.isTensor(Param->getType()) || Param->getType()->isReferenceType())
          return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads the parameter '" +
                        Param->getNameAsString() + "', which the statements before it assign");
        int Group = Lifter.groupOf(Param);
        P.TailReads.push_back({Param, Output{Param->getNameAsString(), Group >= 0 ? Lifter.countOf(Group) : ""}});
        continue;
      }
      const DeclStmt *Declared = nullptr;
      for (const Stmt *C : Block->body()) {
        if (C == P.TailBegin)
          break;
        if (const auto *DS = dyn_cast<DeclStmt>(C); DS && llvm::is_contained(DS->decls(), V))
          Declared = DS;
      }
      if (!Declared || llvm::is_contained(P.HostDecls, Declared))
        continue; // declared in the tail, or by the epilogue
      if (P.Loop && llvm::any_of(P.Loop->TailReads, [&](const auto &R) { return R.first == V; }))
        continue; // the epilogue declares it before the loop, whose host part reads it too
      if (!Api.isTensor(V->getType()) || V->getType()->isReferenceType())
        return refuse("the host part from line " + lineOf(P.TailBegin, Ctx) + " reads '" + V->getNameAsString() +
                      "' (line " + lineOf(Declared, Ctx) + "), a host value the statements before it compute");
      int Group = Lifter.groupOf(V);
      P.TailReads.push_back({V, Output{V->getNameAsString(), Group >= 0 ? Lifter.countOf(Group) : ""}});
    }
  }
  // The core's outputs in the order the tail first reads them, for a stable rendering.
  std::stable_sort(P.TailReads.begin(), P.TailReads.end(),
                   [](const auto &A, const auto &B) { return A.first->getBeginLoc() < B.first->getBeginLoc(); });
  return llvm::Error::success();
}

} // namespace graphify::rewriter::padded_split
