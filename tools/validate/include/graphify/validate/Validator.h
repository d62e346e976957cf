#pragma once
/// \file
/// The validation pipeline, end to end: parse each model file, rewrite a copy, generate and
/// build one harness per (entry, version), run them in isolated processes on K generated trials,
/// compare, and assemble the report. Errors that make a run meaningless (unknown entry, bad input
/// spec, an original that does not compile, no CUDA device) are returned as llvm::Error; whatever
/// the model code does at run time (wrong results, exceptions, crashes, hangs) is a verdict in
/// the report instead.
///
/// \code
///   graphify::validate::ValidateOptions O;
///   O.Files = {"testdata/models/non_traceable.cpp"};
///   O.Argv0 = argv[0];
///   auto Summary = graphify::validate::runValidation(O, llvm::errs());
///   if (!Summary) { llvm::errs() << llvm::toString(Summary.takeError()) << "\n"; return 2; }
/// \endcode

#include "graphify/validate/Build.h"
#include "graphify/validate/Compare.h"
#include "graphify/validate/EntrySpec.h"
#include "graphify/validate/Report.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <string>
#include <vector>

namespace graphify::validate {

/// One `--entry NAME` and the `--input`s that followed it (empty: use its comment).
struct EntryRequest {
  std::string Name;
  std::vector<InputSpec> Inputs;
};

/// Which entries get their gradients compared (--grad, --no-grad).
enum class GradientCheck {
  Auto,   ///< module entries with at least one parameter; a backward the runtime cannot run is a note
  Always, ///< --grad: every entry; a backward the runtime cannot run is a failure
  Never   ///< --no-grad: outputs only
};

/// Everything the command line can set (see the tool's --help for the flags).
struct ValidateOptions {
  std::vector<std::string> Files;          ///< model files
  std::vector<EntryRequest> Entries;       ///< empty: every annotated entry of every file
  unsigned Trials = 8;                     ///< --trials
  uint64_t Seed = 0;                       ///< --seed: inputs and module parameters
  RuntimeKind Runtime = RuntimeKind::Gfy;  ///< --runtime
  bool Cuda = false;                       ///< --device=cuda
  unsigned TimeoutSeconds = 60;            ///< --timeout, per harness run
  unsigned CompileTimeoutSeconds = 900;    ///< per harness compile
  bool KeepTemps = false;                  ///< --keep-temps
  std::vector<std::string> CompilerArgs;   ///< after `--`, for the parse and the harness compiles
  Tolerance Tol;                           ///< --rtol / --atol, for outputs and gradients
  GradientCheck Gradients = GradientCheck::Auto; ///< --grad / --no-grad
  unsigned Jobs = 0;                       ///< -j; 0: the number of cores
  std::string CacheDir;                    ///< empty: defaultCacheDir()
  std::string RulesDir;                    ///< empty: the shipped rule packs
  std::string HarnessBundle;               ///< --harness-bundle: write the harnesses there, run nothing
  std::string HarnessResults;              ///< --harness-results: read the runs a bundle's script left there
  const char *Argv0 = "graphify-validate"; ///< to find an install prefix
};

/// Runs the whole pipeline; progress lines go to `Log`.
llvm::Expected<RunSummary> runValidation(const ValidateOptions &Opts, llvm::raw_ostream &Log);

} // namespace graphify::validate
