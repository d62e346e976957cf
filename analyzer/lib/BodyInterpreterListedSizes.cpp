// Shapes a reshape spells out. `sel.view({-1, 6})` of a selection has rows as many as the data
// lets through and six columns: the dimensions the braced list gives as constants or host values
// that follow no tensor data are fixed whatever `sel` holds; only an inferred one (`-1`) takes
// what is left of the selection's elements. Without this, any layout change made every
// dimension follow the data, and `masks.view({-1, mh, mw}).size(2)` read as a selection's size.
#include "BodyInterpreter.h"

#include "BracedSizes.h"

namespace graphify::taint {

using namespace clang;

std::optional<TaintValue> BodyInterpreter::listedShape(const ApiCall &C, unsigned Depth) {
  if (C.Args.empty())
    return std::nullopt;
  for (const ApiEntry *Entry : C.Entries) {
    if (!Entry->hasTag("size_argument") || !Entry->hasTag("same_elements") || Entry->SizeArgs.size() != 1)
      continue;
    const Expr *Sizes = C.arg(Entry->SizeArgs.front());
    const InitListExpr *IL = Sizes ? bracedSizes(Sizes) : nullptr;
    if (!IL || IL->getNumInits() == 0)
      continue;
    TaintValue Self = dynamicShape(C.Args[0], Depth + 1);
    if (Self.empty())
      return TaintValue{};
    // Sizes read from tensor data are sizedByData's (evaluated before): here each listed size
    // is a constant, a host value that follows no data (fixed), or a negative constant, which
    // stands for what the elements leave (a view, a reshape) or self's own size (expand).
    uint64_t Dims = 0;
    for (unsigned I = 0; I < IL->getNumInits(); ++I)
      if (std::optional<int64_t> D = constantDim(IL->getInit(I)); D && *D < 0)
        Dims |= uint64_t(1) << I;
    if (!Dims)
      return TaintValue{};
    // A caller's followed dimensions of a parameter no longer say which of these follow.
    Self.ParamDimsMoved = Self.ParamDimsMoved || Self.Params;
    Self.AnyDim = false;
    return withDims(Self, Dims);
  }
  return std::nullopt;
}

} // namespace graphify::taint
