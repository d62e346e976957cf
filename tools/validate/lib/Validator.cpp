// The pipeline keeps one invariant: model code never runs in this process. Everything the model
// does happens in a harness process (Runner.h), and what comes back is data — a results file
// and an exit status — which the comparison turns into verdicts. Errors returned from here are
// only the ones that make the run meaningless; they become exit status 2 in main.
#include "graphify/validate/Validator.h"
#include "graphify/validate/Interrupts.h"

#include "graphify/rules/RuleSet.h"
#include "graphify/rules/StrictYaml.h"
#include "graphify/validate/Harness.h"
#include "graphify/validate/InputGenerator.h"
#include "graphify/validate/ModelSource.h"
#include "graphify/validate/Runner.h"
#include "graphify/validate/Values.h"

#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/xxhash.h>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace graphify::validate {

namespace {

llvm::Error error(const llvm::Twine &Msg) { return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg); }

void parallelFor(size_t N, unsigned Jobs, const std::function<void(size_t)> &Fn) {
  std::atomic<size_t> Next{0};
  unsigned Threads = std::max<unsigned>(1, std::min<size_t>(Jobs, N));
  std::vector<std::thread> Pool;
  for (unsigned I = 0; I < Threads; ++I)
    Pool.emplace_back([&] {
      for (size_t K; (K = Next++) < N;)
        Fn(K);
    });
  for (std::thread &T : Pool)
    T.join();
}

bool writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
  return bool(Out);
}

std::string readFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

/// A file-name-safe version of an entry name (`ns::Net` → `ns_Net`).
std::string fileSafe(const std::string &Name) {
  std::string Out;
  for (char C : Name)
    Out += llvm::isAlnum(C) || C == '_' || C == '-' ? C : '_';
  return Out;
}

/// The last `N` lines of a process's stderr, indented, for problem reports.
std::string tail(const std::string &Text, unsigned N = 6) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, false);
  std::string Out;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size(); ++I)
    Out += "\n      " + Lines[I].str();
  return Out;
}

enum Version { Original = 0, Rewritten = 1 };
const char *versionName(Version V) { return V == Original ? "original" : "rewritten"; }

/// One harness process and what it left behind.
struct HarnessRun {
  bool Ran = false;
  RunResult Process;
  HarnessResults Results;
  std::string ParseError;

  /// Empty when the process finished cleanly, else why it did not, in words.
  std::string failure(const std::string &What) const {
    if (!ParseError.empty())
      return What + ": unreadable results (" + ParseError + ")";
    if (!Results.Fatal.empty())
      return What + " raised outside any trial: " + Results.Fatal;
    if (Process.succeeded() && Results.Finished)
      return "";
    std::string Msg = What + " " + Process.describe();
    if (Process.Status == RunResult::State::Exited && Process.ExitCode == 0)
      Msg = What + " stopped before finishing";
    if (!Process.Stderr.empty())
      Msg += "; its last output:" + tail(Process.Stderr);
    return Msg;
  }
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
  std::string HarnessPath[2];
  BuildOutcome Build[2];
  bool CheckGradients = false;
  HarnessRun Runs[2][4]; // [version][eager, capture, trace, grad]
};

/// The core of the function entry `CallName` when the rewrite split it into a core and a host
/// epilogue (selection-to-padded writes `/// graphify: host epilogue of 'f_padded' ...` above
/// the epilogue, split-at-host-boundary `... of 'f_graph' ...`), qualified as `CallName` is;
/// empty otherwise. The core takes the entry's parameters first; a core that also takes the
/// wrapper's locals or a method's fields is not an entry of its own (the split of a free function
/// without a prologue is).
std::string paddedCoreOf(llvm::StringRef CallName, llvm::StringRef Rewritten) {
  auto [Qualifier, Name] = CallName.rsplit("::");
  if (Name.empty())
    std::swap(Qualifier, Name);
  const llvm::StringRef Marker = "graphify: host epilogue of '";
  for (size_t At = Rewritten.find(Marker); At != llvm::StringRef::npos; At = Rewritten.find(Marker, At + 1)) {
    llvm::StringRef Core = Rewritten.drop_front(At + Marker.size()).take_until([](char C) { return C == '\''; });
    llvm::StringRef Suffix = Core;
    if (Suffix.consume_front(Name) && (Suffix.consume_front("_padded") || Suffix.consume_front("_graph")) &&
        llvm::all_of(Suffix, [](char C) { return C >= '0' && C <= '9'; }))
      return Qualifier.empty() ? Core.str() : (Qualifier + "::" + Core).str();
  }
  return "";
}

