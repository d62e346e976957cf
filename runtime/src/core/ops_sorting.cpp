// Front-ends of sort, argsort and topk: values and long indices along one dim of a contiguous
// input.
#include "OpsCommon.h"

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

// --- Tensor methods ------------------------------------------------------------------------------

std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool desc) const { return gfy::sort(*this, dim, desc); }
std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> stable, int64_t dim, bool desc) const {
  return gfy::sort(*this, stable, dim, desc);
}
Tensor Tensor::argsort(int64_t dim, bool desc) const { return gfy::argsort(*this, dim, desc); }
Tensor Tensor::argsort(bool stable, int64_t dim, bool desc) const { return gfy::argsort(*this, stable, dim, desc); }
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool sorted) const {
  return gfy::topk(*this, k, dim, largest, sorted);
}
std::tuple<Tensor, Tensor> Tensor::kthvalue(int64_t k, int64_t dim, bool keepdim) const {
  return gfy::kthvalue(*this, k, dim, keepdim);
}

} // namespace gfy
