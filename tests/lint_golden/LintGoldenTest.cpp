// Runs every annotated file under testdata/lint/ through graphify-lint's own pipeline (its
// command-line parser, its configuration lookup and lintTranslationUnit: NOLINT, check globs and
// filters included) and compares the findings with the file's CHECK-MESSAGES / CHECK-NOTES
// annotations. `// RUN-ARGS:` holds graphify-lint flags. Adding a case is adding a file.
// Every warning must be expected; every expected warning and listed note must appear.
#include "GoldenFile.h"

#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/ConfigStore.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/Options.h"

#include <clang/Tooling/CompilationDatabase.h>
#include <gtest/gtest.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/FormatVariadic.h>
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

std::vector<std::string> goldenFiles() {
  std::vector<std::string> Files;
  std::error_code EC;
  std::string Root = testdataRoot() + "/lint";
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".cpp") || llvm::StringRef(It->path()).ends_with(".cu"))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

std::string testName(const std::string &Path) {
  llvm::StringRef Rel(Path);
  Rel.consume_front(testdataRoot() + "/lint/");
  std::string Name;
  Rel.consume_back(".cpp"); // a .cu file keeps its extension in the name: "kernels_cu"
  for (char C : Rel)
    Name += llvm::isAlnum(C) ? C : '_';
  return Name;
}

class LintGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(LintGolden, MatchesAnnotations) {
  const std::string &Path = GetParam();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buffer)) << Path;
  std::string Source = (*Buffer)->getBuffer().str();
  auto Golden = golden::parseGoldenFile(Source);
  ASSERT_TRUE(bool(Golden)) << Path << ": " << llvm::toString(Golden.takeError());

  std::vector<std::string> Args = {"-std=c++17", "-I" GRAPHIFY_RUNTIME_INCLUDE_DIR};
  llvm::StringRef TorchDirs = GRAPHIFY_TORCH_INCLUDE_DIRS;
  bool NeedsTorch = Source.find("#include <torch/") != std::string::npos;
  if (NeedsTorch && TorchDirs.empty())
    GTEST_SKIP() << "LibTorch headers not found";
  llvm::SmallVector<llvm::StringRef, 4> Dirs;
  TorchDirs.split(Dirs, '|', -1, false);
  for (llvm::StringRef D : Dirs)
    Args.push_back("-I" + D.str());
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
  Unit.Config = std::move(*Config);
  Unit.Rules = *Rules;
  LintUnitResult Result = lintTranslationUnit(Unit);
  ASSERT_TRUE(Result.Parsed) << Path << " does not compile:\n" << Result.CompilerErrors;

  std::vector<bool> Matched(Golden->Expected.size(), false);
  auto Matches = [](const golden::Expectation &E, unsigned Line, unsigned Col,
                    const std::string &Text) {
    return E.Line == Line && E.Column == Col && llvm::Regex(E.Pattern).match(Text);
  };
  std::string Failures;
  std::string Produced;
  for (const ReportedFinding &R : Result.Findings) {
    const Finding &F = R.F;
    std::string Text = "warning: " + F.Message + " [" + F.CheckId + "]";
    Produced += llvm::formatv(":{0}:{1}: {2}\n", F.Where.Line, F.Where.Column, Text).str();
    bool Found = false;
    for (size_t I = 0; I < Golden->Expected.size(); ++I)
      if (!Golden->Expected[I].IsNote && Matches(Golden->Expected[I], F.Where.Line, F.Where.Column, Text)) {
        Matched[I] = Found = true;
      }
    if (!Found)
      Failures += llvm::formatv("unexpected :{0}:{1}: {2}\n", F.Where.Line, F.Where.Column, Text).str();
    for (const FindingNote &N : F.Notes) {
      std::string NoteText = "note: " + N.Message;
      Produced += llvm::formatv("    :{0}:{1}: {2}\n", N.Where.Line, N.Where.Column, NoteText).str();
      for (size_t I = 0; I < Golden->Expected.size(); ++I)
        if (Golden->Expected[I].IsNote && Matches(Golden->Expected[I], N.Where.Line, N.Where.Column, NoteText))
          Matched[I] = true;
    }
  }
  for (size_t I = 0; I < Golden->Expected.size(); ++I)
    if (!Matched[I])
      Failures += llvm::formatv("missing (line {0}) :{1}:{2}: {3}\n", Golden->Expected[I].CommentLine,
                                Golden->Expected[I].Line, Golden->Expected[I].Column,
                                Golden->Expected[I].Written)
                      .str();
  if (std::getenv("GRAPHIFY_GOLDEN_VERBOSE"))
    llvm::outs() << "--- produced:\n" << Produced << "\n";
  EXPECT_TRUE(Failures.empty()) << Path << "\n" << Failures << "--- produced:\n" << Produced;
}

INSTANTIATE_TEST_SUITE_P(Files, LintGolden, ::testing::ValuesIn(goldenFiles()),
                         [](const ::testing::TestParamInfo<std::string> &I) { return testName(I.param); });

} // namespace
