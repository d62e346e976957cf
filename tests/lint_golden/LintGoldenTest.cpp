// Runs every annotated file under testdata/lint/ through graphify-lint's own pipeline (its
// command-line parser, its configuration lookup and lintTranslationUnit: NOLINT, check globs and
// filters included) and compares the findings with the file's CHECK-MESSAGES / CHECK-NOTES
// annotations. `// RUN-ARGS:` holds graphify-lint flags. Adding a case is adding a file.
// Every warning must be expected; every expected warning and listed note must appear.
//
// A directory named `<case>.program` is one whole-program case: its .cpp files are the
// translation units of a generated compile_commands.json, linted together by graphify-lint's
// driver (runLint, as `graphify-lint -p <dir> --format=json`); annotations may sit in any of its
// files (headers included, in subdirectories too; an `include/` subdirectory is on the include
// path), a note is expected in the file where it points, and CHECK-STDERR lines must appear on
// stderr. Each program case is also run by summaries (--emit-summaries, graphify-link,
// --program-summary) and must give the single process's output byte for byte.
#include "GoldenFile.h"
#include "SharedTestPch.h"

#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/ConfigStore.h"
#include "graphify/lint/Driver.h"
#include "graphify/link/Link.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/Options.h"
#include "graphify/lint/ReportedPaths.h"
#include "graphify/lint/SummaryFile.h"

#include <clang/Tooling/CompilationDatabase.h>
#include <gtest/gtest.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/Regex.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace graphify;

/// The testdata root; GRAPHIFY_LINT_TESTDATA overrides it to try the runner on other files.
std::string testdataRoot() {
  const char *Env = std::getenv("GRAPHIFY_LINT_TESTDATA");
  return Env ? Env : GRAPHIFY_TESTDATA_DIR;
}

bool isProgramCase(llvm::StringRef Path) { return Path.ends_with(".program"); }

/// The single-file cases and the `*.program` directories.
std::vector<std::string> goldenFiles() {
  std::vector<std::string> Files;
  std::error_code EC;
  std::string Root = testdataRoot() + "/lint";
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Path(It->path());
    if (isProgramCase(Path)) {
      Files.push_back(Path.str());
      It.no_push(); // its files are the case's translation units, not cases of their own
      continue;
    }
    if (Path.ends_with(".cpp") || Path.ends_with(".cu"))
      Files.push_back(Path.str());
  }
  std::sort(Files.begin(), Files.end());
  return Files;
}

/// A finding as the tool produced it, reduced to what annotations talk about.
struct Produced {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Text; ///< "warning: message [check]" or "note: message"
  std::vector<Produced> Notes;
};

/// The annotations of one file of a case.
struct AnnotatedFile {
  std::string Path;
  golden::GoldenFile Golden;
};

/// Compares what was produced with the annotations of every file of the case; returns the
/// failures (empty when it matches). Each warning must be expected in its file; each expected
/// warning and note must appear.
std::string compare(const std::vector<AnnotatedFile> &Files, const std::vector<Produced> &Findings,
                    std::string &Listing) {
  std::vector<std::vector<bool>> Matched;
  for (const AnnotatedFile &F : Files)
    Matched.emplace_back(F.Golden.Expected.size(), false);
  auto Matches = [](const golden::Expectation &E, const Produced &P) {
    return E.Line == P.Line && E.Column == P.Column && llvm::Regex(E.Pattern).match(P.Text);
  };
  auto Mark = [&](const Produced &P, bool IsNote) {
    bool Found = false;
    for (size_t F = 0; F < Files.size(); ++F) {
      if (!sameFile(Files[F].Path, P.File))
        continue;
      for (size_t I = 0; I < Files[F].Golden.Expected.size(); ++I)
        if (Files[F].Golden.Expected[I].IsNote == IsNote && Matches(Files[F].Golden.Expected[I], P))
          Matched[F][I] = Found = true;
    }
    return Found;
  };
  std::string Failures;
  bool Several = Files.size() > 1;
  auto Where = [&](const Produced &P) {
    return (Several ? llvm::sys::path::filename(P.File).str() : std::string()) +
           llvm::formatv(":{0}:{1}: {2}", P.Line, P.Column, P.Text).str();
  };
  for (const Produced &P : Findings) {
    Listing += Where(P) + "\n";
    if (!Mark(P, /*IsNote=*/false))
      Failures += "unexpected " + Where(P) + "\n";
    for (const Produced &N : P.Notes) {
      Listing += "    " + Where(N) + "\n";
      Mark(N, /*IsNote=*/true);
    }
  }
  for (size_t F = 0; F < Files.size(); ++F)
    for (size_t I = 0; I < Files[F].Golden.Expected.size(); ++I)
      if (!Matched[F][I]) {
        const golden::Expectation &E = Files[F].Golden.Expected[I];
        Failures += llvm::formatv("missing ({0}line {1}) :{2}:{3}: {4}\n",
                                  Several ? llvm::sys::path::filename(Files[F].Path).str() + " " : "",
                                  E.CommentLine, E.Line, E.Column, E.Written)
                        .str();
      }
  return Failures;
}

