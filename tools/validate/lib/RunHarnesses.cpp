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

std::vector<RunJob> listRuns(const std::vector<Planned> &Plan, const Setup &S) {
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
      if (S.Cuda && V == Original)
        Runs.push_back({I, V, HostEager});
    }
  return Runs;
}

std::string harnessMode(const RunJob &J, const ValidateOptions &Opts) {
  if (J.M == HostEager)
    return "eager";
  return J.M == Grad && Opts.Gradients != GradientCheck::Always ? "grad-if-params" : modeName(J.M);
}

std::string harnessDevice(const RunJob &J, const ValidateOptions &Opts) {
  return Opts.Cuda && J.M != HostEager ? "cuda" : "cpu";
}

namespace {

/// Trials whose entry raised (or that are missing) in an eager run.
unsigned failedTrials(const HarnessRun &R, unsigned Trials) {
  unsigned Failed = 0;
  for (unsigned T = 0; T < Trials; ++T) {
    const TrialOutputs *O = findTrial(R.Results.Eager, T);
    Failed += !O || !O->Ok;
  }
  return Failed;
}

/// With --device=cuda, code written for the host (a kernel over data_ptr(), CPU tensors mixed in)
/// cannot run on the device while its rewrite can: the original's outputs then come from its CPU
/// run, and the report says so.
void useHostReference(Planned &P, unsigned Trials) {
  HarnessRun &Device = P.Runs[Original][Eager], &Host = P.Runs[Original][HostEager];
  if (!Host.Ran || !Host.failure("").empty())
    return;
  const std::string Failure = Device.failure("its eager run");
  const unsigned DeviceFailed = failedTrials(Device, Trials), HostFailed = failedTrials(Host, Trials);
  if (Failure.empty() && DeviceFailed <= HostFailed)
    return;
  std::string Why = Failure.empty() ? "" : "its eager run " + Device.Process.describe();
  if (Why.empty() && !Device.ParseError.empty())
    Why = "its results are unreadable";
  if (Why.empty()) {
    auto It = llvm::find_if(Device.Results.Eager, [](const TrialOutputs &O) { return !O.Ok; });
    Why = It != Device.Results.Eager.end() ? "it raised: " + It->Error : "trials are missing";
  }
  P.OriginalOnHost = Why;
  Device = Host;
}

} // namespace

void readRunResults(HarnessRun &R, const Planned &P, const std::string &ResultsPath) {
  auto Parsed = readResultsFile(ResultsPath);
  if (Parsed) {
    R.Results = std::move(*Parsed);
    nameGradientTargets(R.Results.Gradients, P.Inputs);
  } else
    R.ParseError = llvm::toString(Parsed.takeError());
}

llvm::Error finishRuns(std::vector<Planned> &Plan, unsigned Trials) {
  for (Planned &P : Plan) {
    for (Version V : {Original, Rewritten})
      for (auto &Run : P.Runs[V])
        if (!Run.Results.NoDevice.empty())
          return error("no CUDA device available (" + Run.Results.NoDevice + ")");
    useHostReference(P, Trials);
    if (!P.FileRewritten)
      for (Mode M : {Eager, Capture, Grad})
        P.Runs[Rewritten][M] = P.Runs[Original][M];
  }
  return llvm::Error::success();
}

llvm::Error runHarnesses(std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                         llvm::raw_ostream &Log) {
  const std::vector<RunJob> Runs = listRuns(Plan, S);
  Log << "graphify-validate: running " << Plan.size() << (Plan.size() == 1 ? " entry" : " entries") << " ("
      << Runs.size() << " processes, " << Opts.Trials << " trials)\n";
  Log.flush();
  parallelFor(Runs.size(), S.Jobs, [&](size_t K) {
    const RunJob &J = Runs[K];
    Planned &P = Plan[J.Entry];
    std::string Results = P.HarnessPath[J.V] + "." + modeName(J.M) + ".results";
    HarnessRun &R = P.Runs[J.V][J.M];
    R.Ran = true;
    R.Process = runIsolated({P.Build[J.V].Executable, harnessMode(J, Opts), P.InputsPath, Results,
                             harnessDevice(J, Opts), std::to_string(Opts.Seed)},
                            Opts.TimeoutSeconds);
    readRunResults(R, P, Results);
  });
  return finishRuns(Plan, Opts.Trials);
}

} // namespace graphify::validate::pipeline
