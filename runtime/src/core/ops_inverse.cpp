// The matrix inverse (torch::linalg_inv, torch::linalg::inv, torch::inverse): Gauss-Jordan
// elimination with partial pivoting in double on the host, per matrix of the batch. LibTorch
// factors with LAPACK's getrf (the same pivoting), so a singular matrix is refused at the same
// diagonal element with LibTorch's message. Gradients through the inverse are not supported:
// an input that requires grad is refused rather than given a result autograd cannot follow.
#include "OpsCommon.h"

#include <graphify/autograd/GradMode.h>
#include <graphify/core/Functions.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace gfy {
using namespace detail;

namespace {

/// Inverts the n x n row-major matrix `a` into `inv`; returns 0, or the 1-based index of the
/// first zero pivot (LAPACK's info) when the matrix is singular.
int64_t gauss_jordan(std::vector<double> a, int64_t n, double *inv) {
  for (int64_t i = 0; i < n * n; ++i) inv[i] = (i / n == i % n) ? 1.0 : 0.0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t pivot = k;
    for (int64_t r = k + 1; r < n; ++r)
      if (std::abs(a[size_t(r * n + k)]) > std::abs(a[size_t(pivot * n + k)])) pivot = r;
    if (a[size_t(pivot * n + k)] == 0.0) return k + 1;
    if (pivot != k)
      for (int64_t c = 0; c < n; ++c) {
        std::swap(a[size_t(k * n + c)], a[size_t(pivot * n + c)]);
        std::swap(inv[k * n + c], inv[pivot * n + c]);
      }
    const double p = a[size_t(k * n + k)];
    for (int64_t c = 0; c < n; ++c) {
      a[size_t(k * n + c)] /= p;
      inv[k * n + c] /= p;
    }
    for (int64_t r = 0; r < n; ++r) {
      if (r == k) continue;
      const double f = a[size_t(r * n + k)];
      if (f == 0.0) continue;
      for (int64_t c = 0; c < n; ++c) {
        a[size_t(r * n + c)] -= f * a[size_t(k * n + c)];
        inv[r * n + c] -= f * inv[k * n + c];
      }
    }
  }
  return 0;
}

} // namespace

Tensor linalg_inv(const Tensor &a, SL loc) {
  check_defined(a, "A");
  on_host_read("linalg_inv()", loc);
  GFY_CHECK(a.dim() >= 2, "linalg.inv: The input tensor A must have at least 2 dimensions.");
  const int64_t n = a.size(-1);
  GFY_CHECK(a.size(-2) == n, "linalg.inv: A must be batches of square matrices, but they are ", a.size(-2), " by ",
            n, " matrices");
  GFY_CHECK(a.is_floating_point(), "linalg.inv: Expected a floating point or complex tensor as input. Got ",
            to_string(a.scalar_type()));
  GFY_CHECK(!(GradMode::is_enabled() && a.requires_grad()),
            "linalg.inv: gradients through the inverse are not supported by graphify's runtime "
            "(docs/compat.md, \"Known differences\"); compute it under torch::NoGradGuard");
  Tensor host = a.to(TensorOptions(kDouble).device(kCPU)).contiguous();
  Tensor out = empty(a.sizes(), kDouble);
  const int64_t batch = n == 0 ? 0 : a.numel() / (n * n);
  const double *src = host.data_ptr<double>();
  double *dst = out.data_ptr<double>();
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> m(src + b * n * n, src + (b + 1) * n * n);
    const int64_t info = gauss_jordan(std::move(m), n, dst + b * n * n);
    GFY_CHECK(info == 0, "linalg.inv: ", a.dim() > 2 ? "(Batch element " + std::to_string(b) + "): " : "",
              "The diagonal element ", info,
              " is zero, the inversion could not be completed because the input matrix is singular.");
  }
  return out.to(TensorOptions(a.scalar_type()).device(a.device()));
}
Tensor inverse(const Tensor &a, SL loc) { return linalg_inv(a, loc); }

} // namespace gfy
