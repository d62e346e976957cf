// One analyse-and-fix pass, as graphify-lint --fix performs it, but in memory. When the analysis
// library is linked (the normal build), findings come from analyzeTranslationUnit; a build
// without it falls back to reporting every rule match that reads tensor values on the host.
#include "RewriteHarness.h"

#include "graphify/analyzer/Analysis.h"
#include "graphify/rewriter/FixApplication.h"
#include "graphify/rewriter/RewriteCandidates.h"
#include "graphify/rewriter/Rewriter.h"

#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/Tooling.h>
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
  std::vector<std::string> Args = {"-std=c++17", "-fsyntax-only", "-Wno-everything",
                                   "-resource-dir=" GRAPHIFY_TEST_RESOURCE_DIR,
                                   "-I" GRAPHIFY_TEST_TESTDATA_DIR "/rewrite/include",
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
  std::string Diags;
  llvm::raw_string_ostream DiagOS(Diags);
  auto Opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter Printer(DiagOS, Opts.get());
  std::unique_ptr<clang::ASTUnit> AST = clang::tooling::buildASTFromCodeWithArgs(
      Code, testCompilerArgs(), Path, "graphify-rewriter-test", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(), &Printer);
  if (!AST || AST->getDiagnostics().hasErrorOccurred()) {
    Run.ParseErrors = Diags.empty() ? std::string("cannot parse ") + Path.str() : Diags;
    Run.Fixed = Code.str();
    return Run;
  }
  clang::ASTContext &Ctx = AST->getASTContext();
  const RuleSet &Rules = testRules();
#ifdef GRAPHIFY_TEST_HAVE_ANALYZER
  AnalysisConfig Config;
  Config.Rules = &Rules;
  Config.ScopeKind = Scope::All;
  AnalysisResult Result = analyzeTranslationUnit(Ctx, Config);
  attachFixes(Ctx, Result, Rules);
  Run.Findings = std::move(Result.Findings);
  Run.UsedAnalysis = true;
#else
  for (const RewriteCandidate &C : findRewriteCandidates(Ctx, Rules, nullptr, {})) {
    if (!C.TouchesDataDependentApi)
      continue;
    Finding F;
    F.CheckId = "graphify-rewrite-candidate";
    F.Where = C.Where;
    F.Message = "rewrite rule '" + C.RuleName + "' matches";
    F.Fix = C.Fix;
    F.NoFixReason = C.NoFixReason;
    Run.Findings.push_back(std::move(F));
  }
#endif
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
