#include "graphify/validate/Compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace graphify::validate;

namespace {

HostTensor f32(std::vector<int64_t> Shape, std::vector<double> V) {
  return HostTensor::floats(DType::F32, std::move(Shape), V);
}

const double NaN = std::numeric_limits<double>::quiet_NaN();
const double Inf = std::numeric_limits<double>::infinity();

TEST(Compare, NaNEqualsNaN) {
  EXPECT_TRUE(compareValues(f32({2}, {NaN, 1}), f32({2}, {NaN, 1}), {}).Equal);
  Comparison C = compareValues(f32({2}, {NaN, 1}), f32({2}, {0, 1}), {});
  EXPECT_FALSE(C.Equal);
  EXPECT_EQ(C.Reason, "element [0] is nan, expected 0");
}

TEST(Compare, InfinitiesCompareBySign) {
  EXPECT_TRUE(compareValues(f32({1}, {Inf}), f32({1}, {Inf}), {}).Equal);
  EXPECT_FALSE(compareValues(f32({1}, {-Inf}), f32({1}, {Inf}), {}).Equal);
}

TEST(Compare, RelativeAndAbsoluteTolerance) {
  EXPECT_TRUE(compareValues(f32({1}, {1000.005}), f32({1}, {1000}), {}).Equal);   // 5e-6 relative
  EXPECT_FALSE(compareValues(f32({1}, {1000.05}), f32({1}, {1000}), {}).Equal);   // 5e-5 relative
  EXPECT_TRUE(compareValues(f32({1}, {5e-7}), f32({1}, {0}), {}).Equal);          // absolute floor
  EXPECT_FALSE(compareValues(f32({1}, {5e-6}), f32({1}, {0}), {}).Equal);
  EXPECT_TRUE(compareValues(f32({1}, {1.05}), f32({1}, {1}), {0.1, 0}).Equal);     // custom
}

TEST(Compare, ShapeMismatchIsReported) {
  Comparison C = compareValues(f32({2, 3}, std::vector<double>(6)), f32({3, 2}, std::vector<double>(6)), {});
  EXPECT_FALSE(C.Equal);
  EXPECT_EQ(C.Reason, "shape [2,3], expected [3,2]");
}

TEST(Compare, DtypeMismatchIsReported) {
  HostTensor L = HostTensor::ints(DType::I64, {1}, {1});
  Comparison C = compareValues(L, f32({1}, {1}), {});
  EXPECT_EQ(C.Reason, "dtype i64, expected f32");
}

TEST(Compare, IntegersAreExactAndIndexIsMultiDimensional) {
  HostTensor A = HostTensor::ints(DType::I32, {2, 2}, {1, 2, 3, 4});
  HostTensor B = HostTensor::ints(DType::I32, {2, 2}, {1, 2, 3, 5});
  EXPECT_EQ(compareValues(A, B, {}).Reason, "element [1,1] is 4, expected 5");
}

TEST(Compare, TrialsCompareOutputCountsAndExceptions) {
  TrialOutputs A, B;
  A.Ok = B.Ok = true;
  A.Values = {f32({1}, {1}), f32({1}, {2})};
  B.Values = {f32({1}, {1}), f32({1}, {3})};
  EXPECT_EQ(compareTrial(A, B, {}).Reason, "output 1: element [0] is 2, expected 3");
  B.Values.pop_back();
  EXPECT_EQ(compareTrial(A, B, {}).Reason, "2 outputs, expected 1");
  A.Ok = false;
  A.Error = "boom";
  EXPECT_EQ(compareTrial(A, B, {}).Reason, "raised 'boom'");
}

TrialGradients gradients(std::vector<std::pair<std::string, HostTensor>> Gs) {
  TrialGradients T;
  T.Ok = true;
  for (auto &[Target, Value] : Gs)
    T.Gradients.push_back({Target, Value});
  return T;
}

TEST(Compare, NaNGradientOnOneSideIsTheDoubleWhereMismatch) {
  TrialGradients Orig = gradients({{"input 'x'", f32({3}, {0.5, 1, 1})}, {"parameter 'w'", f32({1}, {2})}});
  TrialGradients Rew = gradients({{"input 'x'", f32({3}, {0.5, NaN, 1})}, {"parameter 'w'", f32({1}, {2})}});
  Comparison C = compareGradientTrial(Rew, Orig, {});
  EXPECT_FALSE(C.Equal);
  EXPECT_EQ(C.Reason, "the gradient w.r.t. input 'x': element [1] is nan, expected 1");
  // NaN on both sides is equal, as for outputs.
  Orig.Gradients[0].Value = f32({3}, {0.5, NaN, 1});
  EXPECT_TRUE(compareGradientTrial(Rew, Orig, {}).Equal);
  Rew.Gradients[1].Value = f32({1}, {2.5});
  EXPECT_EQ(compareGradientTrial(Rew, Orig, {}).Reason, "the gradient w.r.t. parameter 'w': element [0] is 2.5, expected 2");
}

TEST(Compare, GradientTargetsAndExceptions) {
  TrialGradients Orig = gradients({{"input 'x'", f32({1}, {1})}, {"parameter 'w'", f32({1}, {2})}});
  TrialGradients Rew = gradients({{"input 'x'", f32({1}, {1})}});
  EXPECT_EQ(compareGradientTrial(Rew, Orig, {}).Reason, "no gradient w.r.t. parameter 'w'");
  Rew = gradients({{"input 'x'", f32({1}, {1})}, {"parameter 'v'", f32({1}, {2})}});
  EXPECT_EQ(compareGradientTrial(Rew, Orig, {}).Reason,
            "a gradient w.r.t. parameter 'v', expected one w.r.t. parameter 'w'");
  Rew.Ok = false;
  Rew.Error = "the derivative for 'floor_divide' is not implemented.";
  EXPECT_EQ(compareGradientTrial(Rew, Orig, {}).Reason, "raised 'the derivative for 'floor_divide' is not implemented.'");
}

} // namespace
