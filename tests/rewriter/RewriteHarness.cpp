// One analyse-and-fix pass, as graphify-lint --fix performs it (the same lintTranslationUnit
// pipeline, --scope=all), but on a text in memory and applied in memory; cases that include
// LibTorch share one precompiled prefix (SharedTestPch.h).
#include "RewriteHarness.h"
#include "SharedTestPch.h"

#include "graphify/lint/CompileCommands.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/ReportedPaths.h"
#include "graphify/rewriter/FixApplication.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

namespace graphify::test {

const RuleSet &testRules() {
  static RuleSet Rules = [] {
    auto R = RuleSet::loadFromDirectory(GRAPHIFY_TEST_RULES_DIR);
    if (!R) {
      llvm::errs() << llvm::toString(R.takeError()) << "\n";
      std::abort();
    }
    return std::move(*R);
  }();
  return Rules;
}

std::vector<std::string> testCompilerArgs() {
  std::vector<std::string> Args = {"-std=c++17", "-I" GRAPHIFY_TEST_TESTDATA_DIR "/rewrite/include",
                                   "-I" GRAPHIFY_TEST_RUNTIME_INCLUDE_DIR};
  llvm::SmallVector<llvm::StringRef, 4> TorchDirs;
  llvm::StringRef(GRAPHIFY_TEST_TORCH_INCLUDE_DIRS).split(TorchDirs, '|', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Dir : TorchDirs)
    if (Dir.rtrim('/') != "/usr/include") // already a system directory; repeating it breaks include_next
      Args.push_back("-isystem" + Dir.str());
  return Args;
}

RewriteRun rewriteSource(llvm::StringRef Path, llvm::StringRef Code) {
  RewriteRun Run;
  clang::tooling::CompileCommand Command;
  Command.Directory = currentDirectory();
  Command.Filename = Path.str();
  Command.CommandLine = {"graphify-rewriter-test"};
  for (std::string &A : testCompilerArgs())
    Command.CommandLine.push_back(std::move(A));
  Command.CommandLine.push_back(Path.str());
  LintUnit Unit;
  Unit.CommandLine = syntaxOnlyCommand(Command, GRAPHIFY_TEST_RESOURCE_DIR);
  Unit.WorkingDir = Command.Directory;
  Unit.File = Path.str();
  Unit.Content = Code.str();
  Unit.Config.ScopeKind = Scope::All;
  Unit.Rules = &testRules();
  Unit.Pch = graphify::testing::sharedTestPch(Unit.CommandLine, Unit.WorkingDir, Unit.File, Code);
  LintUnitResult Result = lintTranslationUnit(Unit);
  graphify::testing::discardRejectedPch(Unit.Pch, Result.PchRejected);
  if (!Result.Parsed) {
    Run.ParseErrors = Result.CompilerErrors;
    Run.Fixed = Code.str();
    return Run;
  }
  for (ReportedFinding &F : Result.Findings)
    Run.Findings.push_back(std::move(F.F));
  auto Fixed = applyFixesToText(Run.Findings, Path, Code, "LLVM", &Run.Skipped);
  if (!Fixed) {
    Run.ApplyError = llvm::toString(Fixed.takeError());
    Run.Fixed = Code.str();
  } else {
    Run.Fixed = std::move(*Fixed);
  }
  return Run;
}

} // namespace graphify::test
