// Capture windows along the control flow. Invariant: a statement is excluded from a window only
// when no path from the begin call reaches it without an end call, and the window is extended
// only to statements some such path reaches.
#include "CaptureFlow.h"

#include <clang/AST/ParentMap.h>
#include <clang/Analysis/CFG.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <memory>
#include <optional>

namespace graphify {

using namespace clang;

namespace {

/// Whether the branch `S` leaves the enclosing code (ends with return, break, continue, goto or a
/// throw): an end call there aborts the capture on that path only.
bool leaves(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->body_empty() ? nullptr : CS->body_back();
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
    return true;
  if (const auto *E = dyn_cast<Expr>(S))
    return isa<CXXThrowExpr>(E->IgnoreImplicit());
  return false;
}

bool within(const Stmt *Inner, const Stmt *Outer, const SourceManager &SM) {
  if (!Inner || !Outer)
    return false;
  SourceLocation L = SM.getExpansionLoc(Inner->getBeginLoc());
  SourceLocation B = SM.getExpansionLoc(Outer->getBeginLoc()), E = SM.getExpansionLoc(Outer->getEndLoc());
  return !SM.isBeforeInTranslationUnit(L, B) && !SM.isBeforeInTranslationUnit(E, L);
}

/// The `if` statements whose other branch is taken only when nothing is being captured, mapped to
/// the successor to follow (0: then, 1: else). An end call in one branch of an `if` whose other
/// branch ends nothing is a conditional end: `if (capturing) end();` or `if (use_graph) { end(); ...
/// }` after `if (use_graph) begin();`. The path around it is the one where no capture was begun
/// (the flag that chose to begin chooses to end) — unless the branch leaves (`if (err) { end();
/// return; }`), which aborts the capture on the error path while the others go on capturing. In a
/// function entered with the capture open, every conditional end is of the first kind: it tests
/// whether a capture is running.
llvm::DenseMap<const Stmt *, unsigned> conditionalEnds(const Stmt *Body, llvm::ArrayRef<const Stmt *> Ends,
                                                      bool Entered, const SourceManager &SM) {
  llvm::DenseMap<const Stmt *, unsigned> Out;
  ParentMap PM(const_cast<Stmt *>(Body));
  for (const Stmt *E : Ends) {
    const Stmt *Child = E;
    for (const Stmt *P = PM.getParent(E); P; Child = P, P = PM.getParent(P)) {
      const auto *If = dyn_cast<IfStmt>(P);
      if (!If || (Child != If->getThen() && Child != If->getElse()))
        continue;
      const bool Then = Child == If->getThen();
      const Stmt *Other = Then ? If->getElse() : If->getThen();
      if (llvm::any_of(Ends, [&](const Stmt *X) { return within(X, Other, SM); }))
        break; // both branches end: the flow stops at each
      if (Entered || !leaves(Child))
        Out[If] = Then ? 0 : 1;
      break;
    }
  }
  return Out;
}

/// Whether `S` has a `try` block (lambdas aside: their bodies are not on this CFG).
bool containsTry(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<CXXTryStmt>(S))
    return true;
  return llvm::any_of(S->children(), [](const Stmt *C) { return containsTry(C); });
}

/// A flag tested by an `if`: the condition without `!`, parentheses and casts, and whether it was
/// negated. Only a variable or a field (`use_graph`, `use_graph_`) of type bool counts: a call or
/// an expression may give another value the next time it is read.
std::optional<std::pair<const Expr *, bool>> flagOf(const Expr *Cond) {
  bool Negated = false;
  const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  while (const auto *UO = dyn_cast_or_null<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_LNot)
      return std::nullopt;
    Negated = !Negated;
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  if (!E || !E->getType()->isBooleanType())
    return std::nullopt;
  if (const auto *ME = dyn_cast<MemberExpr>(E); !isa<DeclRefExpr>(E) && !(ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())))
    return std::nullopt;
  return std::make_pair(E, Negated);
}

