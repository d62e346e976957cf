#pragma once
// Small helpers shared by the runtime suites: read a tensor back as std::vector for comparisons.
#include <graphify/graphify.h>

#include <gtest/gtest.h>

#include <vector>

namespace gfy::testing {

/// All elements in row-major order, converted to double.
inline std::vector<double> values(const Tensor &t) {
  Tensor c = t.to(kDouble).contiguous();
  const double *p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}
inline std::vector<int64_t> longs(const Tensor &t) {
  Tensor c = t.to(kLong).contiguous();
  const int64_t *p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}
inline std::vector<int64_t> shape(const Tensor &t) { return t.sizes().vec(); }

#define EXPECT_VALUES(t, ...) EXPECT_EQ(::gfy::testing::values(t), (std::vector<double>__VA_ARGS__))
#define EXPECT_LONGS(t, ...) EXPECT_EQ(::gfy::testing::longs(t), (std::vector<int64_t>__VA_ARGS__))
#define EXPECT_SHAPE(t, ...) EXPECT_EQ(::gfy::testing::shape(t), (std::vector<int64_t>__VA_ARGS__))

inline void expect_near(const Tensor &a, const std::vector<double> &b, double tol = 1e-5) {
  auto v = values(a);
  ASSERT_EQ(v.size(), b.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], b[i], tol) << "at element " << i;
}

} // namespace gfy::testing
