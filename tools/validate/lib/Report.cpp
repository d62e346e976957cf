// The table is what a person reads first, so every cell is short (a ratio, yes/no, the blocking
// op and where); everything longer goes into the per-entry details below it, and everything
// structured goes into JSON for tools.
#include "graphify/validate/Report.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace graphify::validate {

static std::string where(const std::string &File, unsigned Line) {
  return llvm::sys::path::filename(File).str() + ":" + std::to_string(Line);
}

std::string CaptureVerdict::summary() const {
  switch (Status) {
  case State::NotChecked: return "n/a";
  case State::Capturable: return "yes";
  case State::NotCapturable: return "no: " + Op + " at " + where(File, Line);
  case State::Error: return "error";
  }
  return "?";
}

std::string TraceVerdict::summary() const {
  switch (Status) {
  case State::NotChecked: return "n/a";
  case State::Diverges: return "yes (" + std::to_string(DivergentTrials) + "/" + std::to_string(Trials) + ")";
  case State::Matches: return "no";
  case State::NotTraceable: return "n/a (not traceable)";
  }
  return "?";
}

std::string GradientVerdict::summary() const {
  switch (Status) {
  case State::NotChecked: return "-";
  case State::Checked: return std::to_string(Matches) + "/" + std::to_string(Trials);
  case State::NotSupported: return "not supported";
  }
  return "?";
}

bool GradientVerdict::passed() const {
  switch (Status) {
  case State::Checked: return Matches == Trials;
  case State::NotSupported: return !Required;
  case State::NotChecked: return true;
  }
  return false;
}

bool EntryReport::passed() const {
  if (EquivalentTrials != Trials || !Gradients.passed())
    return false;
  if (ReplayChecked)
    return Rewritten.Status == CaptureVerdict::State::Capturable && ReplayMatches == ReplayTrials;
  return true;
}

bool RunSummary::passed() const {
  return std::all_of(Entries.begin(), Entries.end(), [](const EntryReport &E) { return E.passed(); });
}

void writeTextReport(llvm::raw_ostream &OS, const RunSummary &S) {
  const std::vector<std::string> Head = {"entry",          "equivalent",    "gradients",
                                         "original capturable", "rewritten capturable",
                                         "replay matches", "traced original diverges"};
  std::vector<std::vector<std::string>> Rows;
  for (const EntryReport &E : S.Entries) {
    Rows.push_back({E.Name, std::to_string(E.EquivalentTrials) + "/" + std::to_string(E.Trials),
                    E.Gradients.summary(), E.Original.summary(), E.Rewritten.summary(),
                    E.ReplayChecked ? std::to_string(E.ReplayMatches) + "/" + std::to_string(E.ReplayTrials) : "n/a",
                    E.Trace.summary()});
  }
  std::vector<size_t> Width(Head.size());
  for (size_t C = 0; C < Head.size(); ++C) {
    Width[C] = Head[C].size();
    for (const auto &R : Rows)
      Width[C] = std::max(Width[C], R[C].size());
  }
  auto PrintRow = [&](const std::vector<std::string> &R) {
    std::string Line;
    for (size_t C = 0; C < R.size(); ++C) {
      Line += R[C];
      if (C + 1 < R.size())
        Line += std::string(Width[C] - R[C].size() + 2, ' ');
    }
    OS << Line << "\n";
  };
  OS << "graphify-validate: runtime " << S.Runtime << " (" << S.Device << "), " << S.Trials << " trials, seed "
     << S.Seed << "\n\n";
  PrintRow(Head);
  for (const auto &R : Rows)
    PrintRow(R);

  for (const EntryReport &E : S.Entries) {
    bool Blocked = E.Original.Status == CaptureVerdict::State::NotCapturable ||
                   E.Original.Status == CaptureVerdict::State::Error ||
                   E.Rewritten.Status == CaptureVerdict::State::NotCapturable ||
                   E.Rewritten.Status == CaptureVerdict::State::Error ||
                   E.Trace.Status == TraceVerdict::State::NotTraceable ||
                   (E.Gradients.Status != GradientVerdict::State::Checked && !E.Gradients.Message.empty());
    if (E.Fixes.empty() && E.Problems.empty() && E.Notes.empty() && !Blocked)
      continue;
    OS << "\n" << E.Name << " (" << E.File << "): " << (E.passed() ? "passed" : "FAILED") << "\n";
    for (const std::string &F : E.Fixes)
      OS << "  rewrite: " << F << "\n";
    if (!E.Rewrote)
      OS << "  rewrite: none (the rewritten entry is the original)\n";
    if (E.Original.Status == CaptureVerdict::State::NotCapturable ||
        E.Original.Status == CaptureVerdict::State::Error)
      OS << "  original capture: " << E.Original.Message << "\n";
    if (E.Rewritten.Status == CaptureVerdict::State::NotCapturable ||
        E.Rewritten.Status == CaptureVerdict::State::Error)
      OS << "  rewritten capture: " << E.Rewritten.Message << "\n";
    if (E.Trace.Status == TraceVerdict::State::NotTraceable)
      OS << "  trace: " << E.Trace.Message << "\n";
    // Under --grad the problem line says it, with the runtime's message.
    if (E.Gradients.Status == GradientVerdict::State::NotSupported && !E.Gradients.Required)
      OS << "  gradients: not supported (" << E.Gradients.Message << ")\n";
    else if (E.Gradients.Status == GradientVerdict::State::NotChecked && !E.Gradients.Message.empty())
      OS << "  gradients: not checked (" << E.Gradients.Message << ")\n";
    for (const std::string &N : E.Notes)
      OS << "  note: " << N << "\n";
    for (const std::string &P : E.Problems)
      OS << "  problem: " << P << "\n";
  }
  size_t Passed = std::count_if(S.Entries.begin(), S.Entries.end(), [](const EntryReport &E) { return E.passed(); });
  OS << "\n" << S.Entries.size() << (S.Entries.size() == 1 ? " entry: " : " entries: ") << Passed << " passed, "
     << S.Entries.size() - Passed << " failed\n";
}