/// Whether two flags (flagOf) name the same variable or the same field of `this`.
bool sameFlag(const Expr *A, const Expr *B) {
  if (const auto *DA = dyn_cast<DeclRefExpr>(A), *DB = dyn_cast<DeclRefExpr>(B); DA && DB)
    return DA->getDecl()->getCanonicalDecl() == DB->getDecl()->getCanonicalDecl();
  const auto *MA = dyn_cast<MemberExpr>(A), *MB = dyn_cast<MemberExpr>(B);
  return MA && MB && isa<CXXThisExpr>(MA->getBase()->IgnoreParenImpCasts()) &&
         isa<CXXThisExpr>(MB->getBase()->IgnoreParenImpCasts()) &&
         MA->getMemberDecl()->getCanonicalDecl() == MB->getMemberDecl()->getCanonicalDecl();
}

/// Whether `Body` writes `Flag` (an assignment, compound assignment, increment or its address
/// taken): then two tests of it may disagree.
bool writes(const Stmt *S, const Expr *Flag) {
  if (!S)
    return false;
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
    Target = UO->getSubExpr();
  if (Target && sameFlag(Target->IgnoreParenImpCasts(), Flag))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return writes(C, Flag); });
}

/// The `if`s that test the flag a begin call was guarded by (`if (use_graph_) begin();`), mapped
/// to the branch taken when the flag holds: the capture was begun only on that side, so a later
/// `if (!use_graph_) cudaStreamSynchronize(s);` runs only where nothing is being captured. The
/// flag must not be written in the function.
void sameFlagBranches(const Stmt *Begin, const Stmt *Body, llvm::DenseMap<const Stmt *, unsigned> &Only) {
  ParentMap PM(const_cast<Stmt *>(Body));
  const Stmt *Child = Begin;
  const IfStmt *Guard = nullptr;
  for (const Stmt *P = PM.getParent(Begin); P; Child = P, P = PM.getParent(P))
    if (const auto *If = dyn_cast<IfStmt>(P); If && (Child == If->getThen() || Child == If->getElse())) {
      Guard = If;
      break;
    }
  if (!Guard)
    return;
  auto Flag = flagOf(Guard->getCond());
  if (!Flag || writes(Body, Flag->first))
    return;
  const bool FlagHoldsInBegin = (Child == Guard->getThen()) != Flag->second;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(S); If && If != Guard)
      if (auto F = flagOf(If->getCond()); F && sameFlag(F->first, Flag->first))
        Only.try_emplace(If, (FlagHoldsInBegin != F->second) ? 0u : 1u);
    Work.append(S->child_begin(), S->child_end());
  }
}

/// Whether `S` names `V`.
bool mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == V)
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return mentions(C, V); });
}

/// A local bool whose value the flow can follow: initialised with a literal, then only read or
/// assigned (no address taken, no reference bound to it, no increment, not named in a lambda),
/// so every write is an assignment the CFG shows. Returns its initial value.
std::optional<bool> trackableFlag(const VarDecl *V, const Stmt *Body, const ParentMap &PM) {
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getType()->isBooleanType() ||
      V->getType().isVolatileQualified() || !V->getInit())
    return std::nullopt;
  const auto *Lit = dyn_cast<CXXBoolLiteralExpr>(V->getInit()->IgnoreParenImpCasts());
  if (!Lit)
    return std::nullopt;
  bool Escapes = false;
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty() && !Escapes) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      Escapes = mentions(L->getBody(), V);
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == V) {
      const Stmt *P = PM.getParentIgnoreParens(const_cast<DeclRefExpr *>(DRE));
      const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(P);
      const auto *Assign = dyn_cast_or_null<BinaryOperator>(P);
      Escapes = !(Read && Read->getCastKind() == CK_LValueToRValue) &&
                !(Assign && Assign->getOpcode() == BO_Assign && Assign->getLHS()->IgnoreParens() == DRE);
    }
    Work.append(S->child_begin(), S->child_end());
  }
  if (Escapes)
    return std::nullopt;
  return Lit->getValue();
}

/// The assignments to `V` in `Body`.
llvm::SmallVector<const Stmt *, 4> assignmentsTo(const VarDecl *V, const Stmt *Body) {
  llvm::SmallVector<const Stmt *, 4> Out;
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()); DRE && DRE->getDecl() == V)
        Out.push_back(S);
    Work.append(S->child_begin(), S->child_end());
  }
  return Out;
}

