// NOLINT comments on source text, without parsing.
#include "graphify/lint/Nolint.h"

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
