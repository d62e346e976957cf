#pragma once
// Helpers of the CUDA suites: the skip guard every GPU test starts with, and the comparison of a
// CUDA result with the CPU reference (same shape and dtype, values within a tolerance, NaN equal
// to NaN).
#include <graphify/cuda/Cuda.h>
#include <graphify/graphify.h>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

/// Skips the current test unless a CUDA device is present and the backend registered.
#define GFY_REQUIRE_CUDA()                                                                         \
  do {                                                                                             \
    if (::gfy::cuda::device_count() == 0 || !::gfy::cuda::is_available())                         \
      GTEST_SKIP() << "no CUDA device";                                                            \
  } while (0)

namespace gfy::cuda_testing {

/// Elements in row-major order as double (through the host; synchronises).
inline std::vector<double> host_values(const Tensor &t) {
  Tensor c = t.cpu().to(kDouble).contiguous();
  const double *p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

/// EXPECTs that `cuda` (a CUDA result) equals `cpu` (the reference) within `tol` (relative to
/// the magnitude, absolute near zero); integer and bool results must match exactly (tol 0).
inline void expect_same(const Tensor &cpu, const Tensor &cuda, double tol, const std::string &what) {
  ASSERT_TRUE(cpu.defined() && cuda.defined()) << what;
  EXPECT_TRUE(cuda.is_cuda()) << what << ": result is on " << cuda.device().str();
  ASSERT_EQ(cpu.sizes().vec(), cuda.sizes().vec()) << what;
  ASSERT_EQ(cpu.scalar_type(), cuda.scalar_type()) << what;
  const auto a = host_values(cpu), b = host_values(cuda);
  const bool exact = !isFloatingType(cpu.scalar_type());
  int reported = 0;
  for (size_t i = 0; i < a.size() && reported < 5; ++i) {
    const bool both_nan = std::isnan(a[i]) && std::isnan(b[i]);
    const bool ok = both_nan || (exact ? a[i] == b[i] : std::fabs(a[i] - b[i]) <= tol * (1.0 + std::fabs(a[i])));
    if (!ok) {
      ADD_FAILURE() << what << ": element " << i << " is " << b[i] << " on CUDA, " << a[i] << " on CPU";
      ++reported;
    }
  }
}

} // namespace gfy::cuda_testing