/// Where each statement sits on the CFG (block, index).
using CfgPositions = llvm::DenseMap<const Stmt *, std::pair<const CFGBlock *, unsigned>>;

CfgPositions positionsOn(const CFG &G) {
  CfgPositions Out;
  for (const CFGBlock *B : G)
    for (unsigned I = 0; I < B->size(); ++I)
      if (auto CS = (*B)[I].getAs<CFGStmt>())
        Out.try_emplace(CS->getStmt(), B, I);
  return Out;
}

/// Whether some path from just after `From` reaches `To` without passing `Stop` (the flag's
/// declaration, which sets it again).
bool reachesAvoiding(const CfgPositions &Pos, const Stmt *From, const Stmt *To, const Stmt *Stop) {
  auto F = Pos.find(From), T = Pos.find(To), S = Pos.find(Stop);
  if (F == Pos.end() || T == Pos.end())
    return true; // not on the CFG: assume the worst
  std::vector<std::pair<const CFGBlock *, unsigned>> Work{{F->second.first, F->second.second + 1}};
  llvm::DenseSet<const CFGBlock *> Done;
  while (!Work.empty()) {
    auto [B, I] = Work.back();
    Work.pop_back();
    bool Stopped = false;
    for (; I < B->size() && !Stopped; ++I) {
      if (B == T->second.first && I == T->second.second)
        return true;
      Stopped = S != Pos.end() && B == S->second.first && I == S->second.second;
    }
    if (Stopped)
      continue;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Done.insert(Succ).second)
        Work.push_back({Succ, 0});
  }
  return false;
}

/// The `if`s testing a local flag that holds its initial value whenever the capture begins
/// (`bool aborted = false; begin(); ... { end(); aborted = true; break; } ... if (aborted) ...`),
/// mapped to the branch that value takes, and each such flag's assignments. The branches hold
/// only while the walk of the open capture reaches none of those assignments: narrowByFlow checks.
struct FlagFacts {
  llvm::DenseMap<const Stmt *, std::pair<const VarDecl *, unsigned>> Branches;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Stmt *, 4>> Writes;
};

FlagFacts initialFlagBranches(const Stmt *Begin, const Stmt *Body, const CFG &G) {
  FlagFacts Out;
  std::optional<CfgPositions> Pos; // built on the first trackable flag: most windows test none
  ParentMap PM(const_cast<Stmt *>(Body));
  llvm::DenseMap<const VarDecl *, std::optional<bool>> Known;
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    Work.append(S->child_begin(), S->child_end());
    const auto *If = dyn_cast<IfStmt>(S);
    auto F = If ? flagOf(If->getCond()) : std::nullopt;
    const auto *DRE = F ? dyn_cast<DeclRefExpr>(F->first) : nullptr;
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V)
      continue;
    auto [It, New] = Known.try_emplace(V);
    if (New && (It->second = trackableFlag(V, Body, PM))) {
      auto Writes = assignmentsTo(V, Body);
      const Stmt *Decl = PM.getParent(V->getInit());
      while (Decl && !isa<DeclStmt>(Decl))
        Decl = PM.getParent(Decl);
      // An assignment may still be in force when the capture begins (a loop that sets it, then
      // begins again): then the value at the begin call is not known.
      if (!Pos)
        Pos = positionsOn(G);
      if (!Decl || llvm::any_of(Writes, [&](const Stmt *W) { return reachesAvoiding(*Pos, W, Begin, Decl); }))
        It->second = std::nullopt;
      else
        Out.Writes[V] = std::move(Writes);
    }
    if (It->second)
      Out.Branches[If] = {V, (*It->second != F->second) ? 0u : 1u};
  }
  return Out;
}

/// The `try` whose handlers `Succ` enters (its handler dispatch, or one handler), if any.
const CXXTryStmt *handlerEntryOf(const CFGBlock *Succ, const ParentMap &PM) {
  if (!Succ)
    return nullptr;
  if (const auto *Catch = dyn_cast_or_null<CXXCatchStmt>(Succ->getLabel()))
    return dyn_cast_or_null<CXXTryStmt>(PM.getParent(const_cast<CXXCatchStmt *>(Catch)));
  return dyn_cast_or_null<CXXTryStmt>(Succ->getTerminatorStmt());
}

