// graphify-lint's top level. Invariant: output is a pure function of the inputs — files are
// parsed in any order and in parallel, but results are collected per input position and printed
// in the order the files were given, sorted and de-duplicated within each, so `-j 8` and `-j 1`
// print byte-identical reports. The exit code is decided here and only here: 2 for any usage,
// configuration, rules or compile error, else 1 when anything was reported, else 0.
#include "graphify/lint/Driver.h"
#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/Check.h"
#include "graphify/lint/Config.h"
#include "graphify/lint/ConfigStore.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/ReportedPaths.h"
#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/Depfile.h"
#include "graphify/lint/Fixes.h"
#include "graphify/lint/LintJob.h"
#include "graphify/lint/Options.h"
#include "graphify/lint/Preamble.h"
#include "graphify/lint/ProgramSession.h"
#include "graphify/lint/RunNotes.h"
#include "graphify/lint/SharedPchPlan.h"
#include "graphify/lint/SummaryDirectory.h"
#include "graphify/lint/SummarySteps.h"
#include "graphify/lint/SummaryFile.h"
#include "graphify/lint/Nolint.h"
#include "graphify/lint/Output.h"
#include "graphify/rules/RuleSet.h"
#include "graphify/rules/StrictYaml.h"


#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Timer.h>
#include <llvm/Support/FormatVariadic.h>

#include <chrono>
#include <thread>
#include <map>
#include <optional>
#include <set>
#include <mutex>


