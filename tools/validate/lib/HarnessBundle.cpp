// Running the harnesses on another machine (--harness-bundle, --harness-results): a GPU machine
// has no LLVM, so graphify-validate cannot run there. Everything that needs LLVM (parsing,
// rewriting, writing and building the harnesses) happens here; the bundle holds the executables,
// their inputs, the shared runtime they load and `run`, a shell script that runs every harness
// process of the plan and leaves, per run K, K.status (exit code, start and end time), K.stdout,
// K.stderr and K.results. Read back with the same command line, the results go through the same
// comparison as a local run. Runs are numbered by listRuns' order; the MANIFEST the script copies
// next to the results names each run, so results from another plan are refused, not misread.
#include "Pipeline.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdio>
#include <map>
#include <unistd.h>

namespace graphify::validate::pipeline {

namespace {

namespace fs = llvm::sys::fs;

std::string runName(size_t K) { return "run" + std::to_string(K); }

/// What the results must belong to: the options that change what the harnesses compute, then one
/// line per run.
std::string manifest(const std::vector<Planned> &Plan, const std::vector<RunJob> &Runs, const ValidateOptions &Opts) {
  std::string Text = "device " + std::string(Opts.Cuda ? "cuda" : "cpu") + " seed " + std::to_string(Opts.Seed) +
                     " trials " + std::to_string(Opts.Trials) + "\n";
  for (size_t K = 0; K < Runs.size(); ++K) {
    const Planned &P = Plan[Runs[K].Entry];
    Text += runName(K) + " " + P.DisplayFile + " " + P.Decl->Name + " " + versionName(Runs[K].V) + " " +
            modeName(Runs[K].M) + "\n";
  }
  return Text;
}

/// Single quotes for the shell.
std::string quoted(llvm::StringRef S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

llvm::Error copyInto(const std::string &From, const std::string &To) {
  if (auto EC = fs::copy_file(From, To))
    return error("cannot copy " + From + " to " + To + ": " + EC.message());
  return llvm::Error::success();
}

/// Copies the shared library `Lib` into `Dir` as it is laid out: each link of the chain
/// (libx.so -> libx.so.0.1 -> libx.so.0.1.0) as a link, the file at its end as a file, so that
/// the soname the harnesses ask for is there.
llvm::Error copyLibraryChain(const std::string &Lib, const std::string &Dir) {
  std::string Path = Lib;
  for (int Depth = 0; Depth < 8; ++Depth) {
    const std::string Name = llvm::sys::path::filename(Path).str();
    if (!fs::is_symlink_file(Path))
      return copyInto(Path, Dir + "/" + Name);
    char Target[4096];
    const ssize_t N = ::readlink(Path.c_str(), Target, sizeof(Target) - 1);
    if (N <= 0)
      return error("cannot read the link " + Path);
    const llvm::StringRef To(Target, size_t(N));
    if (auto EC = fs::create_link(llvm::sys::path::filename(To), Dir + "/" + Name))
      return error("cannot make the link " + Name + " in " + Dir + ": " + EC.message());
    llvm::SmallString<256> Next(llvm::sys::path::is_absolute(To) ? "" : llvm::sys::path::parent_path(Path));
    llvm::sys::path::append(Next, To);
    Path = std::string(Next);
  }
  return error("too many links from " + Lib);
}

/// The script: `run RESULTS_DIR [TIMEOUT]`, POSIX sh and coreutils' timeout only.
std::string runScript(const std::vector<Planned> &Plan, const std::vector<RunJob> &Runs,
                      const std::map<std::pair<size_t, int>, std::string> &Exes, const ValidateOptions &Opts) {
  std::string S = "#!/bin/sh\n"
                  "# Runs graphify-validate's harnesses (made with --harness-bundle) and leaves their results in\n"
                  "# RESULTS_DIR; read them back with the same graphify-validate command line and\n"
                  "# --harness-results=RESULTS_DIR.\n"
                  "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
                  "out=${1:?usage: run RESULTS_DIR}\n"
                  "mkdir -p \"$out\" || exit 2\n"
                  "cp \"$here/MANIFEST\" \"$out/MANIFEST\"\n"
                  "export LD_LIBRARY_PATH=\"$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"\n"
                  "one() { # one NAME EXE ARGS...: exit code (124 timed out, 128+N signal N), start and end\n"
                  "  name=$1; shift\n"
                  "  start=$(date +%s.%N)\n"
                  "  timeout " + std::to_string(Opts.TimeoutSeconds) +
                  " \"$here/$1\" \"$2\" \"$here/$3\" \"$out/$name.results\" \"$4\" \"$5\" >\"$out/$name.stdout\" "
                  "2>\"$out/$name.stderr\"\n"
                  "  echo \"$? $start $(date +%s.%N)\" >\"$out/$name.status\"\n"
                  "}\n";
  for (size_t K = 0; K < Runs.size(); ++K) {
    const RunJob &J = Runs[K];
    S += "one " + runName(K) + " " + quoted(Exes.at({J.Entry, int(J.V)})) + " " + quoted(harnessMode(J, Opts)) +
         " inputs" + std::to_string(J.Entry) + " " + harnessDevice(J, Opts) + " " + std::to_string(Opts.Seed) +
         " &\n";
    // A few at a time: the machine's cores, without asking (no nproc in some images).
    if (K % 8 == 7)
      S += "wait\n";
  }
  S += "wait\necho \"graphify-validate harnesses: " + std::to_string(Runs.size()) + " runs, results in $out\"\n";
  return S;
}

/// The bundle's files into the fresh folder `Dir`.
llvm::Error writeBundleFiles(const std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                             const std::string &Dir);

} // namespace

llvm::Error useSharedRuntime(Toolchain &TC) {
  if (TC.Runtime != RuntimeKind::Gfy || TC.LinkArgs.empty())
    return error("--harness-bundle needs the bundled runtime (--runtime=gfy)");
  std::string &Lib = TC.LinkArgs.front();
  if (llvm::StringRef(Lib).ends_with(".a")) {
    const std::string Shared = Lib.substr(0, Lib.size() - 2) + ".so";
    if (!fs::exists(Shared))
      return error("--harness-bundle links the harnesses against the shared runtime library, and " + Shared +
                   " does not exist (build graphify_runtime_shared)");
    Lib = Shared;
    TC.Origin += ", linked to its shared library";
  }
  TC.LinkArgs.push_back("-Wl,-rpath,$ORIGIN");
  return llvm::Error::success();
}

llvm::Error writeHarnessBundle(const std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                               const std::string &Dir, llvm::raw_ostream &Log) {
  if (fs::exists(Dir))
    return error("--harness-bundle: " + Dir + " exists; give a new folder");
  if (auto EC = fs::create_directories(Dir))
    return error("cannot create " + Dir + ": " + EC.message());
  // A bundle is written whole or not at all: a half-copied one would run and mislead.
  if (llvm::Error E = writeBundleFiles(Plan, S, Opts, Dir)) {
    fs::remove_directories(Dir);
    return E;
  }
  Log << "graphify-validate: " << listRuns(Plan, S).size() << " harness runs of " << Plan.size()
      << (Plan.size() == 1 ? " entry" : " entries") << " written to " << Dir << "\n";
  return llvm::Error::success();
}

namespace {

llvm::Error writeBundleFiles(const std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                             const std::string &Dir) {
  const std::vector<RunJob> Runs = listRuns(Plan, S);
  std::map<std::pair<size_t, int>, std::string> Exes;
  for (const RunJob &J : Runs) {
    auto [It, New] = Exes.insert({{J.Entry, int(J.V)}, "harness" + std::to_string(J.Entry) + "-" + versionName(J.V)});
    if (!New)
      continue;
    if (llvm::Error E = copyInto(Plan[J.Entry].Build[J.V].Executable, Dir + "/" + It->second))
      return E;
    fs::setPermissions(Dir + "/" + It->second, fs::perms(0755));
  }
  for (size_t I = 0; I < Plan.size(); ++I)
    if (llvm::Error E = copyInto(Plan[I].InputsPath, Dir + "/inputs" + std::to_string(I)))
      return E;
  if (llvm::Error E = copyLibraryChain(S.TC.LinkArgs.front(), Dir))
    return E;
  if (!writeFile(Dir + "/MANIFEST", manifest(Plan, Runs, Opts)) ||
      !writeFile(Dir + "/run", runScript(Plan, Runs, Exes, Opts)))
    return error("cannot write the run script into " + Dir);
  fs::setPermissions(Dir + "/run", fs::perms(0755));
  return llvm::Error::success();
}

} // namespace

llvm::Error readHarnessResults(std::vector<Planned> &Plan, const Setup &S, const ValidateOptions &Opts,
                               const std::string &Dir) {
  const std::vector<RunJob> Runs = listRuns(Plan, S);
  const std::string Expected = manifest(Plan, Runs, Opts), Found = readFile(Dir + "/MANIFEST");
  if (Found.empty())
    return error("--harness-results: " + Dir + "/MANIFEST is missing (a folder the bundle's run script wrote?)");
  if (Found != Expected)
    return error("--harness-results: the runs in " + Dir +
                 " belong to another plan (other files, entries, options or rewrites than this command's); "
                 "make the bundle again with this command line and --harness-bundle");
  for (size_t K = 0; K < Runs.size(); ++K) {
    const RunJob &J = Runs[K];
    Planned &P = Plan[J.Entry];
    HarnessRun &R = P.Runs[J.V][J.M];
    const std::string Base = Dir + "/" + runName(K);
    const std::string Status = readFile(Base + ".status");
    llvm::SmallVector<llvm::StringRef, 3> Fields;
    llvm::StringRef(Status).trim().split(Fields, ' ');
    int Code = 0;
    double Start = 0, End = 0;
    if (Fields.size() != 3 || Fields[0].getAsInteger(10, Code) || Fields[1].getAsDouble(Start) ||
        Fields[2].getAsDouble(End))
      return error("--harness-results: " + Base + ".status is missing or malformed; did the run script finish?");
    R.Ran = true;
    R.Process.TimeoutSeconds = Opts.TimeoutSeconds;
    R.Process.Seconds = End - Start;
    R.Process.Stdout = readFile(Base + ".stdout");
    R.Process.Stderr = readFile(Base + ".stderr");
    if (Code == 124) {
      R.Process.Status = RunResult::State::TimedOut;
    } else if (Code > 128) {
      R.Process.Status = RunResult::State::Signaled;
      R.Process.Signal = Code - 128;
    } else {
      R.Process.Status = RunResult::State::Exited;
      R.Process.ExitCode = Code;
    }
    readRunResults(R, P, Base + ".results");
  }
  return finishRuns(Plan, Opts.Trials);
}

} // namespace graphify::validate::pipeline
