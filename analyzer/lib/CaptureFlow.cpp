// Capture windows along the control flow. Invariant: a statement is excluded from a window only
// when no path from the begin call reaches it without an end call, and the window is extended
// only to statements some such path reaches.
#include "CaptureFlow.h"

#include "WrittenBy.h"

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

/// Whether `E` names a variable, a field of `this` or a field of such a name (`use_graph`,
/// `use_graph_`, `opts.use_graph`, `args_.graphs`): what reads the same value each time unless
/// the code writes it.
bool isFlagName(const Expr *E) {
  if (!E)
    return false;
  if (isa<DeclRefExpr>(E))
    return true;
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(Base) || isFlagName(Base);
}

/// A flag tested by an `if`: the condition without `!`, parentheses and casts, and whether it was
/// negated. Only a name (isFlagName) of type bool, integer, enumeration or pointer counts, tested
/// for truth: a call or an expression may give another value the next time it is read.
std::optional<std::pair<const Expr *, bool>> flagOf(const Expr *Cond) {
  bool Negated = false;
  const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  while (const auto *UO = dyn_cast_or_null<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_LNot)
      return std::nullopt;
    Negated = !Negated;
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  if (!E || !(E->getType()->isBooleanType() || E->getType()->isIntegralOrEnumerationType() ||
              E->getType()->isPointerType()))
    return std::nullopt;
  if (!isFlagName(E))
    return std::nullopt;
  return std::make_pair(E, Negated);
}

/// Whether two names (isFlagName) are the same: one variable, or the same fields of the same name.
bool sameFlag(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (const auto *DA = dyn_cast<DeclRefExpr>(A), *DB = dyn_cast<DeclRefExpr>(B); DA && DB)
    return DA->getDecl()->getCanonicalDecl() == DB->getDecl()->getCanonicalDecl();
  if (isa<CXXThisExpr>(A) && isa<CXXThisExpr>(B))
    return true;
  const auto *MA = dyn_cast<MemberExpr>(A), *MB = dyn_cast<MemberExpr>(B);
  return MA && MB && MA->getMemberDecl()->getCanonicalDecl() == MB->getMemberDecl()->getCanonicalDecl() &&
         sameFlag(MA->getBase(), MB->getBase());
}

/// Whether writing `Target` writes `Flag`: the same name, or an object that holds it (`opts =
/// other;` writes `opts.use_graph`).
bool writesFlag(const Expr *Target, const Expr *Flag) {
  for (const Expr *F = Flag; F;) {
    if (sameFlag(Target, F))
      return true;
    const auto *ME = dyn_cast<MemberExpr>(F->IgnoreParenImpCasts());
    F = ME ? ME->getBase() : nullptr;
  }
  return false;
}

/// Whether `Body` writes `Flag` (an assignment, compound assignment, increment or its address
/// taken): then two tests of it may disagree.
bool writes(const Stmt *S, const Expr *Flag) {
  if (!S)
    return false;
  if (const Expr *Target = writtenBy(S); Target && writesFlag(Target->IgnoreParenImpCasts(), Flag))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return writes(C, Flag); });
}

/// The operand of `Cond` whose test ends the block that a branch on `Cond` terminates: the
/// condition itself, or the right operand of its last `&&`/`||` (the left operands end blocks of
/// their own, terminated by their operator).
const Expr *lastOperand(const Expr *Cond) {
  const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  for (const auto *BO = dyn_cast_or_null<BinaryOperator>(E); BO && BO->isLogicalOp();
       BO = dyn_cast<BinaryOperator>(E))
    E = BO->getRHS()->IgnoreParenImpCasts();
  return E;
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
  // A test of the flag decides the branch of the block it ends: an `if` whose condition is the
  // test or ends with it (`if (x && !use_graph_)`), and a `&&`/`||` whose left operand it is
  // (`if (!use_graph_ && blocking)`). Successor 0 is taken when the test holds.
  auto decide = [&](const Stmt *Terminator, const Expr *Test) {
    if (auto F = flagOf(Test); F && sameFlag(F->first, Flag->first))
      Only.try_emplace(Terminator, (FlagHoldsInBegin != F->second) ? 0u : 1u);
  };
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(S); If && If != Guard)
      decide(If, lastOperand(If->getCond()));
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
      decide(BO, BO->getLHS());
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

bool sameFlagName(const Expr *A, const Expr *B) { return A && B && sameFlag(A, B); }

bool writesFlagIn(const Stmt *S, const Expr *Flag) { return writes(S, Flag); }

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