/// The compiler arguments every case is parsed with: the runtime's and LibTorch's headers.
std::vector<std::string> compilerArgs() {
  // The stand-ins for third-party headers the cases include as users do (<opencv2/imgproc.hpp>).
  std::vector<std::string> Args = {"-std=c++17", "-I" GRAPHIFY_RUNTIME_INCLUDE_DIR,
                                   "-I" + testdataRoot() + "/rewrite/include"};
  llvm::SmallVector<llvm::StringRef, 4> Dirs;
  llvm::StringRef(GRAPHIFY_TORCH_INCLUDE_DIRS).split(Dirs, '|', -1, false);
  for (llvm::StringRef D : Dirs)
    Args.push_back("-I" + D.str());
  return Args;
}

std::string shellQuote(llvm::StringRef S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

/// A whole-program case: a compile database over the directory's .cpp files, linted by the
/// driver with the union of the files' RUN-ARGS.
/// A whole-program case laid out as a build: its files with their annotations, a generated
/// compile_commands.json in a scratch directory (removed with the case), and graphify-lint's
/// arguments for it.
struct ProgramCase {
  std::vector<AnnotatedFile> Files;
  std::vector<std::string> LintArgs; ///< graphify-lint -p <build> --format=json ... RUN-ARGS
  std::string Build;
  ~ProgramCase() {
    if (!Build.empty())
      llvm::sys::fs::remove_directories(Build);
  }
};

/// Fills `Case` from the directory `Dir`; skips (GTEST_SKIP) when a header it needs is missing.
void prepareProgramCase(const std::string &Dir, ProgramCase &Case) {
  std::vector<std::string> Units, RunArgs;
  bool NeedsTorch = false;
  std::error_code EC;
  // Files anywhere under the case (a project laid out as include/ + src/ too); an `include`
  // directory is on the include path, as a project's build would put it.
  std::vector<std::string> Paths, IncludeDirs;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if (llvm::sys::path::filename(It->path()) == "include")
        IncludeDirs.push_back(It->path());
      continue;
    }
    Paths.push_back(It->path());
  }
  std::sort(Paths.begin(), Paths.end());
  for (const std::string &Path : Paths) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buffer)) << Path;
    std::string Source = (*Buffer)->getBuffer().str();
    auto Golden = golden::parseGoldenFile(Source);
    ASSERT_TRUE(bool(Golden)) << Path << ": " << llvm::toString(Golden.takeError());
    NeedsTorch |= Source.find("#include <torch/") != std::string::npos;
    for (const std::string &A : Golden->RunArgs)
      if (!llvm::is_contained(RunArgs, A))
        RunArgs.push_back(A);
    if (llvm::StringRef(Path).ends_with(".cpp"))
      Units.push_back(Path);
    Case.Files.push_back({Path, std::move(*Golden)});
  }
  if (NeedsTorch && llvm::StringRef(GRAPHIFY_TORCH_INCLUDE_DIRS).empty())
    GTEST_SKIP() << "LibTorch headers not found";
  ASSERT_GE(Units.size(), 2u) << Dir << ": a program case needs two or more .cpp files";

  llvm::SmallString<128> Build;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("graphify-golden-program", Build));
  Case.Build = std::string(Build);
  std::string Database = "[";
  for (const std::string &Unit : Units) {
    std::string Command = "clang++";
    for (const std::string &A : compilerArgs())
      Command += " " + shellQuote(A);
    for (const std::string &I : IncludeDirs)
      Command += " " + shellQuote("-I" + I);
    Command += " -c " + shellQuote(Unit);
    Database += std::string(Database.size() > 1 ? ",\n" : "\n") +
                llvm::formatv(R"({{"directory": "{0}", "file": "{1}", "command": "{2}"})", Dir, Unit,
                              llvm::json::fixUTF8(Command))
                    .str();
  }
  Database += "\n]\n";
  {
    std::error_code WEC;
    llvm::raw_fd_ostream OS(Case.Build + "/compile_commands.json", WEC);
    ASSERT_FALSE(WEC);
    OS << Database;
  }
  Case.LintArgs = {"graphify-lint", "-p", Case.Build, "--format=json",
                   "--rules-dir=" GRAPHIFY_RULES_DIR,
                   "--resource-dir=" GRAPHIFY_CLANG_RESOURCE_DIR,
                   graphify::testing::testPchDir().empty()
                       ? std::string("--pch=off")
                       : "--pch-cache-dir=" + graphify::testing::testPchDir()};
  // The case's folder is its project (see the single-file cases), as a checkout's root would be.
  Case.LintArgs.push_back("--project-root=" + Dir);
  Case.LintArgs.insert(Case.LintArgs.end(), RunArgs.begin(), RunArgs.end());
}

