// User-written lazy initialisation (LazyInit.h). Invariant: a call counts as lazy only when the
// state its guard reads is written by the guarded code itself, so the guard is false the next
// time the function runs on the same object; a guard on anything else (a parameter, a flag set
// elsewhere) decides nothing.
#include "LazyInit.h"

#include "lib/StatementParents.h"
#include "lib/WrittenBy.h"

#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <functional>

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

/// Whether `S` writes `State`: assigns it, increments it or takes its address (`cudaMalloc(&ws_,
/// n)`, `ncclCommInitRank(&comm_, ...)`).
bool writesState(const Stmt *S, const ValueDecl *State) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const ValueDecl *V = stateNamed(writtenBy(S)); V && V->getCanonicalDecl() == State)
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return writesState(C, State); });
}

/// Whether `S` assigns `State` from something that is not a constant, or takes its address: a
/// capacity grown to what was asked (`capacity_ = bytes;`), not a counter reset (`count_ = 0;`).
bool growsState(const Stmt *S, const ValueDecl *State, const ASTContext &Ctx) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const ValueDecl *V = stateNamed(writtenBy(S)); V && V->getCanonicalDecl() == State) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (!BO || !BO->getRHS()->isEvaluatable(Ctx))
      return true;
  }
  return llvm::any_of(S->children(), [&](const Stmt *C) { return growsState(C, State, Ctx); });
}

/// Whether `E` is zero or null as a constant (`nullptr`, `0`, `false`).
bool isZero(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  Expr::EvalResult R;
  return E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
}

/// The state a test in `Cond` asks "not made yet?" or "too small?" of, which `Guarded` then
/// makes or grows: `!ws_`, `ws_ == nullptr` (made), `bytes > capacity_` (grown from what was
/// asked); an operand of `&&`/`||` counts. A counter compared and reset (`count_ >= 100`,
/// `count_ = 0`) runs again later, so it is not one.
const ValueDecl *stateInitialised(const Expr *Cond, llvm::ArrayRef<const Stmt *> Guarded, const ASTContext &Ctx) {
  const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  for (const auto *UO = dyn_cast_or_null<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot;
       UO = dyn_cast<UnaryOperator>(E))
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (!E)
    return nullptr;
  auto writtenByGuarded = [&](const ValueDecl *V) {
    return V && llvm::any_of(Guarded, [&](const Stmt *S) { return writesState(S, cast<ValueDecl>(V->getCanonicalDecl())); });
  };
  if (const ValueDecl *V = stateNamed(E); writtenByGuarded(V))
    return V; // tested for truth
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return nullptr;
  if (BO->isLogicalOp()) {
    if (const ValueDecl *V = stateInitialised(BO->getLHS(), Guarded, Ctx))
      return V;
    return stateInitialised(BO->getRHS(), Guarded, Ctx);
  }
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (BO->isEqualityOp()) {
    const ValueDecl *V = isZero(R, Ctx) ? stateNamed(L) : isZero(L, Ctx) ? stateNamed(R) : nullptr;
    return writtenByGuarded(V) ? V : nullptr;
  }
  if (BO->isRelationalOp())
    for (const ValueDecl *V : {stateNamed(L), stateNamed(R)})
      if (V && llvm::any_of(Guarded, [&](const Stmt *S) { return growsState(S, cast<ValueDecl>(V->getCanonicalDecl()), Ctx); }))
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
const ValueDecl *earlyReturnGuard(const CompoundStmt &Block, const Stmt *Child, const ASTContext &Ctx) {
  auto Pos = llvm::find(Block.body(), Child);
  for (auto It = Block.body_begin(); It != Pos; ++It) {
    const auto *If = dyn_cast<IfStmt>(*It);
    if (!If || If->getElse() || !onlyReturns(If->getThen()))
      continue;
    llvm::SmallVector<const Stmt *, 8> Rest(std::next(It), Block.body_end());
    if (const ValueDecl *V = stateInitialised(If->getCond(), Rest, Ctx))
      return V;
  }
  return nullptr;
}

/// The static local whose initialiser holds `S` (`static Handle h = makeHandle();`), with the
/// function that declares it, or none.
std::optional<LazyInit> staticLocalInitialising(const Stmt &S, ASTContext &Ast) {
  DynTypedNode N = DynTypedNode::create(S);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Parents = Ast.getParents(N);
    if (Parents.empty())
      return std::nullopt;
    N = Parents[0];
    if (N.get<LambdaExpr>())
      return std::nullopt;
    if (const auto *VD = N.get<VarDecl>()) {
      if (!VD->isStaticLocal())
        continue; // an ordinary local's initialiser runs every time
      if (const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext()))
        return LazyInit{Owner, VD};
      return std::nullopt;
    }
    if (!N.get<Stmt>())
      return std::nullopt;
  }
  return std::nullopt;
}

