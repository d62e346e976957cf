// The golden runner: one parameterized test per file under testdata/rewrite/<rule>/ (adding a
// case is adding files). A case `name.cpp` is analysed, fixed and compared:
//   - with `name.expected.cpp` beside it: the fixed text must equal it, at least one applied fix
//     must come from <rule>, and a second pass over the fixed text must change nothing;
//   - without it: the text must come out unchanged (no-match and refused cases).
// `// EXPECT-NO-FIX: <regex>` on a line requires a finding on that line whose NoFixReason matches;
// a refusal on a line without such a comment fails the case.
#include "RewriteHarness.h"

#include <gtest/gtest.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Regex.h>

#include <algorithm>
#include <cstdlib>
#include <map>

namespace {

struct GoldenCase {
  std::string Rule;
  std::string Name;
  std::string Path;
  std::string ExpectedPath; // empty: output must equal input
};

// gtest prints parameters on failure; show the case's path rather than its bytes.
void PrintTo(const GoldenCase &C, std::ostream *OS) { *OS << C.Path; }

std::vector<GoldenCase> discoverCases() {
  std::vector<GoldenCase> Cases;
  std::string Root = std::string(GRAPHIFY_TEST_TESTDATA_DIR) + "/rewrite";
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator R(Root, EC), End; R != End && !EC; R.increment(EC)) {
    if (R->type() != llvm::sys::fs::file_type::directory_file)
      continue;
    std::string Rule = llvm::sys::path::filename(R->path()).str();
    if (Rule == "include")
      continue;
    std::error_code EC2;
    for (llvm::sys::fs::directory_iterator F(R->path(), EC2), FEnd; F != FEnd && !EC2; F.increment(EC2)) {
      llvm::StringRef P = F->path();
      if (!P.ends_with(".cpp") || P.ends_with(".expected.cpp"))
        continue;
      GoldenCase C;
      C.Rule = Rule;
      C.Name = llvm::sys::path::stem(P).str();
      C.Path = P.str();
      std::string Expected = P.drop_back(4).str() + ".expected.cpp";
      if (llvm::sys::fs::exists(Expected))
        C.ExpectedPath = Expected;
      Cases.push_back(std::move(C));
    }
  }
  std::sort(Cases.begin(), Cases.end(), [](const GoldenCase &A, const GoldenCase &B) { return A.Path < B.Path; });
  return Cases;
}

std::string readFile(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  return B ? (*B)->getBuffer().str() : std::string();
}

/// Line (1-based) -> regex from `// EXPECT-NO-FIX: <regex>` comments.
/// `// <Marker> <regex>` annotations by line: EXPECT-NO-FIX (a refusal) or EXPECT-RECIPE (a
/// by-hand recipe, for a rewrite that does not apply and says why in the recipe).
std::map<unsigned, std::string> expectedAnnotations(llvm::StringRef Code, llvm::StringRef Marker) {
  std::map<unsigned, std::string> Out;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Code.split(Lines, '\n');
  const std::string Tag = "// " + Marker.str() + ":";
  for (unsigned I = 0; I < Lines.size(); ++I) {
    size_t P = Lines[I].find(Tag);
    if (P != llvm::StringRef::npos)
      Out[I + 1] = Lines[I].substr(P + Tag.size()).trim().str();
  }
  return Out;
}

class RewriteGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(RewriteGolden, Case) {
  const GoldenCase &C = GetParam();
  std::string Input = readFile(C.Path);
  ASSERT_FALSE(Input.empty()) << C.Path;
  // As the lint goldens: a case written against the real LibTorch headers needs them (the
  // asan-ubsan preset builds without LibTorch).
  if (Input.find("#include <torch/") != std::string::npos && llvm::StringRef(GRAPHIFY_TEST_TORCH_INCLUDE_DIRS).empty())
    GTEST_SKIP() << "LibTorch headers not found";
  graphify::test::RewriteRun Run = graphify::test::rewriteSource(C.Path, Input);
  ASSERT_TRUE(Run.ParseErrors.empty()) << Run.ParseErrors;
  ASSERT_TRUE(Run.ApplyError.empty()) << Run.ApplyError;

