// Lookups over the recorded facts. Facts are recorded on the exact node the analysis evaluated;
// queries come from checks and the rewriter holding the node as written, so every lookup also
// tries the node with its implicit wrappers removed.
#include "graphify/analyzer/TaintFacts.h"
#include "graphify/analyzer/HostOrigin.h"

namespace graphify {

using namespace clang;

template <typename Fn> static auto lookThrough(const Expr *E, Fn &&Lookup) -> decltype(Lookup(E)) {
  for (const Expr *Cur : {E, E ? E->IgnoreParenImpCasts() : nullptr, skipValueWrappers(E)})
    if (Cur)
      if (auto R = Lookup(Cur))
        return R;
  return {};
}

const TracedOrigin *TaintFacts::tracedTaintOf(const Expr *E) const {
  return lookThrough(E, [&](const Expr *X) -> const TracedOrigin * {
    auto It = Taint.find(X);
    return It == Taint.end() ? nullptr : It->second;
  });
}

const TracedOrigin *TaintFacts::lengthTaintOf(const Expr *E) const {
  return lookThrough(E, [&](const Expr *X) -> const TracedOrigin * { return Lengths.lookup(X); });
}

bool TaintFacts::isBoolMask(const Expr *E) const {
  return lookThrough(E, [&](const Expr *X) { return Masks.contains(X); });
}

const Expr *TaintFacts::hostResidentOrigin(const Expr *E) const {
  return lookThrough(E, [&](const Expr *X) { return HostResident.lookup(X); });
}

const Expr *TaintFacts::hostMemoryOrigin(const Expr *E) const {
  return findHostResidentOrigin(E, *Api, [&](const Expr *Read) { return hostResidentOrigin(Read); });
}

void TaintFacts::recordHostResident(const Expr *E, const Expr *Origin) {
  if (Origin)
    HostResident[E] = Origin;
  else
    HostResident.erase(E);
}

std::vector<const ApiEntry *> TaintFacts::entriesFor(const Expr *CallOrConstruct) const {
  if (auto C = Api->resolve(skipValueWrappers(CallOrConstruct)))
    return C->Entries;
  if (auto C = Api->resolve(CallOrConstruct))
    return C->Entries;
  return {};
}

void TaintFacts::recordTaint(const Expr *E, const TracedOrigin *O) {
  if (O)
    Taint.try_emplace(E, O); // the first (shortest) path wins; later loop rounds only lengthen it
}

void TaintFacts::recordLength(const Expr *E, const TracedOrigin *O) {
  if (O)
    Lengths.try_emplace(E, O);
}

void TaintFacts::replaceTaint(const Expr *E, const TracedOrigin *O) {
  if (O)
    Taint[E] = O;
  else
    Taint.erase(E);
}

void TaintFacts::clearExpressionFacts() {
  Taint.clear();
  Masks.clear();
  Lengths.clear();
  Used.clear();
  HostResident.clear();
  Handlers.clear();
}

} // namespace graphify
