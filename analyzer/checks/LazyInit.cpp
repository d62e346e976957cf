// User-written lazy initialisation (LazyInit.h). Invariant: a call counts as lazy only when the
// state its guard reads is written by the guarded code itself, so the guard is false the next
// time the function runs on the same object; a guard on anything else (a parameter, a flag set
// elsewhere) decides nothing.
#include "LazyInit.h"

#include "StatementParents.h"
#include "lib/WrittenBy.h"

#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>

namespace graphify {

using namespace clang;

std::string LazyInit::key() const { return "lazy:" + Owner->getQualifiedNameAsString(); }

namespace {

/// The field of `this` or the global that `E` names, if any.
const ValueDecl *stateNamed(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->hasGlobalStorage() && !VD->isStaticLocal())
      return VD;
  return nullptr;
}

/// The fields and globals `S` reads.
void statesRead(const Stmt *S, llvm::SmallVectorImpl<const ValueDecl *> &Out) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    if (const ValueDecl *V = stateNamed(E)) {
      Out.push_back(cast<ValueDecl>(V->getCanonicalDecl()));
      return;
    }
  for (const Stmt *C : S->children())
    statesRead(C, Out);
}

/// Whether `S` writes `State`: assigns it, increments it or takes its address (`cudaMalloc(&ws_,
/// n)`, `ncclCommInitRank(&comm_, ...)`).
bool writesState(const Stmt *S, const ValueDecl *State) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const ValueDecl *V = stateNamed(writtenBy(S)); V && V->getCanonicalDecl() == State)
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return writesState(C, State); });
}

/// The state `Cond` reads that `Guarded` writes, if any.
const ValueDecl *stateInitialised(const Expr *Cond, llvm::ArrayRef<const Stmt *> Guarded) {
  llvm::SmallVector<const ValueDecl *, 4> Read;
  statesRead(Cond, Read);
  for (const ValueDecl *V : Read)
    if (llvm::any_of(Guarded, [&](const Stmt *S) { return writesState(S, V); }))
      return V;
  return nullptr;
}

/// Whether `S` only leaves the function (`return;`, `{ return false; }`).
bool onlyReturns(const Stmt *S) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
    return Block->size() == 1 && onlyReturns(Block->body_front());
  return isa_and_nonnull<ReturnStmt>(S);
}

/// The state an early `if (...) return;` before `Child` in `Block` tests and the rest of the
/// block (from the `if` on) writes.
const ValueDecl *earlyReturnGuard(const CompoundStmt &Block, const Stmt *Child) {
  auto Pos = llvm::find(Block.body(), Child);
  for (auto It = Block.body_begin(); It != Pos; ++It) {
    const auto *If = dyn_cast<IfStmt>(*It);
    if (!If || If->getElse() || !onlyReturns(If->getThen()))
      continue;
    llvm::SmallVector<const Stmt *, 8> Rest(std::next(It), Block.body_end());
    if (const ValueDecl *V = stateInitialised(If->getCond(), Rest))
      return V;
  }
  return nullptr;
}

} // namespace

std::optional<LazyInit> lazyInitOf(const Stmt &S, ASTContext &Ast) {
  const ValueDecl *State = nullptr;
  const Stmt *Child = &S;
  for (auto N = statementParent(DynTypedNode::create(S), Ast); N; N = statementParent(*N, Ast)) {
    const Stmt *P = N->get<Stmt>();
    if (isa<LambdaExpr>(P))
      return std::nullopt; // a lambda runs when it is called, not when its function runs
    if (!State)
      if (const auto *If = dyn_cast<IfStmt>(P); If && Child == If->getThen())
        State = stateInitialised(If->getCond(), {If->getThen()});
    if (!State)
      if (const auto *Block = dyn_cast<CompoundStmt>(P))
        State = earlyReturnGuard(*Block, Child);
    Child = P;
  }
  if (!State)
    return std::nullopt;
  DynTypedNodeList Parents = Ast.getParents(*Child);
  const auto *Owner = Parents.empty() ? nullptr : Parents[0].get<FunctionDecl>();
  if (!Owner)
    return std::nullopt;
  return LazyInit{Owner, State};
}

} // namespace graphify
