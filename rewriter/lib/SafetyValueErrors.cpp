// Ops that fail on values. A where() evaluates both of its arms, so an op that raises for some
// input values (an index out of range, a class target outside [0, C), an integer division by
// zero) would now run on the side the condition excluded — the very side on which the original
// author guarded it (`if (ids.max().item<int64_t>() < n) return w.index_select(0, ids);`). And
// an op that draws random numbers, run on a side the original did not take, shifts every later
// draw. Which ops these are is rule-pack data (tags raises_on_values and random); this file only
// decides when an index list makes indexing one of them.
#include "ExprUtil.h"
#include "Safety.h"

using namespace clang;

namespace graphify::rewriter {

/// Whether `E` is provably a boolean tensor: a comparison or logical op (bool_output), a
/// negation or conjunction of such, or a local initialised by one. Unknown means no.
static bool isBooleanTensor(const Expr *E, const ApiModel &Api, unsigned Depth) {
  E = stripAll(E);
  if (!E || Depth > 4)
    return false;
  if (const VarDecl *V = referencedVar(E))
    return V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
           isBooleanTensor(V->getInit(), Api, Depth + 1);
  if (Api.callHasTag(E, "bool_output"))
    return true;
  std::string Name = calleeName(E);
  if (Name != "operator~" && Name != "operator!" && Name != "logical_not" && Name != "operator&" &&
      Name != "operator|")
    return false;
  auto Operands = callOperands(E);
  return !Operands.empty() &&
         llvm::all_of(Operands, [&](const Expr *Op) { return isBooleanTensor(Op, Api, Depth + 1); });
}

bool isProvablyBoolean(const Expr *E, const ApiModel &Api) { return isBooleanTensor(E, Api, 0); }

namespace {

/// For an entry with index lists: whether one of them holds a tensor that is not a boolean
/// mask (integer indices, which raise when out of range). Slices, integers and masks raise only
/// for shapes, which are the same on both sides of a where().
bool indexListMayRaise(const Expr *Call, const ApiEntry &Entry, const ApiModel &Api) {
  for (unsigned Pos : Entry.IndexArgs) {
    const Expr *List = Api.argAt(Call, Pos);
    if (!List)
      continue;
    auto Elements = bracedListElements(List);
    if (Elements.empty())
      return true; // a list built elsewhere: what it holds is unknown
    for (const Expr *E : Elements)
      if (Api.isTensorExpr(E) && !isProvablyBoolean(E, Api))
        return true;
  }
  return false;
}

} // namespace

std::optional<std::string> valueHazard(const Expr *Call, const ApiModel &Api) {
  std::string Name = calleeName(Call);
  if (Api.callHasTag(Call, "random"))
    return "calls '" + Name + "', which draws random numbers: run where the original did not, it would change "
           "every later draw";
  for (const ApiEntry *Entry : Api.entriesFor(Call)) {
    if (!Entry->hasTag("raises_on_values"))
      continue;
    if (!Entry->IndexArgs.empty() && !indexListMayRaise(Call, *Entry, Api))
      continue;
    return "calls '" + Name + "', which raises on some values of its inputs and would now run where the " +
           "condition excluded it";
  }
  return std::nullopt;
}

} // namespace graphify::rewriter
