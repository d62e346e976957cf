// Compare: the original's runs are the reference; each entry's report says whether the rewrite
// computes the same outputs (and gradients), whether each version can be captured and replayed,
// and whether the original could be traced instead.
#include "Pipeline.h"

#include "graphify/validate/Compare.h"
#include "graphify/validate/InputGenerator.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Path.h>

#include <cstring>

namespace graphify::validate::pipeline {

const TrialOutputs *findTrial(const std::vector<TrialOutputs> &Ts, unsigned Trial) {
  for (const TrialOutputs &T : Ts)
    if (T.Trial == Trial)
      return &T;
  return nullptr;
}

namespace {


/// Whether a backward pass failed because the runtime cannot differentiate an op the entry uses
/// (LibTorch's and the gfy runtime's "the derivative for 'X' is not implemented", or a write the
/// gfy runtime's autograd cannot record), rather than because the model raised.
bool autogradUnsupported(llvm::StringRef Message) {
  return (Message.contains("derivative for") && Message.contains("not implemented")) ||
         Message.contains("autograd does not support");
}

const TrialGradients *findGradientTrial(const std::vector<TrialGradients> &Ts, unsigned Trial) {
  for (const TrialGradients &T : Ts)
    if (T.Trial == Trial)
      return &T;
  return nullptr;
}

/// The runtime names ops as called (`item()`); the report names them as the API does (`item`).
std::string opName(llvm::StringRef Op) {
  Op.consume_back("()");
  return Op.str();
}

CaptureVerdict captureVerdict(const HarnessRun &Run, const std::string &RewrittenPath, const std::string &DisplayFile,
                              const std::string &What) {
  CaptureVerdict V;
  const CaptureOutcome &C = Run.Results.Capture;
  switch (C.Status) {
  case CaptureOutcome::State::Captured: V.Status = CaptureVerdict::State::Capturable; break;
  case CaptureOutcome::State::Refused:
    V.Status = CaptureVerdict::State::NotCapturable;
    V.Op = opName(C.Op);
    // The rewritten copy lives in a temp dir; name the user's file instead.
    V.File = C.File == RewrittenPath ? DisplayFile + " (rewritten)" : C.File;
    V.Line = C.Line;
    V.Message = C.Message;
    break;
  case CaptureOutcome::State::Failed:
    V.Status = CaptureVerdict::State::Error;
    V.Message = "capture raised: " + C.Message;
    break;
  case CaptureOutcome::State::NotRun:
    V.Status = CaptureVerdict::State::Error;
    V.Message = Run.failure(What);
    break;
  }
  return V;
}

/// Fills `E.Gradients` (and its problems and notes) from the two gradient runs of `P`.
void compareGradients(const Planned &P, const ValidateOptions &Opts, const std::vector<std::string> &Variants,
                      EntryReport &E) {
  GradientVerdict &G = E.Gradients;
  G.Required = Opts.Gradients == GradientCheck::Always;
  const HarnessRun &Orig = P.Runs[Original][Grad];
  const HarnessRun &Rew = P.Runs[Rewritten][Grad];
  auto Trial = [&](unsigned T) { return "trial " + std::to_string(T) + " (" + Variants[T] + ")"; };

  const std::optional<unsigned> Params = Orig.Results.Parameters;
  if (Params == 0u && !G.Required)
    return; // a module without parameters: not checked unless --grad
  bool FloatingInput = llvm::any_of(P.Inputs, [](const InputSpec &I) { return isFloating(I.Type); });
  if (Params == 0u && !FloatingInput) {
    G.Message = "nothing to differentiate: no floating-point input and no parameter";
    return;
  }
  // The original's backward is the reference: when the runtime cannot run it, there is nothing
  // to compare the rewrite's with.
  for (const TrialGradients &T : Orig.Results.Gradients)
    if (!T.Ok && autogradUnsupported(T.Error)) {
      G.Status = GradientVerdict::State::NotSupported;
      G.Message = T.Error;
      if (G.Required)
        E.Problems.push_back("--grad asks for gradients, but the runtime cannot run the original's backward pass: " +
                             T.Error);
      return;
    }

  G.Status = GradientVerdict::State::Checked;
  G.Trials = Opts.Trials;
  if (std::string F = Orig.failure("the original's gradient run"); !F.empty())
    E.Problems.push_back(F);
  if (P.FileRewritten && Rew.Ran)
    if (std::string F = Rew.failure("the rewritten gradient run"); !F.empty())
      E.Problems.push_back(F);
  bool Reported = false;
  std::vector<std::string> Skipped;
  for (unsigned T = 0; T < Opts.Trials; ++T) {
    const TrialGradients *O = findGradientTrial(Orig.Results.Gradients, T);
    const TrialGradients *R = findGradientTrial(Rew.Results.Gradients, T);
    if (!O || !R)
      continue; // covered by the run failure above
    for (const TrialGradients *Side : {O, R})
      for (const auto &[Output, Why] : Side->SkippedOutputs) {
        std::string Note = "gradients: output " + std::to_string(Output) + " skipped (" + Why + ")";
        if (!llvm::is_contained(Skipped, Note))
          Skipped.push_back(Note);
      }
    Comparison C = compareGradientTrial(*R, *O, Opts.Tol);
    if (C.Equal) {
      ++G.Matches;
      continue;
    }
    if (Reported)
      continue;
    Reported = true;
    if (!O->Ok && !R->Ok)
      E.Problems.push_back(Trial(T) + ": the original and the rewritten entry both raised in the backward pass: " +
                           O->Error);
    else if (!O->Ok)
      E.Problems.push_back(Trial(T) + ": the original raised in the backward pass: " + O->Error);
    else if (!R->Ok)
      E.Problems.push_back(Trial(T) + ": the rewritten entry raised in the backward pass, the original did not: " +
                           R->Error);
    else
      E.Problems.push_back(Trial(T) + ": the rewritten entry's gradients differ from the original's: " + C.Reason);
  }
  for (std::string &N : Skipped)
    E.Notes.push_back(std::move(N));
}

/// Fills `E`'s equivalent trials (and the first difference as a problem) from the eager runs.
void compareEager(const Planned &P, const ValidateOptions &Opts, const std::vector<std::string> &Variants,
                  EntryReport &E) {
  auto Trial = [&](unsigned T) { return "trial " + std::to_string(T) + " (" + Variants[T] + ")"; };
  if (P.FileRewritten && !P.Build[Rewritten].Ok) {
    E.Problems.push_back("the rewritten file does not compile:\n" + P.Build[Rewritten].Diagnostics);
  }
  const HarnessRun &OrigEager = P.Runs[Original][Eager];
  const HarnessRun &RewEager = P.Runs[Rewritten][Eager];
  if (std::string F = OrigEager.failure("the original's eager run"); !F.empty())
    E.Problems.push_back(F);
  if (!P.OriginalOnHost.empty())
    E.Notes.push_back("the original cannot run on cuda (" + P.OriginalOnHost +
                      "); the rewritten entry's outputs are compared with the original's on the CPU");
  if (P.FileRewritten && RewEager.Ran)
    if (std::string F = RewEager.failure("the rewritten eager run"); !F.empty())
      E.Problems.push_back(F);
  bool Reported = false;
  for (unsigned T = 0; T < Opts.Trials; ++T) {
    const TrialOutputs *O = findTrial(OrigEager.Results.Eager, T);
    const TrialOutputs *R = findTrial(RewEager.Results.Eager, T);
    if (!O || !R)
      continue; // covered by the run failure above
    Comparison C = compareTrial(*R, *O, Opts.Tol);
    if (C.Equal) {
      ++E.EquivalentTrials;
    } else if (!Reported) {
      Reported = true;
      if (!O->Ok && !R->Ok)
        E.Problems.push_back(Trial(T) + ": the original and the rewritten entry both raised: " + O->Error);
      else if (!O->Ok)
        E.Problems.push_back(Trial(T) + ": the original raised: " + O->Error);
      else
        E.Problems.push_back(Trial(T) + ": the rewritten entry differs from the original: " + C.Reason);
    }
  }
}

/// Fills `E`'s capture verdicts and replay matches from the capture runs.
void compareCaptures(const Planned &P, const std::string &RewrittenPath, const ValidateOptions &Opts,
                     const std::vector<std::string> &Variants, EntryReport &E) {
  auto Trial = [&](unsigned T) { return "trial " + std::to_string(T) + " (" + Variants[T] + ")"; };
  const HarnessRun &RewEager = P.Runs[Rewritten][Eager];
  E.Original = captureVerdict(P.Runs[Original][Capture], RewrittenPath, P.DisplayFile,
                              "the original's capture run");
  const HarnessRun &RewCap = P.Runs[Rewritten][Capture];
  E.Rewritten = RewCap.Ran ? captureVerdict(RewCap, RewrittenPath, P.DisplayFile,
                                            "the rewritten capture run")
                           : CaptureVerdict{CaptureVerdict::State::Error, "", "", 0, "not built"};
  E.ReplayChecked = true;
  E.ReplayTrials = Opts.Trials - 1;
  if (P.CaptureStaged)
    E.Notes.push_back("rewritten capture: the core '" + P.CaptureName +
                      "' (the entry is now its host prologue, which copies host data to the device: the copies run "
                      "once before the capture, the core is captured on them); its replays are compared with the "
                      "core run eagerly");
  else if (!P.CaptureName.empty())
    E.Notes.push_back(std::string("rewritten capture: the ") +
                      (llvm::StringRef(P.CaptureName).contains("_padded") ? "padded " : "") + "core '" +
                      P.CaptureName + "' (the entry is now its host epilogue, which " +
                      (llvm::StringRef(P.CaptureName).contains("_padded") ? "reads the counts and slices"
                                                                            : "runs the host part on its results") +
                      "); its replays are compared with the core run eagerly");
  if (E.Rewritten.Status == CaptureVerdict::State::Capturable) {
    bool ReplayReported = false;
    for (unsigned T = 1; T < Opts.Trials; ++T) {
      const TrialOutputs *Rep = findTrial(RewCap.Results.Replays, T);
      // A split entry captures its padded core: replays are compared with the core run
      // eagerly (the epilogue's equivalence with the original is the eager comparison).
      const TrialOutputs *Ref = P.CaptureName.empty() ? findTrial(RewEager.Results.Eager, T)
                                                      : findTrial(RewCap.Results.References, T);
      if (!Rep || !Ref)
        continue;
      Comparison C = compareTrial(*Rep, *Ref, Opts.Tol);
      if (C.Equal)
        ++E.ReplayMatches;
      else if (!ReplayReported) {
        ReplayReported = true;
        E.Problems.push_back(Trial(T) + ": replaying the captured rewrite differs from eager: " + C.Reason);
      }
    }
    if (std::string F = RewCap.failure("the rewritten capture run"); !F.empty())
      E.Problems.push_back(F);
  }
}

/// Fills `E.Trace`: whether the original, traced once, replays like its eager runs.
void compareTrace(const Planned &P, const ValidateOptions &Opts, EntryReport &E) {
  const HarnessRun &OrigEager = P.Runs[Original][Eager];
  const HarnessRun &Tr = P.Runs[Original][Trace];
  const CaptureOutcome &TO = Tr.Results.Capture;
  E.Trace.Trials = Opts.Trials - 1;
  if (TO.Status == CaptureOutcome::State::Captured) {
    for (unsigned T = 1; T < Opts.Trials; ++T) {
      const TrialOutputs *Rep = findTrial(Tr.Results.Replays, T);
      const TrialOutputs *Ref = findTrial(OrigEager.Results.Eager, T);
      if (Rep && Ref && !compareTrial(*Rep, *Ref, Opts.Tol).Equal)
        ++E.Trace.DivergentTrials;
    }
    E.Trace.Status = E.Trace.DivergentTrials ? TraceVerdict::State::Diverges : TraceVerdict::State::Matches;
    for (const std::string &W : Tr.Results.Warnings)
      E.Notes.push_back("trace warning: " + W);
  } else if (TO.Status == CaptureOutcome::State::Refused) {
    E.Trace.Status = TraceVerdict::State::NotTraceable;
    E.Trace.Message = "the original cannot be traced: " + opName(TO.Op) + " at " +
                      llvm::sys::path::filename(TO.File).str() + ":" + std::to_string(TO.Line) + " (" +
                      TO.Message + ")";
  } else if (TO.Status == CaptureOutcome::State::Failed) {
    E.Trace.Status = TraceVerdict::State::NotTraceable;
    E.Trace.Message = "tracing the original raised: " + TO.Message;
  } else {
    E.Trace.Status = TraceVerdict::State::NotTraceable;
    E.Trace.Message = Tr.failure("the original's trace run");
  }
}

} // namespace

EntryReport compareEntry(const Planned &P, const std::string &RewrittenPath, const ValidateOptions &Opts, bool Gfy,
                         const std::vector<std::string> &Variants) {
  EntryReport E;
  E.File = P.DisplayFile;
  E.Name = P.Decl->Name;
  E.Inputs = P.Inputs;
  E.Trials = Opts.Trials;
  // Only the fixes in the code this entry runs: another entry's rewrite in the same file is
  // not this entry's (its rewritten harness still includes the whole rewritten file).
  for (const auto &[Line, Text] : RewriteSummary::inEntry(*P.Decl, P.Model->Rewrite.Applied))
    E.Fixes.push_back("line " + std::to_string(Line) + ": " + Text);
  for (const auto &[Line, Text] : RewriteSummary::inEntry(*P.Decl, P.Model->Rewrite.Unfixed))
    E.Notes.push_back("not rewritten: line " + std::to_string(Line) + ": " + Text);
  E.Rewrote = P.FileRewritten && !E.Fixes.empty();
  compareEager(P, Opts, Variants, E);
  if (P.CheckGradients)
    compareGradients(P, Opts, Variants, E);
  if (Gfy) {
    compareCaptures(P, RewrittenPath, Opts, Variants, E);
    compareTrace(P, Opts, E);
  }
  return E;
}

} // namespace graphify::validate::pipeline