/// The names of the parameters of the function `Name` defined in `Text` past its first `Skip`:
/// the fields a method's core takes after the method's own parameters, each named after its
/// field. Empty when the definition is not found.
std::vector<std::string> trailingParams(llvm::StringRef Name, llvm::StringRef Text, size_t Skip) {
  size_t At = Text.find((Name + "(").str());
  if (At == llvm::StringRef::npos)
    return {};
  llvm::StringRef Rest = Text.drop_front(At + Name.size() + 1);
  std::vector<std::string> Params;
  std::string Current;
  int Depth = 0;
  auto Finish = [&] {
    llvm::StringRef P = llvm::StringRef(Current).trim();
    size_t Start = P.size();
    while (Start > 0 && (llvm::isAlnum(P[Start - 1]) || P[Start - 1] == '_'))
      --Start;
    if (!P.empty())
      Params.push_back(P.drop_front(Start).str());
    Current.clear();
  };
  for (char C : Rest) {
    if (Depth == 0 && C == ')') {
      Finish();
      break;
    }
    if (Depth == 0 && C == ',') {
      Finish();
      continue;
    }
    Depth += (C == '(' || C == '<' || C == '{') - (C == ')' || C == '>' || C == '}');
    Current += C;
  }
  if (Params.size() < Skip)
    return {};
  return {Params.begin() + Skip, Params.end()};
}

/// The text of the definition of the module class `CallName` (or `CallNameImpl`, a
/// TORCH_MODULE holder's) in `Text`: from `struct Name`/`class Name` to the first `};` that starts
/// a line after it. Empty when not found (the forward's core is then not looked for).
llvm::StringRef classText(llvm::StringRef CallName, llvm::StringRef Text) {
  auto [Qualifier, Last] = CallName.rsplit("::");
  const llvm::StringRef Name = Last.empty() ? Qualifier : Last;
  for (const std::string &Candidate : {Name.str(), Name.str() + "Impl"})
    for (const char *Key : {"struct ", "class "}) {
      const std::string Head = Key + Candidate;
      for (size_t At = Text.find(Head); At != llvm::StringRef::npos; At = Text.find(Head, At + 1)) {
        const size_t After = At + Head.size();
        if (After < Text.size() && (llvm::isAlnum(Text[After]) || Text[After] == '_'))
          continue;
        const size_t Brace = Text.find_first_of("{;", After);
        if (Brace == llvm::StringRef::npos || Text[Brace] == ';')
          continue;
        const size_t End = Text.find("\n};", Brace);
        return Text.slice(At, End == llvm::StringRef::npos ? Text.size() : End);
      }
    }
  return "";
}

enum Mode { Eager = 0, Capture = 1, Trace = 2, Grad = 3 };
const char *modeName(Mode M) {
  return M == Eager ? "eager" : M == Capture ? "capture" : M == Trace ? "trace" : "grad";
}

/// Whether a backward pass failed because the runtime cannot differentiate an op the entry uses
/// (LibTorch's and the gfy runtime's "the derivative for 'X' is not implemented", or a write the
/// gfy runtime's autograd cannot record), rather than because the model raised.
bool autogradUnsupported(llvm::StringRef Message) {
  return (Message.contains("derivative for") && Message.contains("not implemented")) ||
         Message.contains("autograd does not support");
}

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

const TrialOutputs *findTrial(const std::vector<TrialOutputs> &Ts, unsigned Trial) {
  for (const TrialOutputs &T : Ts)
    if (T.Trial == Trial)
      return &T;
  return nullptr;
}

/// Checks the inputs against the entry's parameters; `Where` names the source of the specs.
llvm::Error checkInputs(const EntryDecl &D, const std::vector<InputSpec> &Specs, const std::string &Where) {
  std::string Params = llvm::join(D.Params, ", ");
  if (!D.UnsupportedReturn.empty())
    return error(Where + ": error: entry '" + D.Name + "' returns '" + D.UnsupportedReturn +
                 "'; graphify-validate compares tensors: return a tensor, a number, or a tuple, pair or vector "
                 "of those");
  if (Specs.size() > D.Params.size())
    return error(Where + ": error: entry '" + D.Name + "' takes " + llvm::Twine(D.Params.size()) + " parameter" +
                 (D.Params.size() == 1 ? "" : "s") + " (" + Params + ") but " + llvm::Twine(Specs.size()) +
                 " inputs were given");
  if (Specs.size() < D.RequiredParams)
    return error(Where + ": error: entry '" + D.Name + "' needs " + llvm::Twine(D.RequiredParams) + " input" +
                 (D.RequiredParams == 1 ? "" : "s") + " (" + Params + ") but " + llvm::Twine(Specs.size()) +
                 (Specs.size() == 1 ? " was" : " were") + " given");
  for (size_t I = 0; I < Specs.size(); ++I) {
    if (Specs[I].Name != D.Params[I])
      return error(Where + ": error: input '" + Specs[I].Name + "' does not match parameter " + llvm::Twine(I + 1) +
                   " of '" + D.Name + "', which is '" + D.Params[I] + "' (inputs follow the parameter order: " +
                   Params + ")");
    if (!D.ParamIsTensor[I])
      return error(Where + ": error: parameter '" + D.Params[I] + "' of '" + D.Name +
                   "' is not a tensor; graphify-validate only passes tensors");
  }
  return llvm::Error::success();
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

} // namespace