struct ToolRun {
  int Code = 0;
  std::string Out, Err;
};

/// Runs a tool's entry point (runLint, runLink) in process on `Args` + `Extra`.
template <typename Entry>
ToolRun runTool(Entry Run, const std::vector<std::string> &Args, const std::vector<std::string> &Extra = {}) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  for (const std::string &A : Extra)
    Argv.push_back(A.c_str());
  ToolRun R;
  llvm::raw_string_ostream OutS(R.Out), ErrS(R.Err);
  R.Code = Run(Argv, OutS, ErrS);
  OutS.flush();
  ErrS.flush();
  return R;
}

int lintEntry(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  return runLint(Argv, Out, Err);
}
int linkEntry(llvm::ArrayRef<const char *> Argv, llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  return runLink(Argv, Out, Err);
}

void runProgramCase(const std::string &Dir) {
  ProgramCase Case;
  prepareProgramCase(Dir, Case);
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure())
    return;
  ToolRun Lint = runTool(lintEntry, Case.LintArgs);
  ASSERT_NE(Lint.Code, 2) << Dir << ":\n" << Lint.Err;

  auto Json = llvm::json::parse(Lint.Out);
  ASSERT_TRUE(bool(Json)) << llvm::toString(Json.takeError()) << "\n" << Lint.Out;
  std::vector<Produced> Findings;
  for (const llvm::json::Value &V : *Json->getAsArray()) {
    const llvm::json::Object &O = *V.getAsObject();
    Produced P{O.getString("file")->str(), unsigned(*O.getInteger("line")), unsigned(*O.getInteger("column")),
               "warning: " + O.getString("message")->str() + " [" + O.getString("check")->str() + "]", {}};
    for (const llvm::json::Value &N : *O.getArray("notes")) {
      const llvm::json::Object &NO = *N.getAsObject();
      P.Notes.push_back({NO.getString("file")->str(), unsigned(*NO.getInteger("line")),
                         unsigned(*NO.getInteger("column")), "note: " + NO.getString("message")->str(), {}});
    }
    Findings.push_back(std::move(P));
  }
  std::string Listing;
  std::string Failures = compare(Case.Files, Findings, Listing);
  llvm::SmallVector<llvm::StringRef, 8> ErrLines;
  llvm::StringRef(Lint.Err).split(ErrLines, '\n');
  for (const AnnotatedFile &F : Case.Files)
    for (const std::string &Pattern : F.Golden.StderrLines)
      if (llvm::none_of(ErrLines, [&](llvm::StringRef L) { return llvm::Regex(Pattern).match(L); }))
        Failures += "missing on stderr: " + Pattern + "\n";
  if (std::getenv("GRAPHIFY_GOLDEN_VERBOSE"))
    llvm::outs() << "--- produced:\n" << Listing << "--- stderr:\n" << Lint.Err << "\n";
  EXPECT_TRUE(Failures.empty()) << Dir << "\n"
                                << Failures << "--- produced:\n"
                                << Listing << "--- stderr:\n"
                                << Lint.Err;
}

