// Runs every annotated file under testdata/lint/ through the analysis and compares the findings
// with the file's CHECK-MESSAGES / CHECK-NOTES annotations. Adding a case is adding a file.
// Every warning must be expected; every expected warning and listed note must appear.
#include "GoldenFile.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/analyzer/RuleSet.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
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
    if (llvm::StringRef(It->path()).ends_with(".cpp"))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

std::string testName(const std::string &Path) {
  llvm::StringRef Rel(Path);
  Rel.consume_front(testdataRoot() + "/lint/");
  std::string Name;
  for (char C : Rel.drop_back(4))
    Name += llvm::isAlnum(C) ? C : '_';
  return Name;
}

const RuleSet &rules() {
  static RuleSet *Rules = [] {
    auto R = RuleSet::loadFromDirectory(GRAPHIFY_RULES_DIR);
    if (!R) {
      ADD_FAILURE() << llvm::toString(R.takeError());
      return static_cast<RuleSet *>(nullptr);
    }
    return new RuleSet(std::move(*R));
  }();
  return *Rules;
}

class AnalyzeAction : public clang::ASTFrontendAction {
public:
  AnalyzeAction(AnalysisConfig Config, AnalysisResult &Out) : Config(std::move(Config)), Out(Out) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    struct Consumer : clang::ASTConsumer {
      AnalyzeAction &A;
      explicit Consumer(AnalyzeAction &A) : A(A) {}
      void HandleTranslationUnit(clang::ASTContext &Ctx) override {
        if (!Ctx.getDiagnostics().hasErrorOccurred())
          A.Out = analyzeTranslationUnit(Ctx, A.Config);
      }
    };
    return std::make_unique<Consumer>(*this);
  }

private:
  AnalysisConfig Config;
  AnalysisResult &Out;
};

class LintGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(LintGolden, MatchesAnnotations) {
  const std::string &Path = GetParam();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buffer)) << Path;
  std::string Source = (*Buffer)->getBuffer().str();
  auto Golden = golden::parseGoldenFile(Source);
  ASSERT_TRUE(bool(Golden)) << Path << ": " << llvm::toString(Golden.takeError());

  std::vector<std::string> Args = {"-std=c++17", "-w",
                                   "-resource-dir=" GRAPHIFY_CLANG_RESOURCE_DIR,
                                   "-I" GRAPHIFY_RUNTIME_INCLUDE_DIR};
  llvm::StringRef TorchDirs = GRAPHIFY_TORCH_INCLUDE_DIRS;
  bool NeedsTorch = Source.find("#include <torch/") != std::string::npos;
  if (NeedsTorch && TorchDirs.empty())
    GTEST_SKIP() << "LibTorch headers not found";
  llvm::SmallVector<llvm::StringRef, 4> Dirs;
  TorchDirs.split(Dirs, '|', -1, false);
  for (llvm::StringRef D : Dirs)
    Args.push_back("-I" + D.str());
  if (Source.find("#include <cuda_runtime") != std::string::npos) {
    if (!llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
      GTEST_SKIP() << "CUDA headers not found";
    Args.push_back("-I/usr/local/cuda/include");
  }

  AnalysisConfig Config;
  Config.Rules = &rules();
  ASSERT_NE(Config.Rules, nullptr);
  for (const std::string &A : Golden->RunArgs) {
    llvm::StringRef R(A);
    if (R == "--profile=trace")
      Config.ProfileKind = Profile::Trace;
    else if (R == "--profile=cuda-graph")
      Config.ProfileKind = Profile::CudaGraph;
    else if (R == "--scope=all")
      Config.ScopeKind = Scope::All;
    else if (R == "--scope=graph")
      Config.ScopeKind = Scope::Graph;
    else if (R.consume_front("--graph-region="))
      Config.GraphRegionGlobs.push_back(R.str());
    else
      FAIL() << Path << ": unknown RUN-ARGS flag " << A;
  }

  AnalysisResult Result;
  bool Ok = clang::tooling::runToolOnCodeWithArgs(std::make_unique<AnalyzeAction>(Config, Result),
                                                 Source, Args, Path);
  ASSERT_TRUE(Ok) << Path << " does not compile";

  std::vector<bool> Matched(Golden->Expected.size(), false);
  auto Matches = [](const golden::Expectation &E, unsigned Line, unsigned Col,
                    const std::string &Text) {
    return E.Line == Line && E.Column == Col && llvm::Regex(E.Pattern).match(Text);
  };
  std::string Failures;
  std::string Produced;
  for (const Finding &F : Result.Findings) {
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
