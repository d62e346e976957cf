// Emptiness tested by letting an access raise (`try { best = keep.index({0}); } catch (...)`).
// Invariant: a handler runs under a data-dependent condition only when an access written in its
// try block may raise for a reason that follows the data; accesses in callees, and raises the
// packs do not describe, leave it clean.
#include "BodyInterpreter.h"
#include "StatementParents.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

namespace graphify::taint {

using namespace clang;

namespace {

/// Whether the position argument `Arg` holds an integer (`0`, `i`, `{0}`, `{Slice(), 1}`), not
/// only masks, index tensors or slices (a pack's construct such as `Slice(0, 5)` clamps).
bool givesPosition(const Expr *Arg, const ApiResolver &Api, unsigned Depth = 0) {
  if (!Arg || Depth > 8)
    return false;
  const Expr *Inner = skipValueWrappers(Arg);
  const CXXConstructExpr *Constructed = nullptr;
  auto Parts = argumentParts(Inner, Constructed);
  if (!Parts)
    return Inner->getType()->isIntegerType() && !Inner->getType()->isBooleanType();
  if (Constructed)
    if (auto Call = Api.resolve(Constructed); Call && !Call->Entries.empty())
      return false;
  return llvm::any_of(*Parts, [&](const Expr *P) { return givesPosition(P, Api, Depth + 1); });
}

/// The variable `E` names (`i`, `keep`), or null.
const VarDecl *namedVariable(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(skipValueWrappers(E)) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Whether `Body` may give `VD` a new value other than through `Allowed` (a loop's increment).
bool mayChange(const Stmt *Body, const VarDecl *VD, const Stmt *Allowed = nullptr) {
  if (!Body || Body == Allowed)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(Body); BO && BO->isAssignmentOp() && namedVariable(BO->getLHS()) == VD)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(Body); UO && UO->isIncrementDecrementOp() &&
                                                      namedVariable(UO->getSubExpr()) == VD)
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Body); Op && Op->isAssignmentOp() && namedVariable(Op->getArg(0)) == VD)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(Body); UO && UO->getOpcode() == UO_AddrOf && namedVariable(UO->getSubExpr()) == VD)
    return true;
  return llvm::any_of(Body->children(), [&](const Stmt *C) { return mayChange(C, VD, Allowed); });
}

/// Whether the position `Index` of an access to dimension `Dim` of `Object` is the counter of an
/// enclosing loop bounded by that very length (`for (i = 0; i < keep.size(0); i++) keep[i]`),
/// neither changed in the loop but by its increment: the access always fits.
bool boundedByLoop(const Expr *Access, const Expr *Index, const Expr *Object, int64_t Dim, const ApiResolver &Api,
                   ASTContext &Ast) {
  const VarDecl *I = namedVariable(Index), *Of = namedVariable(Object);
  if (!I || !Of || !I->getType()->isIntegerType())
    return false;
  for (auto N = statementParent(DynTypedNode::create(*Access), Ast); N; N = statementParent(*N, Ast)) {
    const auto *For = N->get<ForStmt>();
    const auto *Cond = For && For->getCond() ? dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts()) : nullptr;
    if (!Cond)
      continue;
    const bool Less = Cond->getOpcode() == BO_LT, Greater = Cond->getOpcode() == BO_GT;
    const Expr *Counter = Less ? Cond->getLHS() : Greater ? Cond->getRHS() : nullptr;
    const Expr *Bound = Less ? Cond->getRHS() : Greater ? Cond->getLHS() : nullptr;
    if (!Counter || namedVariable(Counter) != I)
      continue;
    auto Size = Api.resolve(skipValueWrappers(Bound));
    if (!Size || !Size->hasTag("shape_query") || Size->Args.size() != 2 || namedVariable(Size->Args[0]) != Of)
      return false;
    std::optional<llvm::APSInt> D = skipValueWrappers(Size->Args[1])->getIntegerConstantExpr(Ast);
    // Counting up from a non-negative start is left to the loops authors write: `i = 0`.
    return D && *D == Dim && !mayChange(For->getBody(), I) && !mayChange(For->getBody(), Of) &&
           !mayChange(For->getInc(), Of);
  }
  return false;
}

} // namespace

void BodyInterpreter::noteRaise(const ApiCall &C, const Expr *E, llvm::ArrayRef<TaintValue> ArgV) {
  if (RaiseConditions.empty() || C.Args.empty())
    return;
  TaintValue Raises;
  bool Accesses = C.hasTag("raises_out_of_range");
  // The dimension a position addresses: the entry's dimension argument (`select(1, i)`), the
  // leading one otherwise (`x[i]`, `x.index({i})`); unknown when it is not a constant.
  std::optional<int64_t> Dim = Accesses ? std::nullopt : std::optional<int64_t>(0);
  for (const ApiEntry *Entry : C.Entries)
    if (Entry->hasTag("position_argument"))
      for (unsigned Pos : Entry->PositionArgs)
        if (givesPosition(C.arg(Pos), Api)) {
          if (Entry->DimArgs.empty() && !C.Args.empty() &&
              boundedByLoop(E, C.arg(Pos), C.Args[0], 0, Api, Ctx()))
            continue;
          Accesses = true;
          if (!Entry->DimArgs.empty())
            Dim = C.arg(Entry->DimArgs.front()) ? constantDim(C.arg(Entry->DimArgs.front())) : std::nullopt;
          if (Pos < ArgV.size())
            Raises = join(Raises, ArgV[Pos]); // a position read from a tensor
        }
  if (!Accesses)
    return;
  const Expr *Object = C.Args[0];
  if (Api.isTensor(Object->getType())) {
    TaintValue Shape = dynamicShape(Object);
    // Only the addressed dimension's length decides whether the access fits: the first row of
    // a stack of per-image selections is there whatever the data.
    if (Dim && !Shape.followsDim(*Dim))
      Shape.Origin = Shape.Context = nullptr; // a parameter's shape: its caller's dimensions decide
    Shape.AnyDim = false; // a host fact now: whether the access fits
    Shape.Dims = 1;
    Raises = join(Raises, Shape);
  } else if (auto Parts = containerParts(Object)) {
    Raises = join(Raises, Parts->second); // the container's length
  }
  if (Raises.tainted())
    RaiseConditions.back() = join(RaiseConditions.back(), step(Raises, C.NameLoc, E, "'" + C.Name + "' raises here when nothing is there"));
}

void BodyInterpreter::tryStatement(const CXXTryStmt &Try) {
  TaintState Before = S;
  RaiseConditions.emplace_back();
  stmt(Try.getTryBlock());
  TaintValue Raises = std::move(RaiseConditions.back());
  RaiseConditions.pop_back();
  use(Raises);
  TaintState After = S;
  Control.push_back(Raises);
  for (unsigned I = 0; I < Try.getNumHandlers(); ++I) {
    const CXXCatchStmt *Handler = Try.getHandler(I);
    Facts.recordHandler(Handler, Raises.origin());
    S = joinStates(Before, After);
    S.Unreachable = false;
    stmt(Handler->getHandlerBlock());
    After = joinStates(After, S);
  }
  Control.pop_back();
  S = After;
}

} // namespace graphify::taint