/// Whole-program mode by summaries (docs/architecture.md) on a program case: extract every unit,
/// link, extract again the units the link names until it settles, then check against the program
/// summary. The findings must be the single process's, byte for byte.
void runProgramCaseBySummaries(const std::string &Dir) {
  ProgramCase Case;
  prepareProgramCase(Dir, Case);
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure())
    return;
  // A slot per unit: the single process keeps every AST while it settles the program (the mode
  // of a machine with more cores than units), where MatchesAnnotations, on CI's two cores,
  // parses each unit again for every round. Both must give the summaries' findings.
  size_t UnitCount =
      llvm::count_if(Case.Files, [](const AnnotatedFile &F) { return llvm::StringRef(F.Path).ends_with(".cpp"); });
  Case.LintArgs.push_back("-j" + std::to_string(UnitCount));
  ToolRun OneProcess = runTool(lintEntry, Case.LintArgs);
  ASSERT_NE(OneProcess.Code, 2) << Dir << ":\n" << OneProcess.Err;

  std::string Summaries = Case.Build + "/summaries", Program = Case.Build + "/program.summary";
  ToolRun Extract = runTool(lintEntry, Case.LintArgs, {"--emit-summaries=" + Summaries});
  ASSERT_EQ(Extract.Code, 0) << Extract.Err;
  EXPECT_EQ(Extract.Out, "") << "extraction checks nothing, so it reports nothing";
  std::string Slices = Case.Build + "/slices";
  ToolRun Link = runTool(linkEntry, {"graphify-link", "--quiet", "-o", Program, "--slices=" + Slices, Summaries});
  // Each round settles at least one more fact, as the single process's rounds do; a case needs
  // a few (cross_tu_regions: four).
  for (int Round = 0; Link.Code == 3 && Round < 8; ++Round) {
    Extract = runTool(lintEntry, Case.LintArgs, {"--emit-summaries=" + Summaries, "--program-summary=" + Program});
    ASSERT_EQ(Extract.Code, 0) << Extract.Err;
    Link = runTool(linkEntry, {"graphify-link", "--quiet", "-o", Program, "--slices=" + Slices, Summaries});
  }
  ASSERT_EQ(Link.Code, 0) << "not settled after 8 rounds:\n" << Link.Err;
  ToolRun Check = runTool(lintEntry, Case.LintArgs, {"--program-summary=" + Program});
  EXPECT_EQ(Check.Code, OneProcess.Code) << Check.Err;
  EXPECT_EQ(Check.Out, OneProcess.Out) << "--- one process:\n" << OneProcess.Err << "--- by summaries:\n" << Check.Err;

  // Each unit checked alone against its slice (graphify-link --slices) gives what it gives
  // against the whole program summary.
  auto SliceFiles = summaryFilesIn(Slices);
  ASSERT_TRUE(bool(SliceFiles)) << llvm::toString(SliceFiles.takeError());
  EXPECT_EQ(SliceFiles->size(), UnitCount);
  for (const std::string &SliceFile : *SliceFiles) {
    llvm::Expected<ProgramSummary> Slice = readProgramSummary(SliceFile, GRAPHIFY_VERSION);
    ASSERT_TRUE(bool(Slice)) << llvm::toString(Slice.takeError());
    ASSERT_EQ(Slice->Units.size(), 1u) << SliceFile;
    ToolRun Whole = runTool(lintEntry, Case.LintArgs, {"--program-summary=" + Program, Slice->Units[0]});
    ToolRun Alone = runTool(lintEntry, Case.LintArgs, {"--program-summary=" + SliceFile, Slice->Units[0]});
    EXPECT_EQ(Alone.Code, Whole.Code) << Alone.Err;
    EXPECT_EQ(Alone.Out, Whole.Out) << Slice->Units[0];
  }
}

std::string testName(const std::string &Path) {
  llvm::StringRef Rel(Path);
  Rel.consume_front(testdataRoot() + "/lint/");
  std::string Name;
  Rel.consume_back(".cpp"); // a .cu file keeps its extension in the name: "kernels_cu"
  Rel.consume_back(".program");
  for (char C : Rel)
    Name += llvm::isAlnum(C) ? C : '_';
  return Name;
}

class LintGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(LintGolden, MatchesAnnotations) {
  const std::string &Path = GetParam();
  if (isProgramCase(Path))
    return runProgramCase(Path);
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buffer)) << Path;
  std::string Source = (*Buffer)->getBuffer().str();
  auto Golden = golden::parseGoldenFile(Source);
  ASSERT_TRUE(bool(Golden)) << Path << ": " << llvm::toString(Golden.takeError());

  std::vector<std::string> Args = compilerArgs();
  bool NeedsTorch = Source.find("#include <torch/") != std::string::npos;
  if (NeedsTorch && llvm::StringRef(GRAPHIFY_TORCH_INCLUDE_DIRS).empty())
    GTEST_SKIP() << "LibTorch headers not found";
  // A .cu file is parsed as CUDA host code with the toolkit, as the tool does.
  bool IsCuda = llvm::StringRef(Path).ends_with(".cu");
  if (IsCuda && !llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
    GTEST_SKIP() << "CUDA toolkit not found";
  if (!IsCuda && Source.find("#include <cuda_runtime") != std::string::npos) {
    if (!llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
      GTEST_SKIP() << "CUDA headers not found";
    Args.push_back("-I/usr/local/cuda/include");
  }

  // graphify-lint RUN-ARGS... <file> -- <compiler args>, parsed as the tool parses it.
  std::vector<const char *> Argv = {"graphify-lint"};
  for (const std::string &A : Golden->RunArgs)
    Argv.push_back(A.c_str());
  Argv.push_back(Path.c_str());
  auto Options = parseLintOptions(Argv);
  ASSERT_TRUE(bool(Options)) << Path << ": RUN-ARGS: " << llvm::toString(Options.takeError());
  ConfigStore Configs(*Options, GRAPHIFY_RULES_DIR);
  auto Config = Configs.configFor(Path);
  ASSERT_TRUE(bool(Config)) << Path << ": " << llvm::toString(Config.takeError());
  auto Rules = Configs.rulesFor(Config->RulePacks);
  ASSERT_TRUE(bool(Rules)) << Path << ": " << llvm::toString(Rules.takeError());

  clang::tooling::FixedCompilationDatabase Database(".", Args);
  std::vector<clang::tooling::CompileCommand> Commands = Database.getCompileCommands(Path);
  ASSERT_EQ(Commands.size(), 1u);
  LintUnit Unit;
  Unit.CommandLine = syntaxOnlyCommand(Commands.front(), GRAPHIFY_CLANG_RESOURCE_DIR);
  Unit.WorkingDir = Commands.front().Directory;
  Unit.File = Path;
  // Each case is a small project of its own folder; the checkout holding testdata (graphify's, a
  // repository the default root would find) is not its project, and its stand-ins for third-party
  // headers are not the case's code. A RUN-ARGS --project-root still wins.
  Unit.ProjectRoot = Options->ProjectRoot.empty() ? llvm::sys::path::parent_path(Path).str() : Options->ProjectRoot;
  Unit.Config = std::move(*Config);
  Unit.Rules = *Rules;
  Unit.Pch = graphify::testing::sharedTestPch(Unit.CommandLine, Unit.WorkingDir, Path, Source);
  LintUnitResult Result = lintTranslationUnit(Unit);
  graphify::testing::discardRejectedPch(Unit.Pch, Result.PchRejected);
  ASSERT_TRUE(Result.Parsed) << Path << " does not compile:\n" << Result.CompilerErrors;

  std::vector<Produced> Findings;
  for (const ReportedFinding &R : Result.Findings) {
    const Finding &F = R.F;
    Produced P{Path, F.Where.Line, F.Where.Column, "warning: " + F.Message + " [" + F.CheckId + "]", {}};
    // Notes of a single file case all point into it (the file names of notes are as reported).
    for (const FindingNote &N : F.Notes)
      P.Notes.push_back({Path, N.Where.Line, N.Where.Column, "note: " + N.Message, {}});
    Findings.push_back(std::move(P));
  }
  std::string Listing;
  std::string Failures = compare({{Path, std::move(*Golden)}}, Findings, Listing);
  if (std::getenv("GRAPHIFY_GOLDEN_VERBOSE"))
    llvm::outs() << "--- produced:\n" << Listing << "\n";
  EXPECT_TRUE(Failures.empty()) << Path << "\n" << Failures << "--- produced:\n" << Listing;
}

INSTANTIATE_TEST_SUITE_P(Files, LintGolden, ::testing::ValuesIn(goldenFiles()),
                         [](const ::testing::TestParamInfo<std::string> &I) { return testName(I.param); });

class LintGoldenProgram : public ::testing::TestWithParam<std::string> {};

TEST_P(LintGoldenProgram, SummariesGiveTheSingleProcessFindings) { runProgramCaseBySummaries(GetParam()); }

std::vector<std::string> programCases() {
  std::vector<std::string> Cases;
  for (const std::string &Path : goldenFiles())
    if (isProgramCase(Path))
      Cases.push_back(Path);
  return Cases;
}

INSTANTIATE_TEST_SUITE_P(Programs, LintGoldenProgram, ::testing::ValuesIn(programCases()),
                         [](const ::testing::TestParamInfo<std::string> &I) { return testName(I.param); });

} // namespace
