// cdist: p-norm distances between two sets of row vectors, as a broadcast difference reduced
// over the feature dim. The norm's root has an infinite derivative at 0, so zero distances are
// computed through a guard (gradient 0 there, LibTorch's value) instead of leaking NaN.
#include "OpsCommon.h"

#include <cmath>
#include <limits>

namespace gfy {
using namespace detail;

Tensor cdist(const Tensor &x1, const Tensor &x2, double p, std::optional<int64_t> compute_mode) {
  check_defined(x1, "x1");
  check_defined(x2, "x2");
  GFY_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  GFY_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  GFY_CHECK(x1.size(-1) == x2.size(-1), "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
            " X2: ", x2.size(-1));
  GFY_CHECK(x1.is_floating_point() && x2.is_floating_point(), "cdist only supports floating-point dtypes, X1 got: ",
            to_string(x1.scalar_type()));
  GFY_CHECK(p >= 0, "cdist only supports non-negative p values");
  GFY_CHECK(!compute_mode || (*compute_mode >= 0 && *compute_mode <= 2), "possible modes: None, 0, 1, 2, but was: ",
            *compute_mode);
  Tensor diff = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs(); // (…, P, R, M)
  if (p == 0) return (diff != 0).to(x1.scalar_type()).sum(-1);
  if (std::isinf(p)) return diff.amax(-1);
  if (p == 1) return diff.sum(-1);
  Tensor s = p == 2 ? (diff * diff).sum(-1) : diff.pow(p).sum(-1);
  Tensor positive = s > 0;
  Tensor root = p == 2 ? where(positive, s, 1).sqrt() : where(positive, s, 1).pow(1.0 / p);
  return where(positive, root, 0);
}

} // namespace gfy
