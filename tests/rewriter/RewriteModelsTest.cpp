// For every seed model: the fixed source (written at build time by graphify_rewrite_models)
// must be stable under a second --fix pass, and must lint clean for what was fixed: the second
// pass reports no finding that has a fix, and no more findings than the first pass left unfixed.
// Value equivalence of original and fixed is checked by the generated program (rewriter.e2e.*).
#include "RewriteHarness.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <llvm/Support/Regex.h>

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

/// What a seed model declares that --fix does to it, on a line of its own:
///   `// graphify-expect-fix: fixed`             at least one rewrite applies
///   `// graphify-expect-fix: clean`             no finding at all
///   `// graphify-expect-fix: refused <regex>`   findings, no rewrite, a refusal matching <regex>
/// A model that stops being fixed (a rewriter regression) or starts being fixed (the
/// declaration is stale) fails instead of being skipped.
struct FixExpectation {
  enum Kind { Missing, Fixed, Clean, Refused } What = Missing;
  std::string Reason;
};

FixExpectation expectationOf(llvm::StringRef Source) {
  static const llvm::StringRef Marker = "// graphify-expect-fix: ";
  size_t At = Source.find(Marker);
  if (At == llvm::StringRef::npos)
    return {};
  llvm::StringRef Rest = Source.substr(At + Marker.size());
  Rest = Rest.take_until([](char C) { return C == '\n'; }).trim();
  if (Rest == "fixed")
    return {FixExpectation::Fixed, ""};
  if (Rest == "clean")
    return {FixExpectation::Clean, ""};
  if (Rest.consume_front("refused "))
    return {FixExpectation::Refused, Rest.str()};
  return {};
}

class RewriteModels : public ::testing::TestWithParam<std::string> {};

TEST_P(RewriteModels, DoesWhatTheModelDeclares) {
  const std::string &Path = GetParam();
  std::string Original = readFile(Path);
  FixExpectation Expect = expectationOf(Original);
  ASSERT_NE(Expect.What, FixExpectation::Missing)
      << Path << " has no (valid) '// graphify-expect-fix: fixed|clean|refused <regex>' line";
  graphify::test::RewriteRun Run = graphify::test::rewriteSource(Path, Original);
  ASSERT_TRUE(Run.ParseErrors.empty()) << Run.ParseErrors;
  switch (Expect.What) {
  case FixExpectation::Fixed:
    EXPECT_NE(Run.Fixed, Original) << "the model declares a fix but none applies";
    break;
  case FixExpectation::Clean:
    EXPECT_TRUE(Run.Findings.empty()) << Run.Findings.size() << " findings, first: " << Run.Findings.front().Message;
    break;
  case FixExpectation::Refused: {
    EXPECT_EQ(Run.Fixed, Original) << "the model declares a refusal but a fix applies";
    llvm::Regex Reason(Expect.Reason);
    bool Matched = std::any_of(Run.Findings.begin(), Run.Findings.end(), [&](const graphify::Finding &F) {
      return !F.Fix && Reason.match(F.NoFixReason);
    });
    std::string Seen;
    for (const graphify::Finding &F : Run.Findings)
      Seen += "\n  " + std::to_string(F.Where.Line) + ": " + F.NoFixReason;
    EXPECT_TRUE(Matched) << "no refusal matches '" << Expect.Reason << "'; refusals:" << Seen;
    break;
  }
  case FixExpectation::Missing:
    break;
  }
}

TEST_P(RewriteModels, FixedModelLintsCleanAndIsStable) {
  const std::string &Path = GetParam();
  std::string Original = readFile(Path);
  if (expectationOf(Original).What != FixExpectation::Fixed)
    return; // DoesWhatTheModelDeclares covers models that are not fixed
  std::string FixedPath = std::string(GRAPHIFY_TEST_E2E_DIR) + "/fixed/" + llvm::sys::path::filename(Path).str();
  std::string Fixed = readFile(FixedPath);
  ASSERT_FALSE(Fixed.empty()) << FixedPath << " was not generated (the rewriter_e2e target builds it)";
  ASSERT_NE(Fixed, Original) << "the build-time --fix left a model that declares a fix unchanged";
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