static llvm::json::Value captureJson(const CaptureVerdict &V) {
  llvm::json::Value Capturable = nullptr;
  if (V.Status == CaptureVerdict::State::Capturable)
    Capturable = true;
  else if (V.Status != CaptureVerdict::State::NotChecked)
    Capturable = false;
  llvm::json::Value Blocking = nullptr;
  if (V.Status == CaptureVerdict::State::NotCapturable)
    Blocking = llvm::json::Object{{"op", V.Op}, {"file", V.File}, {"line", V.Line}, {"message", V.Message}};
  else if (V.Status == CaptureVerdict::State::Error)
    Blocking = llvm::json::Object{{"op", nullptr}, {"file", nullptr}, {"line", nullptr}, {"message", V.Message}};
  return llvm::json::Object{{"capturable", std::move(Capturable)}, {"blocking", std::move(Blocking)}};
}

static const char *gradientStateName(GradientVerdict::State S) {
  switch (S) {
  case GradientVerdict::State::NotChecked: return "not checked";
  case GradientVerdict::State::Checked: return "checked";
  case GradientVerdict::State::NotSupported: return "not supported";
  }
  return "?";
}

void writeJsonReport(llvm::raw_ostream &OS, const RunSummary &S) {
  llvm::json::Array Entries;
  for (const EntryReport &E : S.Entries) {
    llvm::json::Array Inputs, Fixes, Problems, Notes;
    for (const std::string &N : E.Notes)
      Notes.push_back(N);
    for (const InputSpec &I : E.Inputs)
      Inputs.push_back(I.str());
    for (const std::string &F : E.Fixes)
      Fixes.push_back(F);
    for (const std::string &P : E.Problems)
      Problems.push_back(P);
    const bool Grad = E.Gradients.Status == GradientVerdict::State::Checked;
    llvm::json::Value TraceDiverges = nullptr;
    if (E.Trace.Status == TraceVerdict::State::Diverges)
      TraceDiverges = true;
    else if (E.Trace.Status == TraceVerdict::State::Matches)
      TraceDiverges = false;
    Entries.push_back(llvm::json::Object{
        {"name", E.Name},
        {"file", E.File},
        {"inputs", std::move(Inputs)},
        {"trials", E.Trials},
        {"equivalent_trials", E.EquivalentTrials},
        {"gradients", gradientStateName(E.Gradients.Status)},
        {"gradient_matches", Grad ? llvm::json::Value(E.Gradients.Matches) : llvm::json::Value(nullptr)},
        {"gradient_trials", Grad ? llvm::json::Value(E.Gradients.Trials) : llvm::json::Value(nullptr)},
        {"gradient_note", E.Gradients.Message},
        {"replay_matches", E.ReplayChecked ? llvm::json::Value(E.ReplayMatches) : llvm::json::Value(nullptr)},
        {"replay_trials", E.ReplayChecked ? llvm::json::Value(E.ReplayTrials) : llvm::json::Value(nullptr)},
        {"original", captureJson(E.Original)},
        {"rewritten", captureJson(E.Rewritten)},
        {"trace_diverges", std::move(TraceDiverges)},
        {"trace_divergent_trials", E.Trace.Status == TraceVerdict::State::Diverges ||
                                           E.Trace.Status == TraceVerdict::State::Matches
                                       ? llvm::json::Value(E.Trace.DivergentTrials)
                                       : llvm::json::Value(nullptr)},
        {"trace_note", E.Trace.Message},
        {"rewrote", E.Rewrote},
        {"fixes", std::move(Fixes)},
        {"problems", std::move(Problems)},
        {"notes", std::move(Notes)},
        {"passed", E.passed()},
    });
  }
  llvm::json::Object Top{{"tool", "graphify-validate"},
                         {"runtime", S.Runtime},
                         {"device", S.Device},
                         {"trials", S.Trials},
                         {"seed", static_cast<int64_t>(S.Seed)},
                         {"entries", std::move(Entries)},
                         {"passed", S.passed()}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Top))) << "\n";
}

} // namespace graphify::validate
