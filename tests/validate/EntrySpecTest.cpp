#include "graphify/validate/EntrySpec.h"

#include <gtest/gtest.h>

using namespace graphify::validate;

namespace {

std::string errorOf(llvm::Error E) { return llvm::toString(std::move(E)); }

TEST(EntrySpec, ParsesTheSeedComment) {
  auto Specs = parseEntryComment("x: f32[3], w: f32[3,3]");
  ASSERT_TRUE(bool(Specs)) << errorOf(Specs.takeError());
  ASSERT_EQ(Specs->size(), 2u);
  EXPECT_EQ((*Specs)[0].Name, "x");
  EXPECT_EQ((*Specs)[0].Type, DType::F32);
  EXPECT_EQ((*Specs)[0].Shape, (std::vector<int64_t>{3}));
  EXPECT_EQ((*Specs)[1].Name, "w");
  EXPECT_EQ((*Specs)[1].Shape, (std::vector<int64_t>{3, 3}));
  EXPECT_FALSE((*Specs)[1].Range);
}

TEST(EntrySpec, ParsesIntegerRangesInBothSpellings) {
  auto Specs = parseEntryComment("ids: i64[4,5] in [0, 99]");
  ASSERT_TRUE(bool(Specs)) << errorOf(Specs.takeError());
  ASSERT_TRUE((*Specs)[0].Range);
  EXPECT_EQ((*Specs)[0].Range->Lo, 0);
  EXPECT_EQ((*Specs)[0].Range->Hi, 99);
  auto Flag = parseInputFlag("ids=i64[4,5]@0:99");
  ASSERT_TRUE(bool(Flag)) << errorOf(Flag.takeError());
  EXPECT_EQ(Flag->str(), "ids: i64[4,5] in [0, 99]");
}

TEST(EntrySpec, ParsesEveryDtypeScalarsAndFloatRanges) {
  auto Specs = parseEntryComment("a: f64[], b: i32[2] , c: bool[2,2], d: f32[1] in [-1.5, 2e1]");
  ASSERT_TRUE(bool(Specs)) << errorOf(Specs.takeError());
  ASSERT_EQ(Specs->size(), 4u);
  EXPECT_TRUE((*Specs)[0].Shape.empty());
  EXPECT_EQ((*Specs)[1].Type, DType::I32);
  EXPECT_EQ((*Specs)[2].Type, DType::Bool);
  EXPECT_EQ((*Specs)[3].Range->Lo, -1.5);
  EXPECT_EQ((*Specs)[3].Range->Hi, 20);
  EXPECT_EQ((*Specs)[3].str(), "d: f32[1] in [-1.5, 20]");
}

TEST(EntrySpec, EmptyListIsAnEntryWithoutInputs) {
  auto Specs = parseEntryComment("   ");
  ASSERT_TRUE(bool(Specs));
  EXPECT_TRUE(Specs->empty());
}

TEST(EntrySpec, DefaultRanges) {
  InputSpec F{"x", DType::F32, {3}, std::nullopt};
  InputSpec I{"i", DType::I64, {3}, std::nullopt};
  EXPECT_EQ(F.effectiveRange().Lo, -2);
  EXPECT_EQ(I.effectiveRange().Hi, 10);
}

TEST(EntrySpec, BadSeparatorPointsAtTheToken) {
  auto S = parseInputFlag("x=f32[3;3]");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()), "--input:8: error: expected ',' or ']' after a dimension, found ';'\n"
                                    "  x=f32[3;3]\n"
                                    "         ^");
}

TEST(EntrySpec, UnknownDtypeSuggestsTheClosest) {
  auto S = parseEntryComment("x: f16[3]", "m.cpp:5", 20);
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()),
            "m.cpp:5:23: error: unknown dtype 'f16'; did you mean 'f32'? (expected f32, f64, i32, i64 or bool)\n"
            "  x: f16[3]\n"
            "     ^");
}

TEST(EntrySpec, MissingShape) {
  auto S = parseInputFlag("x=f32");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()), "--input:6: error: expected '[' and a shape after dtype 'f32', found the end of "
                                    "the text\n  x=f32\n       ^");
}

TEST(EntrySpec, MissingNameSeparator) {
  auto S = parseInputFlag("x f32[3]");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()),
            "--input:3: error: expected ':' (or '=') after input name 'x', found 'f'\n  x f32[3]\n    ^");
}

TEST(EntrySpec, NonIntegerDimension) {
  auto S = parseInputFlag("x=f32[a]");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()),
            "--input:7: error: expected a dimension (a non-negative integer), found 'a'\n  x=f32[a]\n        ^");
}

