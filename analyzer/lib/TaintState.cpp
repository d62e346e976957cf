// The lattice of TaintState. Taint is a may-fact (a value *may* depend on tensor data: union at
// joins), mask-ness and host residency are must-facts (a tensor is *provably* boolean, provably
// in host memory: intersection), so that a finding never rests on a guess about a dtype or a
// device.
#include "TaintState.h"

namespace graphify {

TaintState joinStates(const TaintState &A, const TaintState &B) {
  if (A.Unreachable)
    return B;
  if (B.Unreachable)
    return A;
  TaintState R;
  auto Merge = [&](const TaintState &X, const TaintState &Y) {
    for (const auto &[Key, Value] : X.Values) {
      auto It = Y.Values.find(Key);
      if (It != Y.Values.end()) {
        R.Values[Key] = join(Value, It->second);
        continue;
      }
      // Absent on the other side means clean for a local, and "the TU-wide field taint" for a
      // field of *this; keeping a tainted value is an over-approximation of both.
      if (Key.first || !Value.empty())
        R.Values[Key] = join(R.Values.lookup(Key), Value);
    }
  };
  Merge(A, B);
  Merge(B, A);
  for (const void *M : A.Masks)
    if (B.Masks.contains(M))
      R.Masks.insert(M);
  for (const void *V : A.NonEmpty)
    if (B.NonEmpty.contains(V))
      R.NonEmpty.insert(V);
  // A null origin is a list that holds no tensor yet: joined with one in host memory, the list
  // is in host memory.
  for (const auto &[Local, Origin] : A.HostTensors)
    if (auto It = B.HostTensors.find(Local); It != B.HostTensors.end())
      R.HostTensors[Local] = Origin ? Origin : It->second;
  // Emptied is a must-fact too, and the exits taken before the emptying must be the same ones
  // on both paths: otherwise the declaration is the safe place to count from.
  auto SameExits = [](const TaintValue &X, const TaintValue &Y) {
    return X.Origin == Y.Origin && X.Context == Y.Context && X.Params == Y.Params;
  };
  for (const auto &[Local, At] : A.Emptied)
    if (auto It = B.Emptied.find(Local); It != B.Emptied.end() && SameExits(At.LoopExits, It->second.LoopExits) &&
                                         SameExits(At.FunctionExits, It->second.FunctionExits))
      R.Emptied[Local] = {At.LoopExits, At.FunctionExits, std::min(At.Depth, It->second.Depth)};
  R.LoopExits = join(A.LoopExits, B.LoopExits);
  R.FunctionExits = join(A.FunctionExits, B.FunctionExits);
  for (const auto &[Field, Shape] : A.ThisFieldShapes)
    if (auto It = B.ThisFieldShapes.find(Field); It != B.ThisFieldShapes.end())
      R.ThisFieldShapes[Field] = join(Shape, It->second);
  R.DynamicShapes = A.DynamicShapes;
  for (const auto &[Key, Shape] : B.DynamicShapes)
    R.DynamicShapes[Key] = join(R.DynamicShapes.lookup(Key), Shape);
  return R;
}

bool sameFacts(const TaintState &A, const TaintState &B) {
  if (A.Unreachable != B.Unreachable)
    return false;
  auto Covered = [](const TaintState &X, const TaintState &Y) {
    for (const auto &[Key, Value] : X.Values) {
      auto It = Y.Values.find(Key);
      TaintValue Other = It == Y.Values.end() ? TaintValue{} : It->second;
      if (!Value.sameKind(Other))
        return false;
    }
    return true;
  };
  if (!Covered(A, B) || !Covered(B, A))
    return false;
  if (!A.LoopExits.sameKind(B.LoopExits) || !A.FunctionExits.sameKind(B.FunctionExits))
    return false;
  if (A.Masks.size() != B.Masks.size() || A.DynamicShapes.size() != B.DynamicShapes.size())
    return false;
  for (const auto &[Key, Shape] : A.DynamicShapes)
    if (auto It = B.DynamicShapes.find(Key); It == B.DynamicShapes.end() || !Shape.sameKind(It->second))
      return false;
  for (const void *M : A.Masks)
    if (!B.Masks.contains(M))
      return false;
  if (A.NonEmpty.size() != B.NonEmpty.size())
    return false;
  for (const void *V : A.NonEmpty)
    if (!B.NonEmpty.contains(V))
      return false;
  if (A.Emptied.size() != B.Emptied.size())
    return false;
  for (const auto &[Local, At] : A.Emptied)
    if (auto It = B.Emptied.find(Local); It == B.Emptied.end() || !At.LoopExits.sameKind(It->second.LoopExits) ||
                                         !At.FunctionExits.sameKind(It->second.FunctionExits) ||
                                         At.Depth != It->second.Depth)
      return false;
  if (A.HostTensors.size() != B.HostTensors.size() || A.ThisFieldShapes.size() != B.ThisFieldShapes.size())
    return false;
  for (const auto &[Field, Shape] : A.ThisFieldShapes)
    if (auto It = B.ThisFieldShapes.find(Field); It == B.ThisFieldShapes.end() || !Shape.sameKind(It->second))
      return false;
  for (const auto &KV : A.HostTensors)
    if (auto It = B.HostTensors.find(KV.first); It == B.HostTensors.end() || !KV.second != !It->second)
      return false;
  return true;
}

} // namespace graphify
