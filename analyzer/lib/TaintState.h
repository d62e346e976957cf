#pragma once
// The abstract state of the taint analysis at one program point, and its lattice operations.
// Kept apart from the interpreter so that the join and the fixpoint test can be read (and
// unit-tested) on their own.

#include "graphify/analyzer/TaintFacts.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <cstdint>
#include <utility>

namespace graphify {

/// How a host value depends on tensor data: through a read (Origin) and, inside a function
/// summary, through its parameters (bit i: parameter i). The empty value is clean.
struct TaintValue {
  /// A read inside the analyzed body (or in a callee whose summary says so).
  const TracedOrigin *Origin = nullptr;
  uint64_t Params = 0;
  /// A read that reached a parameter at some call site. It is reported inside the body but
  /// kept out of the body's summary, so that one tainted call does not taint every call.
  const TracedOrigin *Context = nullptr;
  /// Shapes only: any dimension may follow the values. A selection makes only its leading
  /// dimension value-dependent (`sel.size(1)` is static), until a layout change the packs do not
  /// describe dimension by dimension (view, reshape, permute, squeeze, flatten) or a call the
  /// analysis cannot see moves it (Dims says which follow otherwise).
  bool AnyDim = false;
  /// Shapes only, unless AnyDim: the dimensions that follow the values, one bit each (bit 0, the
  /// leading dimension, for a selection; `sel.t()` moves it to bit 1, `x.index_select(1, sel)`
  /// makes it bit 1). A dimension past the eighth is AnyDim.
  uint8_t Dims = 1;
  /// Shapes of summaries only: the parameters' shapes (Params) reach the value through a layout
  /// change that moves their dimensions (a transpose of a parameter), so a caller's followed
  /// dimensions of those arguments no longer say which of the result's follow.
  bool ParamDimsMoved = false;

  bool tainted() const { return Origin || Context; }
  bool empty() const { return !tainted() && !Params; }
  /// The origin to report: the body's own read first.
  const TracedOrigin *origin() const { return Origin ? Origin : Context; }
  bool sameKind(const TaintValue &O) const {
    return tainted() == O.tainted() && Params == O.Params && AnyDim == O.AnyDim &&
           (!tainted() || AnyDim || Dims == O.Dims) && ParamDimsMoved == O.ParamDimsMoved;
  }
  /// Whether a shape's dimension `D` (counted from 0) may follow the values.
  bool followsDim(int64_t D) const { return AnyDim || D < 0 || (D < 8 && ((Dims >> D) & 1)); }
};

/// Least upper bound: tainted if either side is; the first origin is kept for the notes. The
/// followed dimensions are those of either tainted side.
inline TaintValue join(TaintValue A, TaintValue B) {
  const uint8_t Dims = uint8_t((A.tainted() ? A.Dims : 0) | (B.tainted() ? B.Dims : 0));
  return {A.Origin ? A.Origin : B.Origin, A.Params | B.Params, A.Context ? A.Context : B.Context,
          A.AnyDim || B.AnyDim, Dims ? Dims : uint8_t(1), A.ParamDimsMoved || B.ParamDimsMoved};
}
/// `V` as a shape whose own followed dimensions are `Dims`: none makes it clean but for its
/// parameters' shapes (Params, which their callers' dimensions describe); one past the eighth,
/// any.
inline TaintValue withDims(TaintValue V, uint64_t Dims) {
  if (!Dims) {
    if (!V.Params)
      return {};
    V.Origin = V.Context = nullptr;
  }
  V.AnyDim = V.AnyDim || Dims > 0xff;
  V.Dims = (Dims & 0xff) ? uint8_t(Dims & 0xff) : uint8_t(1);
  return V;
}

/// A storage location: (variable, field). The variable is null for fields of `*this`; the field
/// is null for the variable as a whole (scalars, containers, whole structs).
using TaintKey = std::pair<const void *, const void *>;

/// The facts at one program point. Locals absent from `Values` are clean; fields of `*this`
/// absent from it have the TU-wide taint of the field (written anywhere, by any function).
struct TaintState {
  llvm::DenseMap<TaintKey, TaintValue> Values;
  /// Tensor locals that provably hold a boolean mask here.
  llvm::DenseSet<const void *> Masks;
  /// Tensor locals that provably hold a tensor in pageable host memory here, with the call that
  /// put it there (a host factory, a copy to the CPU): copying them to the device synchronises.
  llvm::DenseMap<const void *, const clang::Expr *> HostTensors;
  /// Tensor locals (and locals holding tensors: containers) whose shape may follow tensor
  /// values: a selection (nonzero, boolean indexing) or anything computed from one. Their sizes
  /// are values read from tensor data. The value's Origin is the selection (or a shape passed in
  /// at a call site: Context); Params bit i: the shape of tensor parameter i (for summaries).
  llvm::DenseMap<const void *, TaintValue> DynamicShapes;
  /// Tensor fields of *this that this body rebound on every path to here, since the last call that
  /// may rebind them (FunctionSummary::RebindsTensorFields), with the shape of what they hold:
  /// that one, not the TU-wide one (`op = outputs[i]; n = op.size(0);` reads the output's size,
  /// whatever a later `op = nms(...)` stores). A must-fact: intersection at joins.
  llvm::DenseMap<const void *, TaintValue> ThisFieldShapes;
  /// Conditions that decided, earlier on this path, whether it goes on: a branch on tensor data
  /// that left the enclosing loop body (`if (s < t) continue;`) or the function (`return`).
  /// Everything after it runs a data-dependent number of times; the loop's part is dropped where
  /// the loop ends, the function's part holds to the end. (A `break` is part of its loop's trip
  /// count instead: what follows it runs in every iteration up to the last.)
  TaintValue LoopExits, FunctionExits;
  /// Where a local host container was emptied: the exits taken before, and how many conditions
  /// and loops enclosed the emptying.
  struct Emptying {
    TaintValue LoopExits, FunctionExits;
    size_t Depth = 0;
  };
  /// Local host containers emptied on every path here (`v.clear()`): what is added after it counts
  /// the data-dependent exits and conditions from there, not from the declaration, so that a list
  /// cleared and refilled to a static count each step keeps a static length however many steps
  /// ran.
  llvm::DenseMap<const void *, Emptying> Emptied;
  /// Host containers (locals) known to hold an element here: after `if (v.empty()) return;`
  /// until the next write of their length. Their emptiness is no longer a question of the data.
  /// A must-fact (intersection at joins).
  llvm::DenseSet<const void *> NonEmpty;
  /// No path reaches this point (after return, break, continue, throw).
  bool Unreachable = false;

  /// The state of no path at all (bottom), the neutral element of joinStates.
  static TaintState unreachable() {
    TaintState S;
    S.Unreachable = true;
    return S;
  }

  TaintValue get(TaintKey K) const {
    auto It = Values.find(K);
    return It == Values.end() ? TaintValue{} : It->second;
  }
};

/// The state where two paths meet: taint is the union, mask-ness the intersection.
TaintState joinStates(const TaintState &A, const TaintState &B);
/// Whether two states hold the same facts (ignoring which origin explains a taint): the
/// termination test of loop fixpoints.
bool sameFacts(const TaintState &A, const TaintState &B);

} // namespace graphify
