// Build and run: every harness is compiled (in parallel, cached by its text and the runtime's
// fingerprint) and run in a process of its own, once per mode (eager, capture, trace, grad);
// what a run leaves is its results file, read back as data.
#include "Pipeline.h"

#include <llvm/Support/Path.h>

namespace graphify::validate::pipeline {

namespace {


/// The harness numbers inputs (`input 1`); the report names them (`input 'w'`) and quotes
/// parameter names (`parameter 'fc.weight'`).
void nameGradientTargets(std::vector<TrialGradients> &Trials, const std::vector<InputSpec> &Inputs) {
  for (TrialGradients &T : Trials)
    for (NamedGradient &G : T.Gradients) {
      llvm::StringRef Target(G.Target);
      unsigned Index = 0;
      if (Target.consume_front("input ") && !Target.getAsInteger(10, Index) && Index < Inputs.size())
        G.Target = "input '" + Inputs[Index].Name + "'";
      else if (llvm::StringRef(G.Target).consume_front("parameter "))
        G.Target = "parameter '" + G.Target.substr(strlen("parameter ")) + "'";
    }
}

} // namespace

llvm::Error buildHarnesses(std::vector<Planned> &Plan, const Setup &S, const std::string &CacheDir,
                           const ValidateOptions &Opts, llvm::raw_ostream &Log) {
  const Toolchain &TC = S.TC;
  // An unchanged rewrite reuses the original's executable.
  std::vector<std::pair<size_t, Version>> Builds;
  for (size_t I = 0; I < Plan.size(); ++I) {
    Builds.push_back({I, Original});
    if (Plan[I].FileRewritten)
      Builds.push_back({I, Rewritten});
  }
  Log << "graphify-validate: building " << Builds.size() << " harness" << (Builds.size() == 1 ? "" : "es")
      << " against " << TC.Origin << "\n";
  Log.flush();
  parallelFor(Builds.size(), S.Jobs, [&](size_t K) {
    auto [I, V] = Builds[K];
    Planned &P = Plan[I];
    BuildRequest Req;
    Req.SourcePath = P.HarnessPath[V];
    Req.SourceText = readFile(P.HarnessPath[V]);
    Req.ModelText = V == Original ? P.Model->Text : P.Model->RewrittenText;
    Req.ExtraArgs.push_back("-I" + llvm::sys::path::parent_path(P.Model->Path).str());
    for (const std::string &A : Opts.CompilerArgs)
      Req.ExtraArgs.push_back(A);
    P.Build[V] = buildHarness(TC, Req, CacheDir, Opts.CompileTimeoutSeconds);
  });
  for (Planned &P : Plan) {
    if (!P.FileRewritten)
      P.Build[Rewritten] = P.Build[Original];
    if (!P.Build[Original].Ok)
      return error(P.DisplayFile + ": entry '" + P.Decl->Name + "' does not compile against " + TC.Origin + ":\n" +
                   P.Build[Original].Diagnostics);
  }
  return llvm::Error::success();
}

llvm::Error runHarnesses(std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                         llvm::raw_ostream &Log) {
  struct RunJob {
    size_t Entry;
    Version V;
    Mode M;
  };
  std::vector<RunJob> Runs;
  for (size_t I = 0; I < Plan.size(); ++I)
    for (Version V : {Original, Rewritten}) {
      if (V == Rewritten && (!Plan[I].FileRewritten || !Plan[I].Build[Rewritten].Ok))
        continue;
      Runs.push_back({I, V, Eager});
      if (Plan[I].CheckGradients)
        Runs.push_back({I, V, Grad});
      if (S.Gfy) {
        Runs.push_back({I, V, Capture});
        if (V == Original)
          Runs.push_back({I, V, Trace});
      }
    }
  Log << "graphify-validate: running " << Plan.size() << (Plan.size() == 1 ? " entry" : " entries") << " ("
      << Runs.size() << " processes, " << Opts.Trials << " trials)\n";
  Log.flush();
  parallelFor(Runs.size(), S.Jobs, [&](size_t K) {
    const RunJob &J = Runs[K];
    Planned &P = Plan[J.Entry];
    std::string Results = P.HarnessPath[J.V] + "." + modeName(J.M) + ".results";
    HarnessRun &R = P.Runs[J.V][J.M];
    R.Ran = true;
    std::string HarnessMode = modeName(J.M);
    if (J.M == Grad && Opts.Gradients != GradientCheck::Always)
      HarnessMode = "grad-if-params";
    R.Process = runIsolated({P.Build[J.V].Executable, HarnessMode, P.InputsPath, Results,
                             Opts.Cuda ? "cuda" : "cpu", std::to_string(Opts.Seed)},
                            Opts.TimeoutSeconds);
    auto Parsed = readResultsFile(Results);
    if (Parsed) {
      R.Results = std::move(*Parsed);
      nameGradientTargets(R.Results.Gradients, P.Inputs);
    } else
      R.ParseError = llvm::toString(Parsed.takeError());
  });
  for (Planned &P : Plan) {
    for (Version V : {Original, Rewritten})
      for (auto &Run : P.Runs[V])
        if (!Run.Results.NoDevice.empty())
          return error("no CUDA device available (" + Run.Results.NoDevice + ")");
    if (!P.FileRewritten)
      for (Mode M : {Eager, Capture, Grad})
        P.Runs[Rewritten][M] = P.Runs[Original][M];
  }
  return llvm::Error::success();
}

} // namespace graphify::validate::pipeline