namespace graphify {
namespace {

std::string resolveResourceDir(const LintOptions &O) {
  if (!O.ResourceDir.empty())
    return O.ResourceDir;
  if (auto Env = llvm::sys::Process::GetEnv("GRAPHIFY_RESOURCE_DIR"); Env && !Env->empty())
    return *Env;
  return GRAPHIFY_CLANG_RESOURCE_DIR;
}

/// Whole-program mode by summaries (--emit-summary, --emit-summaries, --program-summary).
struct SummaryMode {
  const ProgramFacts *Imported = nullptr; ///< the program summary's facts
  bool Export = false;                    ///< write each unit's summary
  bool any() const { return Imported || Export; }
};

/// The pipeline's view of a job.
LintUnit unitFor(const LintJob &J, bool Color, const std::string &ProjectRoot, bool RecordFilesRead,
                 const SummaryMode &Summaries) {
  LintUnit U;
  U.Imported = Summaries.Imported;
  U.ExportFacts = Summaries.Export;
  U.ExportOnly = Summaries.Export;
  U.RecordFilesRead = RecordFilesRead;
  U.ProjectRoot = ProjectRoot;
  U.CommandLine = J.CommandLine;
  U.WorkingDir = J.Command.Directory;
  U.File = J.Command.Filename;
  U.Config = J.Config;
  U.Rules = J.Rules;
  U.Pch = J.Pch;
  U.ColorDiagnostics = Color;
  return U;
}

/// The deepest directory holding every input file: the project whose headers are analysed. Empty
/// (each file's own directory) for one file, or when only `/` holds them all.
std::string projectRoot(const std::vector<LintJob> &Jobs) {
  if (Jobs.size() < 2)
    return {};
  std::string Root;
  for (const LintJob &J : Jobs) {
    llvm::SmallString<256> Path(J.Command.Filename);
    if (!llvm::sys::path::is_absolute(Path)) {
      Path = J.Command.Directory;
      llvm::sys::path::append(Path, J.Command.Filename);
    }
    llvm::sys::path::remove_dots(Path, true);
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    if (Root.empty()) {
      Root = Dir.str();
      continue;
    }
    while (!Root.empty() && !(Dir.starts_with(Root) && (Dir.size() == Root.size() || Dir[Root.size()] == '/')))
      Root = llvm::sys::path::parent_path(Root).str();
  }
  return Root == "/" ? std::string() : repositoryRoot(Root);
}

/// The order the units' facts are merged in (SummaryFile.h's, so that both whole-program modes
/// pick the same origin for a fact two units explain).
std::vector<size_t> mergeOrder(const std::vector<LintJob> &Jobs) {
  std::vector<UnitSummary> Ids;
  for (const LintJob &J : Jobs)
    Ids.push_back(summaryOf(J));
  std::vector<size_t> Order(Jobs.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) { return mergesBefore(Ids[A], Ids[B]); });
  return Order;
}

/// Lints every job as one program (docs/architecture.md): a thread per translation unit, with at
/// most `Slots` of them parsing or analysing at once. When there are no more units than slots,
/// each keeps its AST while the session settles the program's facts; otherwise each parses again
/// for every round it takes part in and for the checks, so that no more than `Slots` ASTs are
/// ever alive.
std::vector<LintUnitResult> lintProgram(const std::vector<LintJob> &Jobs, unsigned Slots, bool Color,
                                        const std::string &ProjectRoot, bool RecordFilesRead) {
  std::vector<LintUnitResult> Results(Jobs.size());
  ProgramSession Session(Jobs.size(), Slots, mergeOrder(Jobs));
  std::vector<std::thread> Threads;
  Threads.reserve(Jobs.size());
  for (size_t I = 0; I < Jobs.size(); ++I)
    Threads.emplace_back([&, I] {
      Session.acquireCpu();
      LintUnit U = unitFor(Jobs[I], Color, ProjectRoot, RecordFilesRead, SummaryMode());
      U.Program = &Session;
      U.ProgramIndex = I;
      U.ReparseEachRound = Jobs.size() > Slots;
      Results[I] = lintTranslationUnit(U);
      Session.leave(I);
      Session.releaseCpu();
    });
  for (std::thread &T : Threads)
    T.join();
  return Results;
}

/// Whether the check globs enable at least one check: `Checks: x` (a typo) must not silently
/// turn the linter off.
bool anyCheckEnabled(llvm::StringRef Checks) {
  GlobList Enabled(Checks);
  return llvm::any_of(allChecks(), [&](const CheckInfo &C) { return Enabled.contains(C.Id); }) ||
         Enabled.contains(NolintCheckId);
}

void printVersion(llvm::raw_ostream &Out, llvm::StringRef ResourceDir, llvm::StringRef RulesDir) {
  Out << "graphify-lint version " << GRAPHIFY_VERSION << "\n"
      << "  LLVM version " << GRAPHIFY_LLVM_VERSION << "\n"
      << "  clang resource dir: " << ResourceDir << "\n"
      << "  rules dir: " << RulesDir << "\n";
}

int listChecks(llvm::raw_ostream &Out, const LintConfig &C, const RuleSet &Rules) {
  GlobList Enabled(C.Checks);
  std::vector<const CheckInfo *> On, Off;
  for (const CheckInfo &I : allChecks()) {
    bool InProfile = C.ProfileKind != Profile::Trace || I.InTraceProfile;
    (Enabled.contains(I.Id) && InProfile ? On : Off).push_back(&I);
  }
  Out << "Enabled checks (profile " << profileName(C.ProfileKind) << ", scope " << scopeName(C.ScopeKind) << "):\n";
  for (const CheckInfo *I : On)
    Out << "    " << llvm::left_justify(I->Id, 34) << " " << I->Summary << "\n";
  if (On.empty())
    Out << "    (none)\n";
  if (!Off.empty()) {
    Out << "\nDisabled checks:\n";
    for (const CheckInfo *I : Off)
      Out << "    " << llvm::left_justify(I->Id, 34) << " " << I->Summary << "\n";
  }
  Out << "\nRule packs loaded:\n";
  for (const std::string &P : Rules.packFiles())
    Out << "    " << P << "\n";
  return ExitClean;
}

int explainCheck(llvm::raw_ostream &Out, llvm::raw_ostream &Err, llvm::StringRef Id) {
  const CheckInfo *C = findCheck(Id);
  if (!C) {
    std::vector<std::string> Ids;
    for (const CheckInfo &I : allChecks())
      Ids.push_back(I.Id);
    Err << "graphify-lint: error: unknown check '" << Id << "'" << didYouMean(Id, Ids)
        << "; see --list-checks\n";
    return ExitError;
  }
  Out << C->Id << ": " << C->Summary << "\n\n"
      << C->Description << "\n\n"
      << "How to fix: " << C->Help << "\n\n"
      << "Profiles: cuda-graph" << (C->InTraceProfile ? ", trace" : "") << "\n";
  return ExitClean;
}

} // namespace