/// For `S` in a constructor of a singleton — a class whose constructors are all private or
/// protected and that its own methods make only as static locals (`static Ctx &Instance() {
/// static Ctx c; return c; }`) — that static local: the constructor runs once, on the first call
/// of the method.
std::optional<LazyInit> singletonInitialising(const Stmt &S, ASTContext &Ast) {
  const Stmt *Body = enclosingBody(S, Ast);
  if (!Body)
    return std::nullopt;
  DynTypedNodeList Parents = Ast.getParents(*Body);
  const auto *Ctor = Parents.empty() ? nullptr : Parents[0].get<CXXConstructorDecl>();
  const CXXRecordDecl *Class = Ctor ? Ctor->getParent() : nullptr;
  if (!Class || llvm::any_of(Class->ctors(), [](const CXXConstructorDecl *C) {
        return C->getAccess() == AS_public && !C->isDeleted() && !C->isImplicit(); // a copy runs no body
      }))
    return std::nullopt;
  std::optional<LazyInit> Found;
  bool Other = false;
  std::function<void(const Stmt *, const FunctionDecl *)> Walk = [&](const Stmt *X, const FunctionDecl *In) {
    if (!X || Other)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(X))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit()) {
          const auto *Make = dyn_cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit());
          if (Make && Make->getConstructor()->getParent()->getCanonicalDecl() == Class->getCanonicalDecl()) {
            if (VD->isStaticLocal() && !Found)
              Found = LazyInit{In, VD};
            else
              Other = true; // made again each time, or in two places
            return;
          }
        }
    for (const Stmt *C : X->children())
      Walk(C, In);
  };
  for (const CXXMethodDecl *M : Class->methods())
    if (M->hasBody() && !isa<CXXConstructorDecl>(M))
      Walk(M->getBody(), M);
  return Other ? std::nullopt : Found;
}

} // namespace

std::optional<LazyInit> lazyInitOf(const Stmt &S, ASTContext &Ast) {
  if (std::optional<LazyInit> Static = staticLocalInitialising(S, Ast))
    return Static;
  const ValueDecl *State = nullptr;
  const Stmt *Child = &S;
  for (auto N = statementParent(DynTypedNode::create(S), Ast); N; N = statementParent(*N, Ast)) {
    const Stmt *P = N->get<Stmt>();
    if (isa<LambdaExpr>(P))
      return std::nullopt; // a lambda runs when it is called, not when its function runs
    if (!State)
      if (const auto *If = dyn_cast<IfStmt>(P); If && Child == If->getThen())
        State = stateInitialised(If->getCond(), {If->getThen()}, Ast);
    if (!State)
      if (const auto *Block = dyn_cast<CompoundStmt>(P))
        State = earlyReturnGuard(*Block, Child, Ast);
    Child = P;
  }
  if (!State)
    return singletonInitialising(S, Ast);
  DynTypedNodeList Parents = Ast.getParents(*Child);
  const auto *Owner = Parents.empty() ? nullptr : Parents[0].get<FunctionDecl>();
  if (!Owner)
    return std::nullopt;
  return LazyInit{Owner, State};
}

} // namespace graphify
