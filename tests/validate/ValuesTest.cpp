#include "graphify/validate/Values.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace graphify::validate;

namespace {

TEST(Values, TensorLinesRoundTripExactly) {
  HostTensor T;
  T.Type = DType::F32;
  T.Shape = {2};
  T.Floats = {double(0.1f), -std::nan("")};
  auto Back = parseTensor(formatTensor(T));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Floats[0], double(0.1f));
  EXPECT_TRUE(std::isnan(Back->Floats[1]));
  EXPECT_EQ(formatTensor(*Back), formatTensor(T));
}

TEST(Values, ScalarsAndUndefined) {
  auto S = parseTensor("s i64 0 : 42");
  ASSERT_TRUE(bool(S));
  EXPECT_TRUE(S->IsScalar);
  EXPECT_EQ(S->Ints[0], 42);
  auto U = parseTensor("undefined");
  ASSERT_TRUE(bool(U));
  EXPECT_TRUE(U->Undefined);
  EXPECT_FALSE(bool(parseTensor("f32 1 3 : 1 2")));
}

TEST(Values, ResultsFileProtocol) {
  std::string Text = "graphify-results 1\n"
                     "eager 0 ok 1\nf32 1 2 : 1 2\n"
                     "eager 1 error bad\\tshape\\nhere\n"
                     "capture refused 8\titem\t/m/model.cpp\tcannot read\n"
                     "replay 1 ok 1\nbool 0 : 1\n"
                     "warning frozen\n"
                     "done\n";
  auto R = parseResultsFile(Text);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Eager.size(), 2u);
  EXPECT_TRUE(R->Eager[0].Ok);
  EXPECT_EQ(R->Eager[1].Error, "bad\tshape\nhere");
  EXPECT_EQ(R->Capture.Status, CaptureOutcome::State::Refused);
  EXPECT_EQ(R->Capture.Op, "item");
  EXPECT_EQ(R->Capture.Line, 8u);
  EXPECT_EQ(R->Capture.File, "/m/model.cpp");
  EXPECT_EQ(R->Replays.size(), 1u);
  EXPECT_EQ(R->Warnings, std::vector<std::string>{"frozen"});
  EXPECT_TRUE(R->Finished);
}

TEST(Values, TruncatedResultsKeepCompletedTrials) {
  auto R = parseResultsFile("graphify-results 1\neager 0 ok 1\nf32 0 : 1\neager 1 ok 2\nf32 0 : 1\n");
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->Eager.size(), 1u); // trial 1 lost its second output: not counted
  EXPECT_FALSE(R->Finished);
}

TEST(Values, InputsFileRoundTrip) {
  TrialInputs T;
  T.Trial = 3;
  T.Variant = "all-negative";
  HostTensor X;
  X.Type = DType::Bool;
  X.Shape = {2};
  X.Ints = {1, 0};
  T.Inputs = {X};
  auto Back = parseInputsFile(formatInputsFile({T}));
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ((*Back)[0].Variant, "all-negative");
  EXPECT_EQ((*Back)[0].Inputs[0].Ints, (std::vector<int64_t>{1, 0}));
}

TEST(Values, EscapingRoundTrips) {
  std::string S = "a\\b\tc\nd";
  EXPECT_EQ(unescapeField(escapeField(S)), S);
  EXPECT_EQ(escapeField(S).find('\n'), std::string::npos);
}

TEST(Values, GradientRecords) {
  std::string Text = "graphify-results 1\n"
                     "params 2\n"
                     "grad 0 ok 2 1\n"
                     "1\tnot floating point\n"
                     "input 0\tf32 1 2 : 0.5 nan\n"
                     "parameter fc.weight\tf32 0 : 3\n"
                     "grad 1 error the derivative for 'cumprod' is not implemented.\n"
                     "grad 2 ok 1 0\n"; // the harness died before writing the gradient
  auto R = parseResultsFile(Text);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Parameters, 2u);
  ASSERT_EQ(R->Gradients.size(), 2u) << "trial 2 was cut short and is not counted";
  const TrialGradients &T0 = R->Gradients[0];
  EXPECT_TRUE(T0.Ok);
  ASSERT_EQ(T0.SkippedOutputs.size(), 1u);
  EXPECT_EQ(T0.SkippedOutputs[0].first, 1u);
  EXPECT_EQ(T0.SkippedOutputs[0].second, "not floating point");
  ASSERT_EQ(T0.Gradients.size(), 2u);
  EXPECT_EQ(T0.Gradients[0].Target, "input 0");
  EXPECT_TRUE(std::isnan(T0.Gradients[0].Value.Floats[1]));
  EXPECT_EQ(T0.Gradients[1].Target, "parameter fc.weight");
  EXPECT_FALSE(R->Gradients[1].Ok);
  EXPECT_EQ(R->Gradients[1].Error, "the derivative for 'cumprod' is not implemented.");
  EXPECT_FALSE(bool(parseResultsFile("graphify-results 1\ngrad 0 ok two 0\n")));
  EXPECT_FALSE(bool(parseResultsFile("graphify-results 1\nparams x\n")));
}

} // namespace
