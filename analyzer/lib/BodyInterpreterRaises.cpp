// Emptiness tested by letting an access raise (`try { best = keep.index({0}); } catch (...)`).
// Invariant: a handler runs under a data-dependent condition only when an access written in its
// try block may raise for a reason that follows the data; accesses in callees, and raises the
// packs do not describe, leave it clean.
#include "BodyInterpreter.h"

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

} // namespace

void BodyInterpreter::noteRaise(const ApiCall &C, const Expr *E, llvm::ArrayRef<TaintValue> ArgV) {
  if (RaiseConditions.empty() || C.Args.empty())
    return;
  TaintValue Raises;
  bool Accesses = C.hasTag("raises_out_of_range");
  for (const ApiEntry *Entry : C.Entries)
    if (Entry->hasTag("position_argument"))
      for (unsigned Pos : Entry->PositionArgs)
        if (givesPosition(C.arg(Pos), Api)) {
          Accesses = true;
          if (Pos < ArgV.size())
            Raises = join(Raises, ArgV[Pos]); // a position read from a tensor
        }
  if (!Accesses)
    return;
  const Expr *Object = C.Args[0];
  if (Api.isTensor(Object->getType())) {
    TaintValue Shape = dynamicShape(Object);
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