llvm::Expected<RunSummary> runValidation(const ValidateOptions &Opts, llvm::raw_ostream &Log) {
  if (Opts.Files.empty())
    return error("no model file given");
  if (Opts.Trials < 1)
    return error("--trials must be at least 1");
  const bool Gfy = Opts.Runtime == RuntimeKind::Gfy;
  unsigned Jobs = Opts.Jobs ? Opts.Jobs : std::max(1u, std::thread::hardware_concurrency());

  auto TC = findToolchain(Opts.Runtime, Opts.Argv0);
  if (!TC)
    return TC.takeError();
  if (Opts.Cuda && Gfy && !TC->HasCudaBackend)
    return error("no CUDA device available (the graphify runtime in " + TC->Origin +
                 " was built without its CUDA backend; it is built when graphify is configured where nvcc is found and "
                 "GRAPHIFY_CUDA is not OFF)");

  std::string RulesDir = Opts.RulesDir.empty() ? defaultRulesDirectory(Opts.Argv0) : Opts.RulesDir;
  std::vector<std::string> ParseArgs;
  for (const std::string &F : TC->CompileFlags)
    if (llvm::StringRef(F).starts_with("-D") || llvm::StringRef(F).starts_with("-std="))
      ParseArgs.push_back(F);
  for (const std::string &I : TC->IncludeDirs)
    ParseArgs.push_back("-I" + I);
  for (const std::string &A : Opts.CompilerArgs)
    ParseArgs.push_back(A);

  std::vector<std::string> Requested;
  for (const EntryRequest &R : Opts.Entries)
    Requested.push_back(R.Name);

  // 1. Parse every file (entries + rewrite), in parallel: parsing through the tensor headers is
  //    the slowest step left once the harnesses are cached.
  std::vector<std::string> AbsPaths;
  for (const std::string &File : Opts.Files) {
    // Before anything is read or parsed: a FIFO, a device or a directory is an error now.
    if (llvm::Error E = checkModelFile(File))
      return std::move(E);
    llvm::SmallString<256> Abs(File);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    AbsPaths.push_back(std::string(Abs));
  }
  Log << "graphify-validate: parsing " << Opts.Files.size() << " file" << (Opts.Files.size() == 1 ? "" : "s") << "\n";
  Log.flush();
  std::vector<ModelInfo> Models(Opts.Files.size());
  std::vector<std::string> ParseErrors(Opts.Files.size());
  parallelFor(Opts.Files.size(), Jobs, [&](size_t F) {
    auto M = loadModel({AbsPaths[F], ParseArgs, RulesDir, Requested});
    if (M)
      Models[F] = std::move(*M);
    else
      ParseErrors[F] = llvm::toString(M.takeError());
  });
  for (const std::string &E : ParseErrors)
    if (!E.empty())
      return error(E);

  // 2. Decide the entries and their inputs.
  std::vector<Planned> Plan;
  auto AddEntry = [&](size_t FileIndex, const EntryDecl &D, const std::vector<InputSpec> &Given) -> llvm::Error {
    Planned P;
    P.FileIndex = FileIndex;
    P.Model = &Models[FileIndex];
    P.Decl = &D;
    P.DisplayFile = Opts.Files[FileIndex];
    if (!Given.empty()) {
      P.Inputs = Given;
      if (auto E = checkInputs(D, Given, "--entry " + D.Name))
        return E;
    } else if (D.SpecText) {
      std::string Where = P.DisplayFile + ":" + std::to_string(D.SpecLine);
      auto Specs = parseEntryComment(*D.SpecText, Where, D.SpecColumn);
      if (!Specs)
        return Specs.takeError();
      P.Inputs = std::move(*Specs);
      if (auto E = checkInputs(D, P.Inputs, Where))
        return E;
    } else if (D.RequiredParams > 0) {
      return error("--entry " + D.Name + ": error: '" + D.Name + "' has no '// graphify-entry:' comment; give its " +
                   "inputs with --input after --entry (parameters: " + llvm::join(D.Params, ", ") + ")");
    }
    Plan.push_back(std::move(P));
    return llvm::Error::success();
  };
  if (Opts.Entries.empty()) {
    for (size_t F = 0; F < Models.size(); ++F) {
      auto Annotated = Models[F].annotated();
      if (Annotated.empty())
        Log << "graphify-validate: " << Opts.Files[F] << ": no '// graphify-entry:' comment; nothing to validate\n";
      for (const EntryDecl *D : Annotated)
        if (auto E = AddEntry(F, *D, {}))
          return std::move(E);
    }
    if (Plan.empty())
      return error("no entries to validate: annotate one with '// graphify-entry: x: f32[3]' or name it with "
                   "--entry NAME --input x=f32[3]");
  } else {
    for (const EntryRequest &R : Opts.Entries) {
      bool Found = false;
      for (size_t F = 0; F < Models.size() && !Found; ++F)
        if (const EntryDecl *D = Models[F].find(R.Name)) {
          if (auto E = AddEntry(F, *D, R.Inputs))
            return std::move(E);
          Found = true;
        }
      if (!Found) {
        std::vector<std::string> Names;
        for (const ModelInfo &M : Models)
          for (const EntryDecl &D : M.Decls)
            Names.push_back(D.Name);
        return error("unknown entry '" + R.Name + "'" + didYouMean(R.Name, Names) + "; " +
                     (Names.empty() ? std::string("the file declares no function or module with a forward")
                                    : "candidates: " + llvm::join(Names, ", ")));
      }
    }
  }

  // 3. Temp files: rewritten copies, inputs, harness sources.
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
  std::vector<std::string> RewrittenPaths(Models.size());
  for (size_t F = 0; F < Models.size(); ++F) {
    std::string Dir = CacheDir + "/rewritten/" +
                      llvm::utohexstr(llvm::xxh3_64bits(Models[F].RewrittenText + "\x1e" + Models[F].Path));
    RewrittenPaths[F] = Dir + "/" + llvm::sys::path::filename(Models[F].Path).str();
    if (readFile(RewrittenPaths[F]) == Models[F].RewrittenText && llvm::sys::fs::exists(RewrittenPaths[F]))
      continue;
    std::string Part = RewrittenPaths[F] + ".tmp" + std::to_string(::getpid());
    TrackedPath PartTracked(Part);
    if (llvm::sys::fs::create_directories(Dir) || !writeFile(Part, Models[F].RewrittenText) ||
        llvm::sys::fs::rename(Part, RewrittenPaths[F]))
      return error("cannot write the rewritten copy " + RewrittenPaths[F]);
  }
  for (size_t I = 0; I < Plan.size(); ++I) {
    Planned &P = Plan[I];
    std::string Stem = Tmp + "/" + std::to_string(I) + "-" + fileSafe(P.Decl->Name);
    P.InputsPath = Stem + ".inputs";
    if (llvm::Error E = writeInputsFile(P.InputsPath, P.Inputs, Opts.Seed, Opts.Trials))
      return std::move(E);
    P.FileRewritten = P.Model->RewrittenText != P.Model->Text;
    // By default only modules are run backward (and the harness stops at once when the module
    // has no parameters): a function's gradients are checked when --grad asks for them.
    P.CheckGradients = Opts.Gradients == GradientCheck::Always ||
                       (Opts.Gradients == GradientCheck::Auto && P.Decl->Kind == EntryKind::Module);
    for (Version V : {Original, Rewritten}) {
      HarnessSpec H;
      H.EntryName = P.Decl->CallName;
      H.Kind = P.Decl->Kind;
      H.NumInputs = P.Inputs.size();
      H.ModelPath = V == Original ? P.Model->Path : RewrittenPaths[P.FileIndex];
      H.Version = versionName(V);
      if (V == Rewritten && P.Decl->Kind == EntryKind::Module) {
        // A module's forward split by selection-to-padded: its core is a static member that takes
        // the inputs, then the fields; captured when every parameter of forward is an input.
        llvm::StringRef Class = classText(P.Decl->CallName, P.Model->RewrittenText);
        std::string Core = paddedCoreOf("forward", Class);
        if (llvm::StringRef(Core).contains("_padded") && P.Decl->Params.size() == P.Inputs.size()) {
          H.CaptureName = P.CaptureName = Core;
          H.CaptureFields = trailingParams(Core, Class, P.Decl->Params.size());
        }
      } else if (V == Rewritten) {
        H.CaptureName = P.CaptureName = paddedCoreOf(P.Decl->CallName, P.Model->RewrittenText);
      }
      P.HarnessPath[V] = Stem + "." + versionName(V) + ".cpp";
      if (!writeFile(P.HarnessPath[V], generateHarness(H)))
        return error("cannot write " + P.HarnessPath[V]);
    }
  }

  // 4. Build (in parallel, cached). An unchanged rewrite reuses the original's executable.
  std::vector<std::pair<size_t, Version>> Builds;
  for (size_t I = 0; I < Plan.size(); ++I) {
    Builds.push_back({I, Original});
    if (Plan[I].FileRewritten)
      Builds.push_back({I, Rewritten});
  }
  Log << "graphify-validate: building " << Builds.size() << " harness" << (Builds.size() == 1 ? "" : "es")
      << " against " << TC->Origin << "\n";
  Log.flush();
  parallelFor(Builds.size(), Jobs, [&](size_t K) {
    auto [I, V] = Builds[K];
    Planned &P = Plan[I];
    BuildRequest Req;
    Req.SourcePath = P.HarnessPath[V];
    Req.SourceText = readFile(P.HarnessPath[V]);
    Req.ModelText = V == Original ? P.Model->Text : P.Model->RewrittenText;
    Req.ExtraArgs.push_back("-I" + llvm::sys::path::parent_path(P.Model->Path).str());
    for (const std::string &A : Opts.CompilerArgs)
      Req.ExtraArgs.push_back(A);
    P.Build[V] = buildHarness(*TC, Req, CacheDir, Opts.CompileTimeoutSeconds);
  });
  for (Planned &P : Plan) {
    if (!P.FileRewritten)
      P.Build[Rewritten] = P.Build[Original];
    if (!P.Build[Original].Ok)
      return error(P.DisplayFile + ": entry '" + P.Decl->Name + "' does not compile against " + TC->Origin + ":\n" +
                   P.Build[Original].Diagnostics);
  }

  // 5. Run every harness in its own process.
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
      if (Gfy) {
        Runs.push_back({I, V, Capture});
        if (V == Original)
          Runs.push_back({I, V, Trace});
      }
    }
  Log << "graphify-validate: running " << Plan.size() << (Plan.size() == 1 ? " entry" : " entries") << " ("
      << Runs.size() << " processes, " << Opts.Trials << " trials)\n";
  Log.flush();
  parallelFor(Runs.size(), Jobs, [&](size_t K) {
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

  // 6. Compare and report.
  RunSummary S;
  S.Runtime = Gfy ? "gfy" : "libtorch";
  S.Device = Opts.Cuda ? "cuda" : "cpu";
  S.Trials = Opts.Trials;
  S.Seed = Opts.Seed;
  std::vector<std::string> Variants;
  for (unsigned T = 0; T < Opts.Trials; ++T)
    Variants.push_back(variantName(variantForTrial(T)));
  for (Planned &P : Plan) {
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
    auto Trial = [&](unsigned T) { return "trial " + std::to_string(T) + " (" + Variants[T] + ")"; };

    if (P.FileRewritten && !P.Build[Rewritten].Ok) {
      E.Problems.push_back("the rewritten file does not compile:\n" + P.Build[Rewritten].Diagnostics);
    }
    const HarnessRun &OrigEager = P.Runs[Original][Eager];
    const HarnessRun &RewEager = P.Runs[Rewritten][Eager];
    if (std::string F = OrigEager.failure("the original's eager run"); !F.empty())
      E.Problems.push_back(F);
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

    if (P.CheckGradients)
      compareGradients(P, Opts, Variants, E);

    if (Gfy) {
      E.Original = captureVerdict(P.Runs[Original][Capture], RewrittenPaths[P.FileIndex], P.DisplayFile,
                                  "the original's capture run");
      const HarnessRun &RewCap = P.Runs[Rewritten][Capture];
      E.Rewritten = RewCap.Ran ? captureVerdict(RewCap, RewrittenPaths[P.FileIndex], P.DisplayFile,
                                                "the rewritten capture run")
                               : CaptureVerdict{CaptureVerdict::State::Error, "", "", 0, "not built"};
      E.ReplayChecked = true;
      E.ReplayTrials = Opts.Trials - 1;
      if (!P.CaptureName.empty())
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
    S.Entries.push_back(std::move(E));
    // The verdicts are words and numbers now: unmap this entry's results before the next's pages
    // are touched.
    for (auto &Version : P.Runs)
      for (HarnessRun &Run : Version)
        Run.Results = HarnessResults();
  }

  return S;
}

} // namespace graphify::validate
