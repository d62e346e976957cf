// NOLINT comments on source text, without parsing; and the lint pipeline reading them (and
// handing the renderers) the text it parsed.
#include "graphify/lint/Nolint.h"
#include "graphify/lint/LintPipeline.h"
#include "graphify/lint/Output.h"
#include "graphify/rules/RuleSet.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

using graphify::NolintMap;

namespace {

TEST(Nolint, SameLineAllAndListed) {
  NolintMap M("a(); // NOLINT\n"
              "b(); // NOLINT(graphify-host-sync, graphify-data-*)\n"
              "c(); // NOLINT()\n"
              "d(); /* NOLINT(graphify-dynamic-shape) */\n"
              "e();\n",
              "f.cpp");
  EXPECT_TRUE(M.suppresses(1, "graphify-anything"));
  EXPECT_TRUE(M.suppresses(2, "graphify-host-sync"));
  EXPECT_TRUE(M.suppresses(2, "graphify-data-dependent-loop"));
  EXPECT_FALSE(M.suppresses(2, "graphify-dynamic-shape"));
  EXPECT_FALSE(M.suppresses(3, "graphify-host-sync"));
  EXPECT_TRUE(M.suppresses(4, "graphify-dynamic-shape"));
  EXPECT_FALSE(M.suppresses(5, "graphify-host-sync"));
  EXPECT_TRUE(M.problems().empty());
}

TEST(Nolint, NextLine) {
  NolintMap M("// NOLINTNEXTLINE(graphify-host-sync)\n"
              "a();\n"
              "b();\n"
              "// NOLINTNEXTLINE\n"
              "c();\n",
              "f.cpp");
  EXPECT_FALSE(M.suppresses(1, "graphify-host-sync"));
  EXPECT_TRUE(M.suppresses(2, "graphify-host-sync"));
  EXPECT_FALSE(M.suppresses(2, "graphify-dynamic-shape"));
  EXPECT_FALSE(M.suppresses(3, "graphify-host-sync"));
  EXPECT_TRUE(M.suppresses(5, "graphify-dynamic-shape"));
}

TEST(Nolint, BeginEndRegions) {
  NolintMap M("x();\n"
              "// NOLINTBEGIN(graphify-host-sync)\n"
              "a();\n"
              "// NOLINTBEGIN\n"
              "b();\n"
              "// NOLINTEND\n"
              "c();\n"
              "// NOLINTEND(graphify-host-sync)\n"
              "d();\n",
              "f.cpp");
  EXPECT_FALSE(M.suppresses(1, "graphify-host-sync"));
  EXPECT_TRUE(M.suppresses(3, "graphify-host-sync"));
  EXPECT_FALSE(M.suppresses(3, "graphify-dynamic-shape"));
  EXPECT_TRUE(M.suppresses(5, "graphify-dynamic-shape"));
  EXPECT_TRUE(M.suppresses(7, "graphify-host-sync"));
  EXPECT_FALSE(M.suppresses(7, "graphify-dynamic-shape"));
  EXPECT_FALSE(M.suppresses(9, "graphify-host-sync"));
  EXPECT_TRUE(M.problems().empty());
}

TEST(Nolint, UnmatchedRegionsAreProblemsAndSuppressNothing) {
  NolintMap M("// NOLINTBEGIN(graphify-host-sync)\n"
              "a();\n"
              "// NOLINTEND(graphify-dynamic-shape)\n",
              "f.cpp");
  EXPECT_FALSE(M.suppresses(2, "graphify-host-sync"));
  ASSERT_EQ(M.problems().size(), 2u);
  EXPECT_EQ(M.problems()[0].Where.Line, 1u);
  EXPECT_EQ(M.problems()[0].Where.Column, 4u);
  EXPECT_EQ(M.problems()[0].CheckId, "graphify-nolint");
  EXPECT_NE(M.problems()[0].Message.find("unmatched 'NOLINTBEGIN'"), std::string::npos);
  EXPECT_EQ(M.problems()[1].Where.Line, 3u);
  EXPECT_NE(M.problems()[1].Message.find("unmatched 'NOLINTEND'"), std::string::npos);
}

TEST(Nolint, OnlyInComments) {
  NolintMap M("const char *s = \"NOLINT\";\n"
              "int NOLINTx; // NOLINTFOO\n",
              "f.cpp");
  EXPECT_FALSE(M.suppresses(1, "graphify-host-sync"));
  EXPECT_FALSE(M.suppresses(2, "graphify-host-sync"));
}

} // namespace

TEST(Nolint, TheParsedTextDecidesNotTheDisk) {
  using namespace graphify;
  // A unit linted from memory (as graphify-validate lints a model's text): NOLINT is read from
  // the text that was parsed, and the renderers get that text (LintUnitResult::SourceTexts), so
  // a file edited on disk after the parse neither un-silences a finding nor shows other lines.
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("graphify-nolint", Dir));
  const std::string File = (Dir + "/model.cpp").str();
  const std::string Parsed = "#include \"mock_torch.h\"\n"
                             "float f(at::Tensor x) {\n"
                             "  float a = x.sum().item<float>(); // NOLINT(graphify-host-sync)\n"
                             "  float b = x.max().item<float>();\n"
                             "  return a + b;\n"
                             "}\n";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC);
    OS << "// the file as it is on disk now: no NOLINT, other lines\n";
  }
  LintUnit Unit;
  Unit.CommandLine = {"clang++", "-fsyntax-only", "-std=c++17", "-resource-dir=" GRAPHIFY_CLANG_RESOURCE_DIR,
                      "-I" GRAPHIFY_SOURCE_DIR "/testdata/rewrite/include", File};
  Unit.WorkingDir = Dir.str().str();
  Unit.File = File;
  Unit.Content = Parsed;
  Unit.Config.ScopeKind = Scope::All;
  auto Rules = RuleSet::loadFromDirectory(GRAPHIFY_SOURCE_DIR "/rules");
  ASSERT_TRUE(bool(Rules)) << llvm::toString(Rules.takeError());
  Unit.Rules = &*Rules;
  LintUnitResult R = lintTranslationUnit(Unit);
  ASSERT_TRUE(R.Parsed) << R.CompilerErrors;
  EXPECT_EQ(R.Suppressed, 1u);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(R.Findings[0].F.Where.Line, 4u);
  const std::string Shown = R.Findings[0].F.Where.File;
  ASSERT_EQ(R.SourceTexts.count(Shown), 1u);
  EXPECT_EQ(R.SourceTexts.at(Shown), Parsed);

  SourceCache Sources;
  for (const auto &[Path, Text] : R.SourceTexts)
    Sources.remember(Path, Text);
  OutputContext Ctx{Sources};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeText(OS, R.Findings, Ctx);
  EXPECT_NE(Out.find("    4 |   float b = x.max().item<float>();"), std::string::npos) << Out;
  llvm::sys::fs::remove_directories(Dir);
}