  // GRAPHIFY_REWRITE_ACTUAL_DIR=<dir> saves each case's output there, to review new expectations.
  if (const char *Dir = std::getenv("GRAPHIFY_REWRITE_ACTUAL_DIR")) {
    std::error_code EC = llvm::sys::fs::create_directories(Dir);
    std::string Path = std::string(Dir) + "/" + C.Rule + "." + C.Name + ".cpp";
    if (!EC) {
      llvm::raw_fd_ostream OS(Path, EC);
      if (!EC)
        OS << Run.Fixed;
    }
    EXPECT_FALSE(EC) << "GRAPHIFY_REWRITE_ACTUAL_DIR: cannot write " << Path << ": " << EC.message();
  }
  std::string Report;
  for (const graphify::Finding &F : Run.Findings)
    Report += "  " + std::to_string(F.Where.Line) + ":" + std::to_string(F.Where.Column) + " [" + F.CheckId + "] " +
              (F.Fix ? "fix " + F.Fix->RuleName : F.NoFixReason.empty() ? "no rule" : F.NoFixReason) + "\n";

  // Refusals: each annotated line has a matching reason; no refusal elsewhere.
  for (const auto &[Line, Pattern] : expectedAnnotations(Input, "EXPECT-RECIPE")) {
    llvm::Regex Re(Pattern);
    bool Found = false;
    for (const graphify::Finding &F : Run.Findings)
      Found |= F.Where.Line == Line && Re.match(F.Recipe);
    EXPECT_TRUE(Found) << C.Path << ":" << Line << ": expected a recipe matching '" << Pattern << "'; findings:\n"
                       << Report;
  }
  std::map<unsigned, std::string> Expected = expectedAnnotations(Input, "EXPECT-NO-FIX");
  for (const auto &[Line, Pattern] : Expected) {
    llvm::Regex Re(Pattern);
    bool Found = false;
    for (const graphify::Finding &F : Run.Findings)
      Found |= F.Where.Line == Line && !F.NoFixReason.empty() && Re.match(F.NoFixReason);
    EXPECT_TRUE(Found) << C.Path << ":" << Line << ": expected a refusal matching '" << Pattern
                       << "'; findings:\n" << Report;
  }
  for (const graphify::Finding &F : Run.Findings)
    if (!F.NoFixReason.empty())
      EXPECT_TRUE(Expected.count(F.Where.Line))
          << C.Path << ":" << F.Where.Line << ": unexpected refusal '" << F.NoFixReason << "'";

  if (C.ExpectedPath.empty()) {
    EXPECT_EQ(Run.Fixed, Input) << "no fix was expected; findings:\n" << Report;
    return;
  }
  std::string Want = readFile(C.ExpectedPath);
  EXPECT_EQ(Run.Fixed, Want) << "findings:\n" << Report;
  bool RuleApplied = false;
  for (const graphify::Finding &F : Run.Findings)
    RuleApplied |= F.Fix && F.Fix->RuleName == C.Rule;
  EXPECT_TRUE(RuleApplied) << "no fix from rule '" << C.Rule << "'; findings:\n" << Report;
  // Idempotence: the fixed text offers no further fix.
  graphify::test::RewriteRun Again = graphify::test::rewriteSource(C.Path, Run.Fixed);
  ASSERT_TRUE(Again.ParseErrors.empty()) << "the fixed text does not compile:\n" << Again.ParseErrors;
  EXPECT_EQ(Again.Fixed, Run.Fixed) << "a second pass changed the fixed text";
}

std::string caseName(const ::testing::TestParamInfo<GoldenCase> &Info) {
  std::string N = Info.param.Rule + "_" + Info.param.Name;
  for (char &Ch : N)
    if (!llvm::isAlnum(Ch))
      Ch = '_';
  return N;
}

INSTANTIATE_TEST_SUITE_P(Testdata, RewriteGolden, ::testing::ValuesIn(discoverCases()), caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RewriteGolden);

} // namespace