/// The statement a block ends with, whose exception the block's edge to a handler stands for.
const Stmt *throwerOf(const CFGBlock *B) {
  if (B->empty())
    return nullptr;
  auto Last = B->back().getAs<CFGStmt>();
  return Last ? Last->getStmt() : nullptr;
}

/// Whether the handlers of `Try` run only after a guard declared in its block before `Thrower`
/// was destroyed, ending the capture: the guard is destroyed while the exception unwinds, before
/// a handler runs (Clang's CFG has no destructors on exception edges).
bool handlerAfterGuard(const CXXTryStmt *Try, const Stmt *Thrower, const llvm::DenseSet<const VarDecl *> &Destroyed,
                       const SourceManager &SM) {
  if (!Try || !Thrower)
    return false;
  const SourceLocation Throws = SM.getExpansionLoc(Thrower->getBeginLoc());
  const SourceLocation Open = SM.getExpansionLoc(Try->getTryBlock()->getBeginLoc());
  const SourceLocation Close = SM.getExpansionLoc(Try->getTryBlock()->getEndLoc());
  return llvm::any_of(Destroyed, [&](const VarDecl *V) {
    const SourceLocation L = SM.getExpansionLoc(V->getLocation());
    return SM.isBeforeInTranslationUnit(Open, L) && SM.isBeforeInTranslationUnit(L, Close) &&
           SM.isBeforeInTranslationUnit(L, Throws);
  });
}

} // namespace

/// The `if` whose condition is `Call`'s result, possibly negated (`if (!begin())`), and the
/// index of its branch taken when the call returns true (0: then, 1: else).
std::optional<std::pair<const IfStmt *, unsigned>> branchOnResult(const Stmt *Call, const Stmt *Body) {
  ParentMap PM(const_cast<Stmt *>(Body));
  bool Negated = false;
  const Stmt *Child = Call;
  for (const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(Call)); P;
       Child = P, P = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(P))) {
    if (const auto *UO = dyn_cast<UnaryOperator>(P); UO && UO->getOpcode() == UO_LNot) {
      Negated = !Negated;
      continue;
    }
    if (const auto *If = dyn_cast<IfStmt>(P); If && If->getCond() && Child == If->getCond()->IgnoreParenImpCasts())
      return std::make_pair(If, Negated ? 1u : 0u);
    return std::nullopt;
  }
  return std::nullopt;
}

