// The phases of graphify-validate's run (Validator.cpp): plan (parse the files, pick the
// entries and their inputs), write (the rewritten copies, the inputs, the harness sources), build,
// run, compare. Each phase reads what the one before it left in `Planned` and adds its part.
// The invariant of the whole pipeline holds in every phase: model code never runs in this
// process (Runner.h); what comes back from a harness is data.
#pragma once

#include "graphify/validate/Build.h"
#include "graphify/validate/EntrySpec.h"
#include "graphify/validate/ModelSource.h"
#include "graphify/validate/Report.h"
#include "graphify/validate/Runner.h"
#include "graphify/validate/Validator.h"
#include "graphify/validate/Values.h"

#include <llvm/ADT/Twine.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <string>
#include <vector>

namespace graphify::validate::pipeline {

llvm::Error error(const llvm::Twine &Msg);

/// Runs `Fn(0) ... Fn(N - 1)` on at most `Jobs` threads.
void parallelFor(size_t N, unsigned Jobs, const std::function<void(size_t)> &Fn);

bool writeFile(const std::string &Path, const std::string &Text);
/// The file's text; empty when it cannot be read.
std::string readFile(const std::string &Path);

enum Version { Original = 0, Rewritten = 1 };
const char *versionName(Version V);

/// HostEager: with --device=cuda, the original's eager run on the CPU, its reference when it cannot
/// run on the device (a host kernel reading data_ptr(), say).
enum Mode { Eager = 0, Capture = 1, Trace = 2, Grad = 3, HostEager = 4 };
const char *modeName(Mode M);

/// One harness process and what it left behind.
struct HarnessRun {
  bool Ran = false;
  RunResult Process;
  HarnessResults Results;
  std::string ParseError;

  /// Empty when the process finished cleanly, else why it did not, in words.
  std::string failure(const std::string &What) const;
};

/// An entry scheduled for validation.
struct Planned {
  size_t FileIndex = 0;
  const ModelInfo *Model = nullptr;
  const EntryDecl *Decl = nullptr;
  std::string DisplayFile;
  std::vector<InputSpec> Inputs;
  std::string InputsPath;
  bool FileRewritten = false; ///< the rewritten copy of its file differs (maybe only in another entry)
  std::string CaptureName;    ///< the padded core captured for the rewritten entry, when it was split
  bool CaptureStaged = false; ///< the core is captured after the host prologue's copies (prologueStageOf)
  std::string HarnessPath[2];
  BuildOutcome Build[2];
  bool CheckGradients = false;
  HarnessRun Runs[2][5]; // [version][eager, capture, trace, grad, eager on the CPU]
  /// --device=cuda: why the original's eager run on the device was replaced by its CPU run.
  std::string OriginalOnHost;
};

/// What every phase shares: the toolchain harnesses are built with and how they are parsed.
struct Setup {
  Toolchain TC;
  std::vector<std::string> ParseArgs; ///< the toolchain's -D/-std/-I flags, then the user's
  std::string RulesDir;
  unsigned Jobs = 1;
  bool Gfy = true; ///< the bundled runtime (capture and trace runs), not LibTorch
  bool Cuda = false; ///< --device=cuda
};

// Plan (PlanEntries.cpp).
llvm::Expected<std::vector<ModelInfo>> parseModels(const ValidateOptions &Opts, const Setup &S,
                                                   llvm::raw_ostream &Log);
/// The entries to validate with their inputs; each points into `Models`, which must outlive it.
llvm::Expected<std::vector<Planned>> planEntries(const ValidateOptions &Opts, const std::vector<ModelInfo> &Models,
                                                 llvm::raw_ostream &Log);

// Write (WriteHarnesses.cpp).
/// Writes each model's rewritten text into the cache under a hash of it, so that a harness that
/// includes it has the same text on every run; returns the copies' absolute paths, by model.
llvm::Expected<std::vector<std::string>> writeRewrittenCopies(const std::vector<ModelInfo> &Models,
                                                              const std::string &CacheDir);
/// Writes each entry's inputs and its two harness sources into `Tmp`.
llvm::Error writeHarnesses(std::vector<Planned> &Plan, const std::vector<std::string> &RewrittenPaths,
                           const std::string &Tmp, const ValidateOptions &Opts);

// Build and run (RunHarnesses.cpp).
llvm::Error buildHarnesses(std::vector<Planned> &Plan, const Setup &S, const std::string &CacheDir,
                           const ValidateOptions &Opts, llvm::raw_ostream &Log);

/// One harness process to run: an entry's version in one mode.
struct RunJob {
  size_t Entry;
  Version V;
  Mode M;
};
/// Every harness process of the plan, in one fixed order (a bundle's runs are numbered by it).
std::vector<RunJob> listRuns(const std::vector<Planned> &Plan, const Setup &S);
/// The harness's command-line mode and device for a job.
std::string harnessMode(const RunJob &J, const ValidateOptions &Opts);
std::string harnessDevice(const RunJob &J, const ValidateOptions &Opts);
/// Trial `Trial`'s outputs in a run, or null when the run left none.
const TrialOutputs *findTrial(const std::vector<TrialOutputs> &Ts, unsigned Trial);
/// Reads the results file a run left into its HarnessRun.
void readRunResults(HarnessRun &R, const Planned &P, const std::string &ResultsPath);
/// After every run: an error if a harness found no CUDA device; the original's CPU run stands in
/// for its device run when only the CPU one ran; an unchanged rewrite shares the original's runs.
llvm::Error finishRuns(std::vector<Planned> &Plan, unsigned Trials);
llvm::Error runHarnesses(std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                         llvm::raw_ostream &Log);

// Run elsewhere (HarnessBundle.cpp): the harnesses, their inputs and a script that runs them,
// for a machine without LLVM (a GPU machine); then the results that script left, read back.
/// Links the harnesses against the shared runtime library, found next to `$ORIGIN` at run time.
llvm::Error useSharedRuntime(Toolchain &TC);
/// Copies the built harnesses, their inputs, the runtime library and DIR/run into `Dir`.
llvm::Error writeHarnessBundle(const std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                               const std::string &Dir, llvm::raw_ostream &Log);
/// Fills every planned run from the folder DIR/run wrote.
llvm::Error readHarnessResults(std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                               const std::string &Dir);

// Compare (CompareRuns.cpp).
/// The report of one entry from its runs; `Variants` names the input variant of each trial.
EntryReport compareEntry(const Planned &P, const std::string &RewrittenPath, const ValidateOptions &Opts, bool Gfy,
                         const std::vector<std::string> &Variants);

} // namespace graphify::validate::pipeline
