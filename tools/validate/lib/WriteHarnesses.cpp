// Write: the rewritten copies (in the cache, under a hash of their text), each entry's inputs
// and its two harness sources (in the run's temporary directory). A rewrite that split an entry
// into a padded core and a host epilogue is found here from the epilogue's marker, so that the
// rewritten harness captures the core.
#include "Pipeline.h"

#include "graphify/validate/Harness.h"
#include "graphify/validate/InputGenerator.h"
#include "graphify/validate/Interrupts.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/xxhash.h>

#include <unistd.h>

namespace graphify::validate::pipeline {

namespace {

/// A file-name-safe version of an entry name (`ns::Net` → `ns_Net`).
std::string fileSafe(const std::string &Name) {
  std::string Out;
  for (char C : Name)
    Out += llvm::isAlnum(C) || C == '_' || C == '-' ? C : '_';
  return Out;
}

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

} // namespace

llvm::Expected<std::vector<std::string>> writeRewrittenCopies(const std::vector<ModelInfo> &Models,
                                                              const std::string &CacheDir) {
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
  return RewrittenPaths;
}

llvm::Error writeHarnesses(std::vector<Planned> &Plan, const std::vector<std::string> &RewrittenPaths,
                           const std::string &Tmp, const ValidateOptions &Opts) {
  for (size_t I = 0; I < Plan.size(); ++I) {
    Planned &P = Plan[I];
    std::string Stem = Tmp + "/" + std::to_string(I) + "-" + fileSafe(P.Decl->Name);
    P.InputsPath = Stem + ".inputs";
    if (llvm::Error E = writeInputsFile(P.InputsPath, P.Inputs, Opts.Seed, Opts.Trials))
      return E;
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
        if (auto Stage = prologueStageOf(P.Decl->CallName, P.Model->RewrittenText); Stage && H.CaptureName.empty()) {
          H.CaptureName = P.CaptureName = Stage->Core;
          H.StageFunction = Stage->Function;
          H.StageText = Stage->Text;
          P.CaptureStaged = true;
        }
      }
      P.HarnessPath[V] = Stem + "." + versionName(V) + ".cpp";
      if (!writeFile(P.HarnessPath[V], generateHarness(H)))
        return error("cannot write " + P.HarnessPath[V]);
    }
  }
  return llvm::Error::success();
}

} // namespace graphify::validate::pipeline
