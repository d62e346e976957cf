// Whole-program rounds. Invariants: the program facts change only in mergeRound, which runs
// when every unit still taking part has submitted, so no unit is analysing while they change;
// units are merged in a fixed order (the session's MergeOrder), so the facts (and the origins that explain them) do not
// depend on which thread finished first; and facts only grow, so the rounds end.
#include "graphify/lint/ProgramSession.h"

#include <algorithm>

namespace graphify {

ProgramSession::ProgramSession(size_t Units, unsigned CpuSlots, std::vector<size_t> MergeOrder)
    : Exports(Units), Active(Units, true), Submitted(Units, false), Rerun(Units, false), Order(std::move(MergeOrder)),
      FreeSlots(std::max(1u, CpuSlots)) {
  if (Order.size() != Units) {
    Order.resize(Units);
    for (size_t I = 0; I < Units; ++I)
      Order[I] = I;
  }
}

void ProgramSession::acquireCpu() {
  std::unique_lock<std::mutex> L(CpuMu);
  CpuFree.wait(L, [&] { return FreeSlots > 0; });
  --FreeSlots;
}

void ProgramSession::releaseCpu() {
  {
    std::lock_guard<std::mutex> L(CpuMu);
    ++FreeSlots;
  }
  CpuFree.notify_one();
}

bool ProgramSession::everyActiveUnitSubmitted() const {
  bool Any = false;
  for (size_t I = 0; I < Active.size(); ++I) {
    if (!Active[I])
      continue;
    Any = true;
    if (!Submitted[I])
      return false;
  }
  return Any;
}

void ProgramSession::mergeRound() {
  ProgramFacts Before = Program.snapshot();
  Program.beginRound();
  for (size_t I : Order)
    if (Active[I] && Exports[I])
      Program.merge(*Exports[I]);
  Settled = true;
  for (size_t I = 0; I < Exports.size(); ++I) {
    Rerun[I] = Active[I] && Exports[I] && !Program.sameOn(Before, Exports[I]->Lookups);
    Settled = Settled && !Rerun[I];
    Submitted[I] = false;
  }
  ++Generation;
  Changed.notify_all();
}

const ProgramFacts *ProgramSession::settle(size_t Index,
                                           llvm::function_ref<UnitFacts(const ProgramFacts *)> Analyze) {
  std::unique_lock<std::mutex> L(Mu);
  if (Settled) // a second parse of the unit (without the shared PCH) after the rounds ended
    return &Program;
  L.unlock();
  UnitFacts Mine = Analyze(&Program);
  L.lock();
  while (true) {
    Exports[Index] = std::move(Mine);
    Submitted[Index] = true;
    unsigned Seen = Generation;
    if (everyActiveUnitSubmitted()) {
      mergeRound();
    } else {
      L.unlock();
      releaseCpu();
      L.lock();
      Changed.wait(L, [&] { return Generation != Seen; });
      L.unlock();
      acquireCpu();
      L.lock();
    }
    if (Settled)
      return &Program;
    if (Rerun[Index]) {
      L.unlock();
      Mine = Analyze(&Program);
      L.lock();
    } else {
      Mine = std::move(*Exports[Index]);
    }
  }
}

void ProgramSession::leave(size_t Index) {
  std::lock_guard<std::mutex> L(Mu);
  if (!Active[Index])
    return;
  Active[Index] = false;
  Exports[Index].reset();
  if (!Settled && everyActiveUnitSubmitted())
    mergeRound();
}

unsigned ProgramSession::rounds() const {
  std::lock_guard<std::mutex> L(Mu);
  return Generation;
}

} // namespace graphify