void narrowByFlow(CaptureWindow &W, const FunctionDecl &FD, const Stmt *Begin, const FlowEnds &FlowEnd,
                  const SourceManager &SM, bool OnTrue) {
  llvm::ArrayRef<const Stmt *> Ends = FlowEnd.Calls;
  llvm::DenseSet<const VarDecl *> Destroyed(FlowEnd.Destroyed.begin(), FlowEnd.Destroyed.end());
  if (!FD.getBody())
    return;
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddImplicitDtors = !Destroyed.empty(); // an RAII guard ends the capture at its scope's end
  // A call that throws inside the window runs the handler with the capture still open (unless
  // the handler ends it first).
  Options.AddEHEdges = containsTry(FD.getBody());
  std::unique_ptr<CFG> G =
      CFG::buildCFG(&FD, const_cast<Stmt *>(FD.getBody()), &FD.getASTContext(), Options);
  if (!G)
    return;
  auto Loc = [&](const Stmt *S) { return SM.getExpansionLoc(S->getBeginLoc()); };

  std::vector<std::pair<const CFGBlock *, unsigned>> Work;
  if (Begin) {
    for (const CFGBlock *B : *G)
      for (unsigned I = 0; I < B->size(); ++I)
        if (auto CS = (*B)[I].getAs<CFGStmt>(); CS && CS->getStmt() == Begin)
          Work.push_back({B, I + 1});
  } else {
    Work.push_back({&G->getEntry(), 0});
  }
  if (Work.empty())
    return; // the begin call is not on the CFG (written in a lambda): keep the source range

  llvm::DenseSet<const Stmt *> EndSet(Ends.begin(), Ends.end());
  // The callee and arguments of an end call are evaluated before it, but they are the end call:
  // they share its location, so counting them would put the end call inside the window.
  llvm::DenseSet<const Stmt *> EndParts;
  llvm::SmallVector<const Stmt *, 16> Parts(Ends.begin(), Ends.end());
  while (!Parts.empty()) {
    const Stmt *P = Parts.pop_back_val();
    if (P && EndParts.insert(P).second)
      Parts.append(P->child_begin(), P->child_end());
  }
  llvm::DenseMap<const Stmt *, unsigned> Only = conditionalEnds(FD.getBody(), Ends, !Begin, SM);
  if (OnTrue && Begin)
    if (auto Branch = branchOnResult(Begin, FD.getBody()))
      Only[Branch->first] = Branch->second;
  if (Begin)
    sameFlagBranches(Begin, FD.getBody(), Only);
  // Local flags hold their initial values in the open capture unless it reaches an assignment
  // to one: then that flag's tests are followed both ways and the walk is redone.
  FlagFacts Flags;
  if (Begin)
    Flags = initialFlagBranches(Begin, FD.getBody(), *G);
  const ParentMap PM(const_cast<Stmt *>(FD.getBody()));
  const auto Start = Work;
  llvm::DenseSet<unsigned> Reached;
  llvm::DenseSet<const Stmt *> ReachedStmts;
  SourceLocation Last;
  for (;;) {
    auto Facts = Only;
    for (auto &[If, Fact] : Flags.Branches)
      if (Flags.Writes.count(Fact.first))
        Facts.try_emplace(If, Fact.second);
    Work = Start;
    Reached.clear();
    ReachedStmts.clear();
    Last = SourceLocation();
    llvm::DenseSet<const CFGBlock *> Done;
    while (!Work.empty()) {
      auto [B, From] = Work.back();
      Work.pop_back();
      bool Ended = false;
      for (unsigned I = From; I < B->size() && !Ended; ++I) {
        if (auto Dtor = (*B)[I].getAs<CFGAutomaticObjDtor>(); Dtor && Destroyed.contains(Dtor->getVarDecl())) {
          Ended = true;
          break;
        }
        auto CS = (*B)[I].getAs<CFGStmt>();
        if (!CS)
          continue;
        const Stmt *S = CS->getStmt();
        if (EndSet.contains(S)) {
          Ended = true;
          break;
        }
        if (EndParts.contains(S))
          continue;
        Reached.insert(Loc(S).getRawEncoding());
        ReachedStmts.insert(S);
        SourceLocation End = SM.getExpansionLoc(S->getEndLoc());
        if (Last.isInvalid() || SM.isBeforeInTranslationUnit(Last, End))
          Last = End;
      }
      if (Ended)
        continue;
      auto Side = Facts.find(B->getTerminatorStmt());

      // A handler entered because the begin call threw runs with nothing begun.
      const Stmt *Thrower = throwerOf(B);
      unsigned Index = 0;
      for (const CFGBlock *Succ : B->succs()) {
        const CXXTryStmt *Try = handlerEntryOf(Succ, PM);
        const bool Follow = (Side == Facts.end() || Index == Side->second) &&
                            !(Try && (Thrower == Begin || handlerAfterGuard(Try, Thrower, Destroyed, SM)));
        ++Index;
        if (Follow && Succ && Done.insert(Succ).second)
          Work.push_back({Succ, 0});
      }
    }
    auto Broken = llvm::find_if(Flags.Writes, [&](const auto &Flag) {
      return llvm::any_of(Flag.second, [&](const Stmt *W) { return ReachedStmts.contains(W); });
    });
    if (Broken == Flags.Writes.end())
      break;
    Flags.Writes.erase(Broken);
  }
  if (Last.isInvalid())
    return;
  // Past the last statement reached; within that range, what no path reaches is not captured.
  W.Limit = Last.getLocWithOffset(1);
  auto Excluded = std::make_shared<llvm::DenseSet<unsigned>>();
  for (const CFGBlock *B : *G)
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>()) {
        SourceLocation L = Loc(CS->getStmt());
        if (!Reached.contains(L.getRawEncoding()) && SM.isBeforeInTranslationUnit(W.Open, L) &&
            SM.isBeforeInTranslationUnit(L, W.Limit))
          Excluded->insert(L.getRawEncoding());
      }
  W.Excluded = std::move(Excluded);
}

} // namespace graphify
