// For every seed model: the fixed source (written at build time by graphify_rewrite_models)
// must be stable under a second --fix pass, and must lint clean for what was fixed: the second
// pass reports no finding that has a fix, and no more findings than the first pass left unfixed.
// Value equivalence of original and fixed is checked by the generated program (rewriter.e2e.*).
#include "RewriteHarness.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace {

std::vector<std::string> models() {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(std::string(GRAPHIFY_TEST_TESTDATA_DIR) + "/models", EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".cpp"))
      Out.push_back(It->path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::string readFile(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  return B ? (*B)->getBuffer().str() : std::string();
}

class RewriteModels : public ::testing::TestWithParam<std::string> {};

TEST_P(RewriteModels, FixedModelLintsCleanAndIsStable) {
  const std::string &Path = GetParam();
  std::string Original = readFile(Path);
  std::string FixedPath = std::string(GRAPHIFY_TEST_E2E_DIR) + "/fixed/" + llvm::sys::path::filename(Path).str();
  std::string Fixed = readFile(FixedPath);
  if (Fixed.empty())
    GTEST_SKIP() << FixedPath << " was not generated (build the rewriter_e2e target)";
  if (Fixed == Original)
    GTEST_SKIP() << "no fix for this model";
  graphify::test::RewriteRun First = graphify::test::rewriteSource(Path, Original);
  ASSERT_TRUE(First.ParseErrors.empty()) << First.ParseErrors;
  EXPECT_EQ(First.Fixed, Fixed) << "the build-time fix differs from a fresh one";
  size_t Unfixed = std::count_if(First.Findings.begin(), First.Findings.end(),
                                 [](const graphify::Finding &F) { return !F.Fix; });
  // The second pass analyses the fixed text under the original file name (same style lookup).
  graphify::test::RewriteRun Second = graphify::test::rewriteSource(Path, Fixed);
  ASSERT_TRUE(Second.ParseErrors.empty()) << "the fixed model does not compile:\n" << Second.ParseErrors;
  EXPECT_EQ(Second.Fixed, Fixed) << "a second --fix pass changed the file";
  for (const graphify::Finding &F : Second.Findings)
    EXPECT_FALSE(F.Fix) << F.Where.Line << ":" << F.Where.Column << ": still fixable [" << F.CheckId << "] "
                        << F.Message;
  EXPECT_LE(Second.Findings.size(), Unfixed) << "the fixed model has findings the original's fixes should have removed";
}

std::string modelName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string N = llvm::sys::path::stem(Info.param).str();
  for (char &C : N)
    if (!isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return N;
}

INSTANTIATE_TEST_SUITE_P(Seed, RewriteModels, ::testing::ValuesIn(models()), modelName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RewriteModels);

} // namespace