namespace {

/// Whether `Cond` tests the status `Status` names (a call, or a variable holding its result) and
/// holds when it is a success: CUDA's statuses are zero on success (`cudaSuccess`,
/// `CUDA_SUCCESS`), so `s != cudaSuccess` and `s` hold on a failure, `s == cudaSuccess` and `!s`
/// on a success. None when `Cond` is not such a test.
std::optional<bool> holdsOnSuccess(const Expr *Cond, llvm::function_ref<bool(const Expr *)> IsStatus,
                                   const ASTContext &Ctx) {
  const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  bool Negated = false;
  while (const auto *UO = dyn_cast_or_null<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_LNot)
      return std::nullopt;
    Negated = !Negated;
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  if (!E)
    return std::nullopt;
  if (IsStatus(E))
    return Negated; // a status tested for truth holds on a failure
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || !BO->isEqualityOp())
    return std::nullopt;
  auto isZero = [&](const Expr *K) {
    Expr::EvalResult R;
    return K->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
  };
  const Expr *L = BO->getLHS()->IgnoreParenImpCasts(), *R = BO->getRHS()->IgnoreParenImpCasts();
  if (!((IsStatus(L) && isZero(R)) || (IsStatus(R) && isZero(L))))
    return std::nullopt;
  return (BO->getOpcode() == BO_EQ) != Negated;
}

} // namespace

/// The `if` that tests the status the begin call `Call` returned, and the index of its branch
/// taken when the capture began (0: then, 1: else): the call in the condition (`if
/// (cudaStreamBeginCapture(s, m) != cudaSuccess)`), or the variable it initialised or was assigned
/// to, tested by the statement right after (`e = cudaStreamBeginCapture(s, m); if (e) {
/// fallback(); }`). The other branch runs with nothing begun.
std::optional<std::pair<const IfStmt *, unsigned>> branchOnStatus(const Stmt *Call, const Stmt *Body,
                                                                  const ASTContext &Ctx) {
  const auto *CE = dyn_cast_or_null<CallExpr>(Call);
  // A bool is no status: true is success (a helper that opens on true, branchOnResult).
  if (!CE || !CE->getType()->isIntegralOrEnumerationType() || CE->getType()->isBooleanType())
    return std::nullopt;
  ParentMap PM(const_cast<Stmt *>(Body));
  auto answer = [&](const IfStmt *If, llvm::function_ref<bool(const Expr *)> IsStatus)
      -> std::optional<std::pair<const IfStmt *, unsigned>> {
    auto OnSuccess = holdsOnSuccess(If->getCond(), IsStatus, Ctx);
    if (!OnSuccess)
      return std::nullopt;
    return std::make_pair(If, *OnSuccess ? 0u : 1u);
  };
  // The call in a condition.
  const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(Call));
  const Stmt *Child = Call;
  while (P && (isa<UnaryOperator>(P) || isa<BinaryOperator>(P)) && !isa<CompoundStmt>(P)) {
    Child = P;
    P = PM.getParentIgnoreParenImpCasts(const_cast<Stmt *>(P));
  }
  if (const auto *If = dyn_cast_or_null<IfStmt>(P); If && If->getCond() && Child == If->getCond()->IgnoreParenImpCasts())
    return answer(If, [&](const Expr *E) { return E == CE; });
  // The variable it initialised or was assigned to, tested by the next statement.
  const VarDecl *Status = nullptr;
  const Stmt *Holder = nullptr;
  for (const Stmt *Q = PM.getParent(const_cast<Stmt *>(Call)), *C = Call; Q; C = Q, Q = PM.getParent(Q)) {
    if (isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(Q))
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(Q); BO && BO->getOpcode() == BO_Assign && BO->getRHS()->IgnoreParenImpCasts() == CE)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
        Status = dyn_cast<VarDecl>(DRE->getDecl());
        Holder = PM.getParent(const_cast<BinaryOperator *>(BO));
        while (Holder && isa<ExprWithCleanups, ParenExpr>(Holder))
          Holder = PM.getParent(const_cast<Stmt *>(Holder));
        Holder = Holder && isa<CompoundStmt>(Holder) ? BO : nullptr;
      }
    if (const auto *DS = dyn_cast<DeclStmt>(Q); DS && DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()); VD && VD->getInit() && VD->getInit()->IgnoreParenImpCasts() == CE) {
        Status = VD;
        Holder = DS;
      }
    (void)C;
    break;
  }
  const auto *Block = Holder ? dyn_cast_or_null<CompoundStmt>(PM.getParent(const_cast<Stmt *>(Holder))) : nullptr;
  if (!Status || !Block)
    return std::nullopt;
  const auto *It = llvm::find(Block->body(), Holder);
  if (It == Block->body_end() || std::next(It) == Block->body_end())
    return std::nullopt;
  if (const auto *If = dyn_cast<IfStmt>(*std::next(It)))
    return answer(If, [&](const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && DRE->getDecl() == Status;
    });
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
  if (!OnTrue && Begin)
    if (auto Branch = branchOnStatus(Begin, FD.getBody(), FD.getASTContext()))
      Only.try_emplace(Branch->first, Branch->second);
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