TEST(EntrySpec, EmptyRange) {
  auto S = parseInputFlag("x=i64[2]@5:1");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()), "--input:9: error: empty range [5, 1]: the lower bound exceeds the upper bound\n"
                                    "  x=i64[2]@5:1\n          ^");
}

TEST(EntrySpec, FractionalBoundsForIntegers) {
  auto S = parseEntryComment("ids: i32[2] in [0, 9.5]");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()), "13: error: the bounds of a range for i32 input 'ids' must be integers\n"
                                    "  ids: i32[2] in [0, 9.5]\n"
                                    "              ^");
}

TEST(EntrySpec, RangeOnBool) {
  auto S = parseInputFlag("m=bool[2]@0:1");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()),
            "--input:10: error: a value range is not allowed for bool input 'm'\n  m=bool[2]@0:1\n           ^");
}

TEST(EntrySpec, MissingCommaBetweenInputs) {
  auto S = parseEntryComment("x: f32[3] w: f32[3]");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()), "11: error: expected ',' or the end of the list after input 'x', found 'w'\n"
                                    "  x: f32[3] w: f32[3]\n"
                                    "            ^");
}

TEST(EntrySpec, DuplicateName) {
  auto S = parseEntryComment("x: f32[3], x: f32[3]");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()), "12: error: duplicate input name 'x'\n  x: f32[3], x: f32[3]\n             ^");
}

TEST(EntrySpec, TrailingTextAfterAFlag) {
  auto S = parseInputFlag("x=f32[3] y");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(errorOf(S.takeError()), "--input:10: error: unexpected 'y' after the input spec\n  x=f32[3] y\n           ^");
}

TEST(EntrySpec, InputsTooLargeToGenerateAreRefusedWhereTheyGrow) {
  // Too many elements in one dimension, in the product of several (4294967296^2 overflows int64
  // to 0 when multiplied unchecked), and more digits than an int64 holds.
  // f32[8192,8192] was the limit once: it validated, in 70 s and 7 GB here (docs/validate.md, Limits).
  for (const char *Spec : {"x=f32[100000000000]", "x=f32[4294967296,4294967296]", "x=f32[8192,8192]",
                           "x=f32[4096,4096,2]", "x=i64[99999999999999999999999]"}) {
    auto S = parseInputFlag(Spec);
    ASSERT_FALSE(bool(S)) << Spec;
    std::string E = errorOf(S.takeError());
    EXPECT_NE(E.find("error: input 'x' would have more than 16777216 elements"), std::string::npos) << E;
  }
  auto Largest = parseInputFlag("x=f32[4096,4096]");
  ASSERT_TRUE(bool(Largest)) << errorOf(Largest.takeError());
  EXPECT_EQ(Largest->numel(), InputSpec::kMaxElements);
}

// Found by fuzz_validate_spec: integer bounds beyond what the type (and a double, exactly) holds
// made the generator convert 9.5e22 to int64 (undefined behaviour).
TEST(EntrySpec, IntegerRangesMustFitTheirType) {
  for (const char *Spec : {"x=i64[3]@-1e23:1e23", "x=i32[3]@0:3000000000", "x=i64[2]@0:1e16"}) {
    auto S = parseInputFlag(Spec);
    ASSERT_FALSE(bool(S)) << Spec;
    EXPECT_NE(errorOf(S.takeError()).find("must lie in ["), std::string::npos) << Spec;
  }
  auto F = parseInputFlag("x=f32[2]@-1e39:0");
  ASSERT_FALSE(bool(F));
  EXPECT_NE(errorOf(F.takeError()).find("exceed the largest f32"), std::string::npos);
  for (const char *Spec : {"x=i32[3]@-2147483648:2147483647", "x=i64[3]@-9007199254740992:9007199254740992",
                           "x=f64[2]@-1e300:1e300"})
    EXPECT_TRUE(bool(parseInputFlag(Spec))) << Spec;
}

TEST(EntrySpec, FindsTheMarkerInAComment) {
  unsigned Column = 0;
  auto T = findEntryComment("// graphify-entry: ids: i64[4,5] in [0, 99]", Column);
  ASSERT_TRUE(T);
  EXPECT_EQ(*T, "ids: i64[4,5] in [0, 99]");
  EXPECT_EQ(Column, 20u);
  EXPECT_FALSE(findEntryComment("// an ordinary comment", Column));
  EXPECT_FALSE(findEntryComment("int x = 0;", Column));
}

} // namespace
