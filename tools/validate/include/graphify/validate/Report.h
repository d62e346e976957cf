#pragma once
/// \file
/// The validation report: per entry, whether the rewrite is equivalent on every trial (outputs,
/// and gradients where checked), whether the original and the rewritten entries can be captured
/// (and if not, the first op that refused, with its source location), whether the captured
/// rewrite replayed on fresh inputs matches eager, and whether the original traced at trial 0
/// silently diverges on other trials. Rendered as a text table or as JSON (docs/validate.md
/// describes both).
///
/// \code
///   graphify::validate::writeTextReport(llvm::outs(), Summary);
///   bool AllGood = Summary.passed();
/// \endcode

#include "graphify/validate/EntrySpec.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <string>
#include <vector>

namespace graphify::validate {

/// Whether an entry could be captured, and if not why.
struct CaptureVerdict {
  enum class State {
    NotChecked,    ///< LibTorch runtime, or the run never got there
    Capturable,    ///< gfy::capture succeeded
    NotCapturable, ///< gfy::CaptureError: Op at File:Line
    Error          ///< the capture raised something else, crashed or timed out (Message)
  } Status = State::NotChecked;
  std::string Op;
  std::string File;
  unsigned Line = 0;
  std::string Message;

  /// `yes`, `no: item at model.cpp:8`, `error: ...`, `n/a`.
  std::string summary() const;
};

/// What tracing the original at trial 0 and replaying it on the other trials showed.
struct TraceVerdict {
  enum class State {
    NotChecked,   ///< LibTorch runtime, or the run never got there
    Diverges,     ///< the trace silently gives different results on some trials
    Matches,      ///< the trace generalises to every trial
    NotTraceable  ///< the trace itself refused (a dynamic shape) or failed (Message)
  } Status = State::NotChecked;
  unsigned DivergentTrials = 0;
  unsigned Trials = 0; ///< trials replayed (K-1)
  std::string Message;

  /// `yes (4/7)`, `no`, `n/a (not traceable: ...)`.
  std::string summary() const;
};

/// Whether the rewrite keeps the entry's gradients: backward run on both versions (the same
/// upstream gradients) and the gradients w.r.t. every floating input and every parameter compared
/// with the output tolerance. A `where` rewrite can keep every output and still change gradients
/// (NaN where the unselected arm is not finite), which only this check sees.
struct GradientVerdict {
  enum class State {
    NotChecked,  ///< --no-grad, a function or a module without parameters (without --grad), or nothing to differentiate
    Checked,     ///< compared on every trial: Matches/Trials
    NotSupported ///< the original's backward needs a derivative the runtime lacks (Message)
  } Status = State::NotChecked;
  unsigned Matches = 0;
  unsigned Trials = 0;
  /// --grad was given: an entry whose gradients cannot be checked fails instead of being noted.
  bool Required = false;
  std::string Message; ///< NotSupported: the runtime's message; NotChecked: why, when it is worth saying

  /// `8/8`, `-`, `not supported`.
  std::string summary() const;
  /// Checked on every trial with equal gradients, or not required.
  bool passed() const;
};

/// One entry's verdicts.
struct EntryReport {
  std::string File;
  std::string Name;
  std::vector<InputSpec> Inputs;
  unsigned Trials = 0;
  unsigned EquivalentTrials = 0;
  GradientVerdict Gradients;
  CaptureVerdict Original;
  CaptureVerdict Rewritten;
  bool ReplayChecked = false;
  unsigned ReplayMatches = 0;
  unsigned ReplayTrials = 0;
  TraceVerdict Trace;
  bool Rewrote = false;                  ///< a fix was applied in the code the entry runs
  std::vector<std::string> Fixes;        ///< fixes applied in the code the entry runs (callees included)
  std::vector<std::string> Problems;     ///< crashes, exceptions, first mismatches, in words
  std::vector<std::string> Notes;        ///< findings left unrewritten, trace warnings

  /// Equivalent on every trial, gradients equal on every trial when checked (and checkable when
  /// --grad asked for them) and, when capture was checked, the rewrite captures and replays
  /// correctly on every other trial.
  bool passed() const;
};

/// The whole run.
struct RunSummary {
  std::string Runtime = "gfy"; ///< gfy or libtorch
  std::string Device = "cpu";
  unsigned Trials = 0;
  uint64_t Seed = 0;
  std::vector<EntryReport> Entries;
  /// --harness-bundle: the folder the harnesses were written to (nothing ran, nothing to report).
  std::string Bundled;

  bool passed() const;
};

/// The table, then per-entry details (fixes, problems), then a one-line verdict.
void writeTextReport(llvm::raw_ostream &OS, const RunSummary &S);
/// One JSON object: run parameters, `entries` (see docs/validate.md) and `passed`.
void writeJsonReport(llvm::raw_ostream &OS, const RunSummary &S);

} // namespace graphify::validate
