// The pipeline keeps one invariant: model code never runs in this process. Everything the model
// does happens in a harness process (Runner.h), and what comes back is data — a results file
// and an exit status — which the comparison turns into verdicts. Errors returned from here are
// only the ones that make the run meaningless; they become exit status 2 in main.
//
// The run goes in phases (Pipeline.h): plan, write, build, run, compare; this file orders them
// and owns what spans them (the toolchain, the temporary directory).
#include "graphify/validate/Validator.h"
#include "graphify/validate/Interrupts.h"

#include "Pipeline.h"

#include "graphify/rules/RuleSet.h"
#include "graphify/validate/InputGenerator.h"

#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <optional>
#include <thread>

namespace graphify::validate {

using namespace pipeline;

namespace {

/// The toolchain and the parse flags every phase shares; an error when the run cannot start.
llvm::Expected<Setup> prepare(const ValidateOptions &Opts) {
  if (Opts.Files.empty())
    return error("no model file given");
  if (Opts.Trials < 1)
    return error("--trials must be at least 1");
  Setup S;
  S.Gfy = Opts.Runtime == RuntimeKind::Gfy;
  S.Cuda = Opts.Cuda;
  S.Jobs = Opts.Jobs ? Opts.Jobs : std::max(1u, std::thread::hardware_concurrency());
  auto TC = findToolchain(Opts.Runtime, Opts.Argv0);
  if (!TC)
    return TC.takeError();
  S.TC = std::move(*TC);
  if (Opts.Cuda && S.Gfy && !S.TC.HasCudaBackend)
    return error("no CUDA device available (the graphify runtime in " + S.TC.Origin +
                 " was built without its CUDA backend; it is built when graphify is configured where nvcc is found and "
                 "GRAPHIFY_CUDA is not OFF)");
  // Harnesses that run elsewhere load the runtime from their own folder.
  if (!Opts.HarnessBundle.empty() || !Opts.HarnessResults.empty())
    if (llvm::Error E = useSharedRuntime(S.TC))
      return std::move(E);
  S.RulesDir = Opts.RulesDir.empty() ? defaultRulesDirectory(Opts.Argv0) : Opts.RulesDir;
  for (const std::string &F : S.TC.CompileFlags)
    if (llvm::StringRef(F).starts_with("-D") || llvm::StringRef(F).starts_with("-std="))
      S.ParseArgs.push_back(F);
  for (const std::string &I : S.TC.IncludeDirs)
    S.ParseArgs.push_back("-I" + I);
  for (const std::string &A : Opts.CompilerArgs)
    S.ParseArgs.push_back(A);
  return S;
}

} // namespace

llvm::Expected<RunSummary> runValidation(const ValidateOptions &Opts, llvm::raw_ostream &Log) {
  auto S = prepare(Opts);
  if (!S)
    return S.takeError();
  auto Models = parseModels(Opts, *S, Log);
  if (!Models)
    return Models.takeError();
  auto Plan = planEntries(Opts, *Models, Log);
  if (!Plan)
    return Plan.takeError();

  // Temp files: inputs and harness sources.
  llvm::SmallString<256> TmpDir;
  if (auto EC = llvm::sys::fs::createUniqueDirectory("graphify-validate", TmpDir))
    return error("cannot create a temporary directory: " + EC.message());
  std::string Tmp(TmpDir);
  // Removed on every exit path, errors included, and on an interrupt, unless the user asked to keep it.
  std::optional<TrackedPath> TmpTracked;
  if (!Opts.KeepTemps)
    TmpTracked.emplace(Tmp);
  auto Cleanup = llvm::make_scope_exit([&] {
    if (Opts.KeepTemps)
      Log << "graphify-validate: temporary files kept in " << Tmp << "\n";
    else
      llvm::sys::fs::remove_directories(Tmp);
  });
  // The rewritten copies live in the cache under a hash of their text: the harness that
  // includes one then has the same text on every run, so its executable is found in the cache.
  // Absolute: the harness sources in the temp dir #include the rewritten copies by this path.
  llvm::SmallString<256> CacheDirAbs(Opts.CacheDir.empty() ? defaultCacheDir() : Opts.CacheDir);
  llvm::sys::fs::make_absolute(CacheDirAbs);
  const std::string CacheDir(CacheDirAbs);
  auto RewrittenPaths = writeRewrittenCopies(*Models, CacheDir);
  if (!RewrittenPaths)
    return RewrittenPaths.takeError();
  if (llvm::Error E = writeHarnesses(*Plan, *RewrittenPaths, Tmp, Opts))
    return std::move(E);
  if (llvm::Error E = buildHarnesses(*Plan, *S, CacheDir, Opts, Log))
    return std::move(E);
  if (!Opts.HarnessBundle.empty()) {
    if (llvm::Error E = writeHarnessBundle(*Plan, *S, Opts, Opts.HarnessBundle, Log))
      return std::move(E);
    RunSummary Bundled;
    Bundled.Bundled = Opts.HarnessBundle;
    return Bundled;
  }
  if (llvm::Error E = Opts.HarnessResults.empty() ? runHarnesses(*Plan, *S, Opts, Log)
                                                  : readHarnessResults(*Plan, *S, Opts, Opts.HarnessResults))
    return std::move(E);

  RunSummary Summary;
  Summary.Runtime = S->Gfy ? "gfy" : "libtorch";
  Summary.Device = Opts.Cuda ? "cuda" : "cpu";
  Summary.Trials = Opts.Trials;
  Summary.Seed = Opts.Seed;
  std::vector<std::string> Variants;
  for (unsigned T = 0; T < Opts.Trials; ++T)
    Variants.push_back(variantName(variantForTrial(T)));
  for (Planned &P : *Plan) {
    Summary.Entries.push_back(compareEntry(P, (*RewrittenPaths)[P.FileIndex], Opts, S->Gfy, Variants));
    // The verdicts are words and numbers now: unmap this entry's results before the next's pages
    // are touched.
    for (auto &Version : P.Runs)
      for (HarnessRun &Run : Version)
        Run.Results = HarnessResults();
  }
  return Summary;
}

} // namespace graphify::validate
