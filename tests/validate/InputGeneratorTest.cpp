#include "graphify/validate/InputGenerator.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace graphify::validate;

namespace {

InputSpec spec(const std::string &Text) {
  auto S = parseInputFlag(Text);
  EXPECT_TRUE(bool(S)) << llvm::toString(S.takeError());
  return *S;
}

double sum(const HostTensor &T) {
  double S = 0;
  for (int64_t I = 0; I < T.numel(); ++I)
    S += T.valueAsDouble(I);
  return S;
}

TEST(InputGenerator, SameSeedSameValuesDifferentSeedDifferentValues) {
  std::vector<InputSpec> Specs = {spec("x=f32[3]"), spec("ids=i64[4,5]@0:99")};
  auto A = generateTrials(Specs, 7, 8);
  auto B = generateTrials(Specs, 7, 8);
  auto C = generateTrials(Specs, 8, 8);
  EXPECT_EQ(formatInputsFile(A), formatInputsFile(B));
  EXPECT_NE(formatInputsFile(A), formatInputsFile(C));
}

TEST(InputGenerator, VariantsCycleInADocumentedOrder) {
  std::vector<std::string> Names;
  for (unsigned T = 0; T < 9; ++T)
    Names.push_back(variantName(variantForTrial(T)));
  EXPECT_EQ(Names, (std::vector<std::string>{"random", "negated", "all-positive", "all-negative", "zeros",
                                             "shifted-up", "shifted-down", "fresh", "random"}));
}

TEST(InputGenerator, NegationFlipsTheSignOfTheSumOfTrialZero) {
  // The seed-002 branch `x.sum() > 0` must go both ways between trial 0 (where capture and
  // trace happen) and trial 1, for every seed.
  InputSpec X = spec("x=f32[3]");
  for (uint64_t Seed = 0; Seed < 50; ++Seed) {
    double S0 = sum(generateInput(X, Seed, 0, 0)), S1 = sum(generateInput(X, Seed, 1, 0));
    EXPECT_EQ(S0, -S1) << "seed " << Seed;
  }
}

TEST(InputGenerator, CoversBothSidesOfSignDecisions) {
  InputSpec X = spec("x=f32[5]");
  auto Trials = generateTrials({X}, 3, 8);
  bool AllPos = true, AllNeg = true, Zeros = true;
  for (double V : Trials[2].Inputs[0].doubles())
    AllPos &= V > 0;
  for (double V : Trials[3].Inputs[0].doubles())
    AllNeg &= V < 0;
  for (double V : Trials[4].Inputs[0].doubles())
    Zeros &= V == 0;
  EXPECT_TRUE(AllPos && AllNeg && Zeros);
  // Some element is positive in one trial and negative in another, for every element.
  for (size_t I = 0; I < 5; ++I) {
    bool Pos = false, Neg = false;
    for (const auto &T : Trials) {
      Pos |= T.Inputs[0].valueAsDouble(I) > 0;
      Neg |= T.Inputs[0].valueAsDouble(I) < 0;
    }
    EXPECT_TRUE(Pos && Neg) << "element " << I;
  }
}

TEST(InputGenerator, MasksAreAllTrueAndAllFalseSomewhere) {
  auto Trials = generateTrials({spec("m=bool[6]")}, 0, 8);
  auto All = [](const HostTensor &T, int64_t V) {
    std::vector<int64_t> Values = T.integers();
    return std::all_of(Values.begin(), Values.end(), [&](int64_t X) { return X == V; });
  };
  EXPECT_TRUE(All(Trials[2].Inputs[0], 1));
  EXPECT_TRUE(All(Trials[3].Inputs[0], 0));
  for (size_t I = 0; I < 6; ++I)
    EXPECT_NE(Trials[0].Inputs[0].intAt(I), Trials[1].Inputs[0].intAt(I));
}

TEST(InputGenerator, IntegersStayInTheirRange) {
  auto Trials = generateTrials({spec("ids=i64[4,5]@0:99")}, 1, 16);
  for (const auto &T : Trials)
    for (int64_t V : T.Inputs[0].integers()) {
      EXPECT_GE(V, 0);
      EXPECT_LE(V, 99);
    }
  // Zeros clamps into the range; all-negative has no negative values to give and uses the lowest.
  EXPECT_EQ(Trials[4].Inputs[0].intAt(0), 0);
  EXPECT_EQ(Trials[3].Inputs[0].intAt(0), 0);
}

TEST(InputGenerator, FloatsStayInTheirRangeAndAreExactlyRepresentable) {
  auto Trials = generateTrials({spec("x=f32[64]@0.5:3")}, 2, 8);
  for (const auto &T : Trials)
    for (double V : T.Inputs[0].doubles()) {
      EXPECT_GE(V, 0.5);
      EXPECT_LE(V, 3);
      EXPECT_EQ(V, double(float(V)));
    }
}

TEST(InputGenerator, ShapesAndScalars) {
  HostTensor T = generateInput(spec("s=f64[]"), 0, 0, 0);
  EXPECT_TRUE(T.Shape.empty());
  EXPECT_EQ(T.numel(), 1);
  EXPECT_EQ(T.bytes().size(), 8u) << "an f64 payload";
  HostTensor E = generateInput(spec("e=f32[0,3]"), 0, 0, 0);
  EXPECT_EQ(E.numel(), 0);
}

} // namespace
