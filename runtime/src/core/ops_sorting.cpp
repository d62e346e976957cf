// Front-ends of sort, argsort and topk: values and long indices along one dim of a contiguous
// input.
#include "OpsCommon.h"

#include <limits>

namespace gfy {
using namespace detail;

std::tuple<Tensor, Tensor> sort(const Tensor &a, std::optional<bool> stable, int64_t dim, bool descending) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  Tensor x = a.contiguous();
  Tensor vals = make_tensor(x.sizes(), x.scalar_type(), x.device());
  Tensor idx = make_tensor(x.sizes(), kLong, x.device());
  OpCall c;
  c.op = OpId::sort;
  c.in = {x};
  c.out = {vals, idx};
  c.dim = x.dim() == 0 ? 0 : dim;
  c.flag = stable.value_or(false);
  c.flag2 = descending;
  run(std::move(c), x.scalar_type());
  return {vals, idx};
}
std::tuple<Tensor, Tensor> sort(const Tensor &a, int64_t dim, bool descending) { return sort(a, false, dim, descending); }
Tensor argsort(const Tensor &a, int64_t dim, bool descending) { return std::get<1>(sort(a, false, dim, descending)); }
Tensor argsort(const Tensor &a, bool stable, int64_t dim, bool descending) {
  return std::get<1>(sort(a, stable, dim, descending));
}

std::tuple<Tensor, Tensor> topk(const Tensor &a, int64_t k, int64_t dim, bool largest, bool sorted) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  const int64_t n = a.dim() == 0 ? 1 : a.size(dim);
  GFY_CHECK(k >= 0 && k <= n, "selected index k out of range");
  Tensor x = a.contiguous();
  std::vector<int64_t> shape = x.sizes().vec();
  if (!shape.empty()) shape[dim] = k;
  Tensor vals = make_tensor(shape, x.scalar_type(), x.device());
  Tensor idx = make_tensor(shape, kLong, x.device());
  OpCall c;
  c.op = OpId::topk;
  c.in = {x};
  c.out = {vals, idx};
  c.dim = x.dim() == 0 ? 0 : dim;
  // A 0-d tensor has its one element whatever k (0 or 1) says, as in LibTorch; with k = 0 the
  // kernel would select nothing and leave the output unwritten.
  c.k = x.dim() == 0 ? 1 : k;
  c.flag = largest;
  c.flag2 = sorted;
  run(std::move(c), x.scalar_type());
  return {vals, idx};
}

// kthvalue is a stable ascending sort followed by a select: among equal values the first in
// input order is the one reported, which LibTorch's selection kernel also gives for the inputs it
// is tested on (it promises no particular index for ties).
std::tuple<Tensor, Tensor> kthvalue(const Tensor &a, int64_t k, int64_t dim, bool keepdim) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  const int64_t n = a.dim() == 0 ? 1 : a.size(dim);
  GFY_CHECK(k >= 1 && k <= n, "kthvalue(): selected number k out of range for dimension ", dim);
  if (a.dim() == 0) return {a.clone(), zeros({}, kLong)};
  auto [values, indices] = sort(a, /*stable=*/true, dim, /*descending=*/false);
  Tensor v = values.narrow(dim, k - 1, 1), i = indices.narrow(dim, k - 1, 1);
  if (!keepdim) {
    v = v.squeeze(dim);
    i = i.squeeze(dim);
  }
  return {v.contiguous(), i.contiguous()};
}

// median is kthvalue's stable sort too: the lower median sits at (n - 1) / 2 of each sorted
// lane. A lane holding NaN has the NaN as its median, with the index of its first NaN (LibTorch's
// CPU kernel); the sort puts NaNs last in input order, so that is position n - #NaN. Positions
// are tensors, never host reads, so a captured graph can hold a median.
std::tuple<Tensor, Tensor> median(const Tensor &a, int64_t dim, bool keepdim) {
  check_defined(a, "self");
  GFY_CHECK(a.scalar_type() != kBool, "\"median_out\" not implemented for 'Bool'");
  dim = maybe_wrap_dim(dim, a.dim());
  if (a.dim() == 0) return {a.clone(), zeros({}, TensorOptions(kLong).device(a.device()))};
  const int64_t n = a.size(dim);
  GFY_CHECK(n > 0, "median(): Expected reduction dim ", dim, " to have non-zero size.");
  auto [values, indices] = sort(a, /*stable=*/true, dim, /*descending=*/false);
  Tensor v, i;
  if (a.is_floating_point()) {
    const Tensor nans = gfy::isnan(a).sum({dim}, /*keepdim=*/true);
    const Tensor pos = where(nans > 0, n - nans, full_like(nans, (n - 1) / 2));
    v = values.gather(dim, pos);
    i = indices.gather(dim, pos);
  } else {
    v = values.narrow(dim, (n - 1) / 2, 1);
    i = indices.narrow(dim, (n - 1) / 2, 1);
  }
  if (!keepdim) {
    v = v.squeeze(dim);
    i = i.squeeze(dim);
  }
  return {v.contiguous(), i.contiguous()};
}

// The median of all elements. Its gradient, as LibTorch's, is shared evenly among the elements
// equal to the median (among the NaNs when it is NaN), not given to the one a sort picked:
// v + sum(where(tied, x - v, 0)) / #tied is v exactly and has that derivative.
Tensor median(const Tensor &a) {
  check_defined(a, "self");
  GFY_CHECK(a.scalar_type() != kBool, "\"", kernel_name("median", a.device()), "\" not implemented for 'Bool'");
  if (a.numel() == 0) {
    GFY_CHECK(a.is_floating_point(), "median() of an empty ", to_string(a.scalar_type()),
              " tensor: LibTorch converts NaN to an integer here, which has no defined value");
    return full({}, std::numeric_limits<double>::quiet_NaN(), a.options());
  }
  const Tensor v = std::get<0>(median(a.reshape({-1}), 0));
  if (!(a.requires_grad() && GradMode::is_enabled())) return v;
  const Tensor vd = v.detach();
  const Tensor tied = logical_or(a == vd, logical_and(gfy::isnan(a), gfy::isnan(vd)));
  return vd + where(tied, a - vd, zeros_like(a)).sum() / tied.sum();
}

} // namespace gfy
