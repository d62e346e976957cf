#pragma once
/// \file
/// The rendezvous of whole-program mode (docs/architecture.md, "Whole-program mode"). Each
/// translation unit runs on a thread of its own (keeping its AST, or parsing again for each
/// analysis when there are more units than CPU slots); the session bounds how many
/// of them use a CPU at once (-j), collects each unit's exported facts at a barrier, merges them in
/// unit order into the program's facts, and tells each unit whether a fact it looked up changed
/// (analyse again) or whether the program is settled (run the checks).
///
/// \code
///   graphify::ProgramSession Session(Units.size(), Jobs);
///   // on unit I's thread:
///   Session.acquireCpu();
///   ... parse; inside the AST callback:
///   const graphify::ProgramFacts *P =
///       Session.settle(I, [&](const graphify::ProgramFacts *Now) { return Unit.analyze(Now); });
///   ... run the checks; after the parse:
///   Session.leave(I);
///   Session.releaseCpu();
/// \endcode

#include "graphify/analyzer/ProgramFacts.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

namespace graphify {

class ProgramSession {
public:
  /// `MergeOrder`: the unit indices in the order their facts are merged (empty: index order).
  ProgramSession(size_t Units, unsigned CpuSlots, std::vector<size_t> MergeOrder = {});

  /// Waits for one of the CPU slots (the -j bound) and holds it.
  void acquireCpu();
  void releaseCpu();

  /// Runs unit `Index`'s rounds: `Analyze` analyses the unit with the program facts given
  /// imported and returns its export. Blocks (with the CPU slot released) until every unit that
  /// takes part has exported; re-analyses while a fact the unit looked up changes. Returns the
  /// settled program facts; the unit's last analysis used facts equal to them on its lookups.
  const ProgramFacts *settle(size_t Index, llvm::function_ref<UnitFacts(const ProgramFacts *)> Analyze);

  /// Unit `Index` takes no further part (it did not parse, or it is done).
  void leave(size_t Index);

  /// Rounds merged so far (for tests and timing).
  unsigned rounds() const;

private:
  mutable std::mutex Mu;
  std::condition_variable Changed;
  ProgramFacts Program;
  std::vector<std::optional<UnitFacts>> Exports;
  std::vector<bool> Active, Submitted, Rerun;
  std::vector<size_t> Order;
  unsigned Generation = 0;
  bool Settled = false;

  std::mutex CpuMu;
  std::condition_variable CpuFree;
  unsigned FreeSlots;

  bool everyActiveUnitSubmitted() const;
  void mergeRound();
};

} // namespace graphify