int runLint(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  const auto Started = std::chrono::steady_clock::now();
  auto Parsed = parseLintOptions(Argv);
  if (!Parsed) {
    Err << "graphify-lint: " << llvm::toString(Parsed.takeError()) << "\n";
    return ExitError;
  }
  const LintOptions &O = *Parsed;
  if (O.Help) {
    Out << lintHelpText();
    return ExitClean;
  }
  std::string ResourceDir = resolveResourceDir(O);
  std::string RulesDir = O.RulesDir.empty() ? defaultRulesDirectory(Argv.empty() ? nullptr : Argv[0]) : O.RulesDir;
  if (O.Version) {
    printVersion(Out, ResourceDir, RulesDir);
    return ExitClean;
  }
  if (!O.Explain.empty())
    return explainCheck(Out, Err, O.Explain);

  auto fail = [&](llvm::Error E) {
    Err << llvm::toString(std::move(E)) << "\n";
    return ExitError;
  };
  ConfigStore Configs(O, RulesDir);
  if (O.ListChecks || O.DumpConfig) {
    auto C = Configs.configFor(O.Files.empty() ? "" : O.Files.front());
    if (!C)
      return fail(C.takeError());
    if (O.DumpConfig) {
      Out << dumpConfig(*C);
      return ExitClean;
    }
    auto Rules = Configs.rulesFor(C->RulePacks);
    if (!Rules)
      return fail(Rules.takeError());
    return listChecks(Out, *C, **Rules);
  }
  if (int(O.Fix) + int(O.Diff) + int(!O.ExportFixes.empty()) > 1) {
    Err << "graphify-lint: error: --fix, --diff and --export-fixes are exclusive\n";
    return ExitError;
  }
  if (!O.EmitSummary.empty() && !O.EmitSummaries.empty()) {
    Err << "graphify-lint: error: --emit-summary and --emit-summaries are exclusive\n";
    return ExitError;
  }
  const bool Emitting = !O.EmitSummary.empty() || !O.EmitSummaries.empty();
  if (!O.Depfile.empty() && !Emitting && O.ProgramSummary.empty()) {
    Err << "graphify-lint: error: --depfile needs --emit-summary, --emit-summaries or --program-summary (the "
           "modes that record the project files a unit reads)\n";
    return ExitError;
  }
  if (!O.Depfile.empty() && O.DepfileTarget.empty() && O.EmitSummary.empty()) {
    Err << "graphify-lint: error: --depfile needs --depfile-target=<path> (the output the build system "
           "names) unless --emit-summary names the file written\n";
    return ExitError;
  }
  if (Emitting && (O.Fix || O.Diff || !O.ExportFixes.empty())) {
    Err << "graphify-lint: error: writing summaries only extracts facts, there is nothing to fix; fix with "
           "--program-summary alone\n";
    return ExitError;
  }
  std::optional<ProgramSummary> Linked;
  if (!O.ProgramSummary.empty()) {
    llvm::Expected<ProgramSummary> P = readProgramSummary(O.ProgramSummary, GRAPHIFY_VERSION);
    if (!P)
      return fail(P.takeError());
    if (!P->Settled && !Emitting && !O.Quiet)
      Err << "graphify-lint: warning: '" << O.ProgramSummary << "' is not settled (graphify-link exited 3): "
          << "findings may differ from whole-program mode's until the units it names are extracted again\n";
    Linked = std::move(*P);
  }
  SummaryMode Summaries;
  Summaries.Imported = Linked ? &Linked->Facts : nullptr;
  Summaries.Export = Emitting;

  if (!ResourceDir.empty() && !llvm::sys::fs::is_directory(ResourceDir + "/include"))
    Err << "graphify-lint: warning: clang resource dir '" << ResourceDir
        << "' has no include/; builtin headers such as <stddef.h> will not be found\n";

  std::string Notice;
  auto DB = loadCompilationDatabase(O.BuildPath, O.HasCompilerArgs, O.CompilerArgs, O.Files, Notice,
                                    O.ExtraArgsBefore, O.ExtraArgs);
  if (!DB)
    return fail(DB.takeError());
  if (!Notice.empty() && !O.Quiet)
    Err << "graphify-lint: note: " << Notice << "\n";
  std::vector<std::string> Files = O.Files;
  if (Files.empty() && !O.BuildPath.empty())
    Files = (*DB)->getAllFiles();
  if (Files.empty()) {
    Err << "graphify-lint: error: no input files; see --help\n";
    return ExitError;
  }

  // Resolve everything that can fail for a reason other than the code (missing files, configs,
  // rule packs) before parsing, so such errors come first and alone.
  std::vector<LintJob> Jobs;
  std::set<std::string> Warned;
  for (const std::string &File : Files) {
    if (!llvm::sys::fs::exists(File)) {
      Err << "graphify-lint: error: no such file: '" << File << "'\n";
      return ExitError;
    }
    if (!llvm::sys::fs::is_regular_file(File)) {
      Err << "graphify-lint: error: '" << File << "' is not a source file ("
          << (llvm::sys::fs::is_directory(File) ? "a directory" : "not a regular file") << ")\n";
      return ExitError;
    }
    if (!O.ExportFixes.empty() && sameFile(O.ExportFixes, File)) {
      Err << "graphify-lint: error: --export-fixes would overwrite the input '" << File << "'\n";
      return ExitError;
    }
    LintJob J;
    J.File = File;
    auto C = Configs.configFor(File);
    if (!C)
      return fail(C.takeError());
    J.Config = std::move(*C);
    if (!anyCheckEnabled(J.Config.Checks)) {
      Err << "graphify-lint: error: no check is enabled by Checks '" << J.Config.Checks << "' for '" << File
          << "'; see --list-checks\n";
      return ExitError;
    }
    auto Rules = Configs.rulesFor(J.Config.RulePacks);
    if (!Rules)
      return fail(Rules.takeError());
    J.Rules = *Rules;
    // A relative name means the current directory, as for clang-tidy, not the directory of
    // the database's commands.
    llvm::SmallString<256> Lookup(File);
    if (!O.BuildPath.empty())
      llvm::sys::fs::make_absolute(Lookup);
    std::vector<clang::tooling::CompileCommand> Cmds = (*DB)->getCompileCommands(Lookup);
    if (Cmds.empty()) {
      Err << "graphify-lint: error: no compile command for '" << File << "'\n";
      return ExitError;
    }
    // A file built in several configurations (with and without a macro, for two targets) has a
    // command for each; as for clang-tidy, each is a translation unit of its own, and findings
    // that several report alike are printed once. Commands that parse alike are parsed once.
    std::set<std::pair<std::string, std::vector<std::string>>> Distinct;
    for (const clang::tooling::CompileCommand &Cmd : Cmds) {
      if (Cmd.CommandLine.empty()) { // `"arguments": []`: no compiler to imitate
        Err << "graphify-lint: error: the compile command for '" << File << "' is empty (in "
            << (O.BuildPath.empty() ? std::string("the compilation database")
                                    : O.BuildPath + "/compile_commands.json")
            << ")\n";
        return ExitError;
      }
      LintJob Unit = J;
      Unit.Command = Cmd;
      std::vector<std::string> Problems;
      Unit.CommandLine = syntaxOnlyCommand(Unit.Command, ResourceDir, &Problems);
      // Said once per run, not once per file that shares the flags.
      for (const std::string &P : Problems)
        if (Warned.insert(P).second)
          Err << "graphify-lint: warning: " << P << " (in the compile command for '" << File
              << "'); code that depends on it may not be checked\n";
      if (!O.BuildPath.empty() && O.HasCompilerArgs) // -p and --: the arguments are extra flags
        Unit.CommandLine.insert(Unit.CommandLine.begin() + 1, O.CompilerArgs.begin(), O.CompilerArgs.end());
      if (Distinct.insert({Unit.Command.Directory, Unit.CommandLine}).second)
        Jobs.push_back(std::move(Unit));
    }
  }

  bool Color = O.Color == ColorMode::Always || (O.Color == ColorMode::Auto && Out.is_displayed());
  bool ErrColor = O.Color == ColorMode::Always || (O.Color == ColorMode::Auto && Err.is_displayed());
  std::unique_ptr<llvm::DefaultThreadPool> Pool;
  if (O.Jobs != 1 && Jobs.size() > 1)
    Pool = std::make_unique<llvm::DefaultThreadPool>(llvm::hardware_concurrency(O.Jobs));
  if (O.Pch == PchMode::Auto)
    planSharedPch(Jobs, O, Pool.get());

  if (Linked && !Emitting && !O.Quiet) {
    // A unit the program summary did not link was not in the program its facts describe.
    unsigned Outside = 0;
    for (const LintJob &J : Jobs)
      if (!llvm::is_contained(Linked->Units, summaryOf(J).File) && Outside++ == 0)
        Err << "graphify-lint: warning: '" << summaryOf(J).File << "' is not among the units '" << O.ProgramSummary
            << "' links: its calls into the others are checked with the linked facts, theirs into it are not\n";
    if (Outside > 1)
      Err << "graphify-lint: warning: " << Outside - 1 << " more units are not among those it links\n";
  }
  if (!O.EmitSummary.empty() && Jobs.size() != 1) {
    Err << "graphify-lint: error: --emit-summary writes one translation unit's summary and there are " << Jobs.size()
        << "; use --emit-summaries=<dir>\n";
    return ExitError;
  }
  std::optional<SummaryDirectory> SummaryDir;
  if (!O.EmitSummaries.empty()) {
    llvm::Expected<SummaryDirectory> D = SummaryDirectory::open(O.EmitSummaries, GRAPHIFY_VERSION);
    if (!D) {
      Err << "graphify-lint: error: " << llvm::toString(D.takeError()) << "\n";
      return ExitError;
    }
    SummaryDir = std::move(*D);
  }
  std::string ProjectRoot = projectRoot(Jobs);
  if (!O.ProjectRoot.empty()) {
    llvm::SmallString<256> Root(O.ProjectRoot);
    llvm::sys::fs::make_absolute(Root);
    llvm::sys::path::remove_dots(Root, true);
    if (!llvm::sys::fs::is_directory(Root)) {
      Err << "graphify-lint: error: --project-root '" << O.ProjectRoot << "' is not a directory\n";
      return ExitError;
    }
    ProjectRoot = std::string(Root);
  }
  // An existing --export-fixes target is checked against every file the units read: the main
  // files are known now, headers only once parsed.
  const bool RecordFilesRead = !O.ExportFixes.empty() && llvm::sys::fs::exists(O.ExportFixes);
  std::vector<LintUnitResult> Results(Jobs.size());
  std::vector<const UnitSummary *> Held(Jobs.size(), nullptr); // units whose memo summary holds
  // By summaries, each unit is analysed alone with the linked facts: no session.
  bool WholeProgram = O.WholeProgram == WholeProgramMode::Auto && Jobs.size() > 1 && !Summaries.any();
  if (WholeProgram) {
    Results = lintProgram(Jobs, llvm::hardware_concurrency(O.Jobs).compute_thread_count(), ErrColor, ProjectRoot,
                          RecordFilesRead);
  } else {
    Held = summariesStillHolding(Jobs, SummaryDir ? &*SummaryDir : nullptr, Summaries.Imported);
    for (size_t I = 0; I < Jobs.size(); ++I) {
      if (Held[I]) { // its summary holds for these facts: nothing to extract again
        Results[I].Parsed = true;
        continue;
      }
      if (Pool)
        Pool->async([&, I] {
          Results[I] = lintTranslationUnit(unitFor(Jobs[I], ErrColor, ProjectRoot, RecordFilesRead, Summaries));
        });
      else
        Results[I] = lintTranslationUnit(unitFor(Jobs[I], ErrColor, ProjectRoot, RecordFilesRead, Summaries));
    }
    if (Pool)
      Pool->wait();
  }

  // A PCH that a file could not use although the file compiles on its own is stale (a header
  // changed under it): drop it so the next run rebuilds it.
  PchCache Cache(O.PchCacheDir.empty() ? defaultPchCacheDir() : O.PchCacheDir);
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (Results[I].PchRejected)
      Cache.discard(Jobs[I].Pch);

  if (RecordFilesRead)
    if (std::optional<std::string> Clash = inputOverwrittenByExport(O.ExportFixes, Jobs, Results)) {
      Err << "graphify-lint: error: " << *Clash << "\n";
      return ExitError;
    }

  auto writeDepfileOf = [&](const std::set<std::string> &Inputs) {
    if (O.Depfile.empty())
      return true;
    if (llvm::Error E = writeDepfile(O.Depfile, O.DepfileTarget.empty() ? O.EmitSummary : O.DepfileTarget, Inputs)) {
      Err << "graphify-lint: error: " << llvm::toString(std::move(E)) << "\n";
      return false;
    }
    return true;
  };
  // Extraction: the facts are written; findings need the settled program's.
  if (Emitting) {
    const std::set<std::string> Inputs = depfileInputs(O, Jobs, Results, Held, RulesDir, true); // before they move
    SummaryCounts Counts;
    if (!writeSummaries(O, Jobs, Results, Summaries.Imported, SummaryDir ? &*SummaryDir : nullptr, Counts, Err))
      return ExitError;
    int Code = finishExtraction(O, Results, Counts, Err);
    return Code == ExitClean && !writeDepfileOf(Inputs) ? ExitError : Code;
  }

  if (Linked && !O.Quiet)
    warnOfEditedUnits(Jobs, Results, *Linked, O.ProgramSummary, Err);

  bool CompileFailed = false;
  unsigned Suppressed = 0, Errors = 0;
  std::vector<ReportedFinding> All;
  std::vector<size_t> FindingJob; // parallel to All: the translation unit that reported it
  using FindingKey = std::tuple<std::string, unsigned, unsigned, std::string, std::string>;
  // One file reached under two spellings (`./executor.h` through `-I.`, the absolute name beside
  // the including file) is one file: reported paths are the working directory's or absolute.
  const std::string Cwd = currentDirectory();
  auto keyOf = [&](const Finding &F) -> FindingKey {
    return {absoluteIn(F.Where.File, Cwd), F.Where.Line, F.Where.Column, F.CheckId, F.Message};
  };
  std::set<FindingKey> Seen, Hidden;
  SourceCache Sources; // the texts the units parsed, for the renderers
  for (size_t JobIdx = 0; JobIdx < Results.size(); ++JobIdx) {
    LintUnitResult &R = Results[JobIdx];
    if (!R.Parsed) {
      CompileFailed = true;
      Err << R.CompilerErrors;
      Err << R.ErrorCount << (R.ErrorCount == 1 ? " error" : " errors") << " generated.\n";
      continue;
    }
    Suppressed += R.Suppressed;
    for (const auto &[File, Text] : R.SourceTexts)
      Sources.remember(File, Text);
    R.SourceTexts.clear();
    for (const Finding &F : R.HiddenInHeaders)
      Hidden.insert(keyOf(F));
    for (ReportedFinding &F : R.Findings) {
      // A header finding reached from several translation units is reported once.
      if (!Seen.insert(keyOf(F.F)).second)
        continue;
      Errors += F.Level == Severity::Error;
      All.push_back(std::move(F));
      FindingJob.push_back(JobIdx);
    }
  }

  OutputContext Ctx{Sources};
  Ctx.Color = Color;
  Ctx.WorkingDir = currentDirectory();
  Ctx.Rules.assign(allChecks().begin(), allChecks().end());
  Ctx.Rules.push_back(nolintCheckInfo());
  Ctx.ToolVersion = GRAPHIFY_VERSION;
  // With --diff the diff alone is the output (it can be piped to `patch`); the findings go to
  // stderr.
  llvm::raw_ostream &FindingsOut = O.Diff ? Err : Out;
  switch (O.Format) {
  case OutputFormat::Text: writeText(FindingsOut, All, Ctx); break;
  case OutputFormat::Json: writeJson(FindingsOut, All, Ctx); break;
  case OutputFormat::Sarif: writeSarif(FindingsOut, All, Ctx); break;
  case OutputFormat::Github: writeGithub(FindingsOut, All, Ctx); break;
  }
  FindingsOut.flush();

  bool FixFailed = false;
  if (O.Fix || O.Diff || !O.ExportFixes.empty()) {
    FixRequest Request;
    Request.What = O.Fix ? FixRequest::Fix : O.Diff ? FixRequest::Diff : FixRequest::Export;
    Request.ExportPath = O.ExportFixes;
    // The new content is checked with the compile command of the translation unit it came from:
    // the file's own when it is a main file, else the first one whose findings touch it.
    Request.Compiles = [&](llvm::StringRef Path, llvm::StringRef NewContent, std::string &Errors) {
      const LintJob *Owner = nullptr;
      for (size_t I = 0; I < Jobs.size() && !Owner; ++I)
        if (sameFile(reportedPath(Jobs[I].Command.Filename, Jobs[I].Command.Directory, Ctx.WorkingDir), Path))
          Owner = &Jobs[I];
      for (size_t I = 0; I < All.size() && !Owner; ++I)
        if (All[I].F.Fix)
          for (const Replacement &Rep : All[I].F.Fix->Replacements)
            if (!Owner && sameFile(Rep.File, Path))
              Owner = &Jobs[FindingJob[I]];
      if (!Owner) {
        Errors = "error: no compile command for '" + Path.str() + "'\n";
        return false;
      }
      ParseRequest Req;
      Req.CommandLine = Owner->CommandLine;
      Req.WorkingDir = Owner->Command.Directory;
      Req.File = Owner->Command.Filename;
      Req.Content = NewContent.str();
      Req.ContentFile = Path.str();
      ParseOutcome Reparsed = parseTranslationUnit(Req, [](clang::ASTContext &) {});
      Errors = Reparsed.Diagnostics;
      return Reparsed.Parsed;
    };
    std::vector<Finding> Plain;
    for (const ReportedFinding &F : All)
      Plain.push_back(F.F);
    if (llvm::Error E = deliverFixes(Plain, Request, Out)) {
      Err << llvm::toString(std::move(E)) << "\n";
      FixFailed = true;
    }
    Out.flush();
  }

  // Even with --quiet: the code of a region whose name is misspelt went unchecked. JSON runs get
  // the list in the summary object instead.
  const std::vector<std::string> Unmatched = unmatchedRegionGlobs(Results, Linked ? &*Linked : nullptr);
  if (O.Format != OutputFormat::Json)
    for (const std::string &Glob : Unmatched)
      Err << "graphify-lint: warning: the graph-region glob '" << Glob << "' names no function defined in the "
          << (Linked ? "program's units" : "checked files")
          << " (it is matched against qualified names: 'ns::Class::method', '*::decode')\n";
  const std::vector<std::string> BoundWarnings = staticBoundWarnings(Results, Linked ? &*Linked : nullptr);
  if (O.Format != OutputFormat::Json)
    for (const std::string &W : BoundWarnings)
      Err << "graphify-lint: warning: " << W << "\n";
  // Even with --quiet, as the warnings above: that code went unchecked.
  const std::vector<std::string> Unseen = uncheckedCode(Results);
  if (O.Format != OutputFormat::Json)
    for (const std::string &U : Unseen)
      Err << "graphify-lint: note: " << U << "\n";
  if (!O.Quiet) {
    unsigned Warnings = All.size() - Errors;
    if (!All.empty()) {
      Err << Warnings << (Warnings == 1 ? " warning" : " warnings");
      if (Errors)
        Err << " and " << Errors << (Errors == 1 ? " error" : " errors");
      Err << " generated.\n";
    }
    if (Suppressed)
      Err << "Suppressed " << Suppressed << (Suppressed == 1 ? " warning" : " warnings") << " (" << Suppressed
          << " NOLINT).\n";
    if (Errors)
      Err << Errors << (Errors == 1 ? " warning" : " warnings") << " treated as errors\n";
    // Counted once however many translation units include the header, and not at all when
    // another unit's configuration shows it.
    unsigned NotShown = llvm::count_if(Hidden, [&](const FindingKey &K) { return !Seen.count(K); });
    if (NotShown)
      Err << "graphify-lint: note: " << NotShown << (NotShown == 1 ? " finding" : " findings")
          << " in headers not shown; use --header-filter\n";
    RunSummary Summary;
    Summary.HiddenInHeaders = NotShown;
    Summary.UnmatchedRegionGlobs = Unmatched;
    Summary.StaticBoundProblems = BoundWarnings;
    Summary.UncheckedCode = Unseen;
    Summary.Files = Jobs.size();
    Summary.Sources = std::set<std::string>(Files.begin(), Files.end()).size();
    Summary.NotParsed = llvm::count_if(Results, [](const LintUnitResult &R) { return !R.Parsed; });
    Summary.Suppressed = Suppressed;
    for (const ReportedFinding &F : All)
      ++Summary.FindingsPerCheck[F.F.CheckId];
    Summary.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Started).count();
    if (O.Format == OutputFormat::Json)
      writeSummaryJson(Err, Summary);
    else
      writeSummaryText(Err, Summary);
  }
  if (CompileFailed || FixFailed)
    return ExitError;
  if (!writeDepfileOf(depfileInputs(O, Jobs, Results, Held, RulesDir, false)))
    return ExitError;
  if (O.ExitZeroOnWarnings)
    return llvm::any_of(All, [](const ReportedFinding &F) { return F.Level == Severity::Error; }) ? ExitFindings
                                                                                                 : ExitClean;
  return All.empty() ? ExitClean : ExitFindings;
}

} // namespace graphify
