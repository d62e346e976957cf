// cummax and cummin: the running maximum (minimum) along a dim and the index it came from. Built
// from front-end ops, one select/compare/where per step along `dim`, so they run on every backend
// and record into a graph like their parts; the steps are as many as the dim is long, which suits
// the short dims (boxes per anchor, tokens of a window) they are used on.
//
// LibTorch's rule (cummax_cummin_helper): step t replaces the running value when x_t is NaN or
// x_t >= it (<= for cummin), so ties take the later index and a NaN, once met, stays (a NaN running
// value compares false, and only a later NaN replaces it). The values are gathered from the input
// at the indices, so their gradient is gather's: the output's gradient added at each index, as
// LibTorch's cummaxmin_backward.
#include "OpsCommon.h"

namespace gfy {
using detail::check_defined;
using detail::maybe_wrap_dim;

namespace {

/// The indices of the running extremum of `a` along `dim`, a long tensor of a's shape.
Tensor running_extremum_indices(const Tensor &a, int64_t dim, bool is_max) {
  const int64_t n = a.size(dim);
  if (n == 0) return empty(a.sizes(), TensorOptions().dtype(kLong).device(a.device()));
  const bool has_nan = isFloatingType(a.scalar_type());
  Tensor best = a.select(dim, 0);
  Tensor at = zeros(best.sizes(), TensorOptions().dtype(kLong).device(a.device()));
  std::vector<Tensor> steps{at};
  steps.reserve(size_t(n));
  for (int64_t t = 1; t < n; ++t) {
    const Tensor x = a.select(dim, t);
    Tensor take = is_max ? x.ge(best) : x.le(best);
    if (has_nan) take = take.logical_or(x.isnan());
    best = where(take, x, best);
    at = at.masked_fill(take, t);
    steps.push_back(at);
  }
  return stack(steps, dim);
}

std::tuple<Tensor, Tensor> cumulative_extremum(const Tensor &a, int64_t dim, bool is_max) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  if (a.dim() == 0) return {a.clone(), zeros({}, TensorOptions().dtype(kLong).device(a.device()))};
  Tensor indices;
  {
    NoGradGuard no_grad; // the indices are integers; the values below carry the gradient
    indices = running_extremum_indices(a, dim, is_max);
  }
  return {a.gather(dim, indices), indices};
}

} // namespace

std::tuple<Tensor, Tensor> cummax(const Tensor &a, int64_t dim) { return cumulative_extremum(a, dim, true); }
std::tuple<Tensor, Tensor> cummin(const Tensor &a, int64_t dim) { return cumulative_extremum(a, dim, false); }

} // namespace gfy
