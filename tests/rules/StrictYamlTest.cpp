// StrictMap pops known keys and rejects the rest; did-you-mean only suggests close words.
#include "graphify/rules/StrictYaml.h"

#include <gtest/gtest.h>

using namespace graphify;

TEST(StrictYaml, ClosestMatchOnlyForTypos) {
  std::vector<std::string> Keys = {"Checks", "Profile", "Scope", "GraphRegions"};
  EXPECT_EQ(closestMatch("Chekcs", Keys), "Checks");
  EXPECT_EQ(closestMatch("Profil", Keys), "Profile");
  EXPECT_EQ(closestMatch("Banana", Keys), "");
}

TEST(StrictYaml, TakesAndFinishes) {
  auto Doc = parseYamlText("a: 1\nb: [x, y]\nc: true\n", "t.yaml");
  ASSERT_TRUE(bool(Doc));
  StrictMap M(*Doc, "t.yaml", "config");
  ASSERT_FALSE(bool(M.checkShape()));
  auto A = M.takeInt("a");
  ASSERT_TRUE(bool(A));
  EXPECT_EQ(**A, 1);
  auto B = M.takeStringList("b");
  ASSERT_TRUE(bool(B));
  EXPECT_EQ((**B).size(), 2u);
  auto C = M.takeBool("c");
  ASSERT_TRUE(bool(C));
  EXPECT_TRUE(**C);
  EXPECT_FALSE(bool(M.finish()));
}

TEST(StrictYaml, LeftoverKeyIsLocated) {
  auto Doc = parseYamlText("a: 1\nbb: 2\n", "t.yaml");
  ASSERT_TRUE(bool(Doc));
  StrictMap M(*Doc, "t.yaml", "config");
  llvm::consumeError(M.takeInt("a").takeError());
  llvm::consumeError(M.takeInt("b").takeError());
  EXPECT_EQ(llvm::toString(M.finish()), "t.yaml:2:1: error: unknown key 'bb' in config; did you mean 'b'?");
}

TEST(StrictYaml, WrongScalarType) {
  auto Doc = parseYamlText("a: [1]\n", "t.yaml");
  ASSERT_TRUE(bool(Doc));
  StrictMap M(*Doc, "t.yaml", "config");
  auto A = M.takeInt("a");
  ASSERT_FALSE(bool(A));
  EXPECT_EQ(llvm::toString(A.takeError()), "t.yaml:1:4: error: 'a' in config must be an integer");
}
