// Front-ends of the reductions (sum, mean, prod, amax/amin, max/min with indices, any/all), the
// cumulative sum, and the comparisons that reduce to one bool (equal, allclose). A reduction's
// kernel accumulates through a view of its output with the input's shape and stride 0 on the
// reduced dims (`reduce` below), which is why ops.def marks these ops `writes_broadcast`.
#include "OpsCommon.h"

#include <algorithm>

namespace gfy {
using namespace detail;

// --- reductions ------------------------------------------------------------------------------

namespace {

std::vector<bool> reduce_mask(const Tensor &a, IntArrayRef dims) {
  const int64_t nd = a.dim();
  std::vector<bool> mask(size_t(std::max<int64_t>(nd, 0)), dims.empty());
  for (int64_t d : dims) {
    const int64_t w = maybe_wrap_dim(d, nd);
    if (nd == 0) continue;
    GFY_CHECK(!mask[w], "dim ", w, " appears multiple times in the list of dims");
    mask[w] = true;
  }
  return mask;
}

/// Allocates the reduced output and runs `op`: out[0] is a view of the output with the input's
/// shape and stride 0 on reduced dims (so the kernel accumulates through it), out[1] the output.
Tensor reduce(OpId op, const char *name, const Tensor &a, IntArrayRef dims, bool keepdim, ScalarType in_t,
              ScalarType out_t, bool needs_nonempty) {
  check_defined(a, "self");
  const auto mask = reduce_mask(a, dims);
  std::vector<int64_t> keep, fin;
  int64_t count = 1;
  for (size_t i = 0; i < mask.size(); ++i) {
    if (mask[i]) {
      GFY_CHECK(!needs_nonempty || a.size(int64_t(i)) != 0, name, "(): Expected reduction dim ", int64_t(i),
                " to have non-zero size.");
      count *= a.size(int64_t(i));
      keep.push_back(1);
      if (keepdim) fin.push_back(1);
    } else {
      keep.push_back(a.size(int64_t(i)));
      fin.push_back(a.size(int64_t(i)));
    }
  }
  GFY_CHECK(!needs_nonempty || a.numel() != 0 || !mask.empty(), name,
            "(): Expected reduction dim to be specified for input.numel() == 0.");
  Tensor out = make_tensor(fin, out_t, a.device());
  auto ks = contiguous_strides(keep);
  for (size_t i = 0; i < mask.size(); ++i)
    if (mask[i]) ks[i] = 0;
  Tensor acc = make_view(out, a.sizes().vec(), ks, 0);
  OpCall c;
  c.op = op;
  c.in = {cast(a, in_t)};
  c.out = {acc, out};
  c.alpha = double(count);
  run(std::move(c), in_t);
  return out;
}

ScalarType sum_type(const Tensor &a, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  if (dtype) return *dtype;
  return isIntegralType(a.scalar_type(), true) ? kLong : a.scalar_type();
}

ScalarType mean_type(const Tensor &a, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  const ScalarType t = dtype.value_or(a.scalar_type());
  GFY_CHECK(isFloatingType(t), "mean(): could not infer output dtype. ",
            dtype ? "Optional" : "Input", " dtype must be either a floating point or complex dtype. Got: ", to_string(t));
  return t;
}

std::tuple<Tensor, Tensor> max_min_dim(OpId op, const char *name, const Tensor &a, int64_t dim, bool keepdim) {
  check_defined(a, "self");
  const int64_t nd = a.dim();
  dim = maybe_wrap_dim(dim, nd);
  Tensor in = a.contiguous();
  const int64_t n = nd == 0 ? 1 : a.size(dim);
  GFY_CHECK(n != 0, name, "(): Expected reduction dim ", dim, " to have non-zero size.");
  std::vector<int64_t> shape;
  for (int64_t i = 0; i < nd; ++i) {
    if (i != dim) shape.push_back(a.size(i));
    else if (keepdim) shape.push_back(1);
  }
  Tensor vals = make_tensor(shape, a.scalar_type(), a.device());
  Tensor idx = make_tensor(shape, kLong, a.device());
  OpCall c;
  c.op = op;
  c.in = {in};
  c.out = {vals, idx};
  c.dim = nd == 0 ? 0 : dim;
  run(std::move(c), a.scalar_type());
  return {vals, idx};
}

} // namespace

Tensor sum(const Tensor &a, std::optional<ScalarType> dtype) {
  const ScalarType t = sum_type(a, dtype);
  return reduce(OpId::sum, "sum", a, {}, false, t, t, false);
}
Tensor sum(const Tensor &a, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  const ScalarType t = sum_type(a, dtype);
  return reduce(OpId::sum, "sum", a, dim, keepdim, t, t, false);
}
Tensor mean(const Tensor &a, std::optional<ScalarType> dtype) {
  const ScalarType t = mean_type(a, dtype);
  return reduce(OpId::mean, "mean", a, {}, false, t, t, false);
}
Tensor mean(const Tensor &a, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  const ScalarType t = mean_type(a, dtype);
  return reduce(OpId::mean, "mean", a, dim, keepdim, t, t, false);
}
Tensor prod(const Tensor &a, std::optional<ScalarType> dtype) {
  const ScalarType t = sum_type(a, dtype);
  return reduce(OpId::prod, "prod", a, {}, false, t, t, false);
}
Tensor prod(const Tensor &a, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  const ScalarType t = sum_type(a, dtype);
  return reduce(OpId::prod, "prod", a, IntArrayRef(dim), keepdim, t, t, false);
}
Tensor amax(const Tensor &a, IntArrayRef dim, bool keepdim) {
  check_defined(a, "self");
  return reduce(OpId::amax, "amax", a, dim, keepdim, a.scalar_type(), a.scalar_type(), true);
}
Tensor amin(const Tensor &a, IntArrayRef dim, bool keepdim) {
  check_defined(a, "self");
  return reduce(OpId::amin, "amin", a, dim, keepdim, a.scalar_type(), a.scalar_type(), true);
}
Tensor max(const Tensor &a) {
  check_defined(a, "self");
  GFY_CHECK(a.numel() > 0, "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                           "reduction dim with the 'dim' argument.");
  return amax(a);
}
Tensor min(const Tensor &a) {
  check_defined(a, "self");
  GFY_CHECK(a.numel() > 0, "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                           "reduction dim with the 'dim' argument.");
  return amin(a);
}
std::tuple<Tensor, Tensor> max(const Tensor &a, int64_t dim, bool keepdim) {
  return max_min_dim(OpId::max_dim, "max", a, dim, keepdim);
}
std::tuple<Tensor, Tensor> min(const Tensor &a, int64_t dim, bool keepdim) {
  return max_min_dim(OpId::min_dim, "min", a, dim, keepdim);
}
Tensor argmax(const Tensor &a, std::optional<int64_t> dim, bool keepdim) {
  check_defined(a, "self");
  if (!dim) {
    GFY_CHECK(a.numel() > 0, "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
    Tensor r = std::get<1>(max_min_dim(OpId::max_dim, "argmax", a.reshape({-1}), 0, false));
    return keepdim ? r.view(std::vector<int64_t>(size_t(a.dim()), 1)) : r;
  }
  return std::get<1>(max_min_dim(OpId::max_dim, "argmax", a, *dim, keepdim));
}
Tensor argmin(const Tensor &a, std::optional<int64_t> dim, bool keepdim) {
  check_defined(a, "self");
  if (!dim) {
    GFY_CHECK(a.numel() > 0, "argmin(): Expected reduction dim to be specified for input.numel() == 0.");
    Tensor r = std::get<1>(max_min_dim(OpId::min_dim, "argmin", a.reshape({-1}), 0, false));
    return keepdim ? r.view(std::vector<int64_t>(size_t(a.dim()), 1)) : r;
  }
  return std::get<1>(max_min_dim(OpId::min_dim, "argmin", a, *dim, keepdim));
}
namespace {
/// any and all give bool, except for a uint8 input, where LibTorch keeps uint8 (its old mask type).
Tensor as_mask_dtype_of(const Tensor &a, Tensor r) { return a.scalar_type() == kByte ? r.to(kByte) : r; }
} // namespace

Tensor any(const Tensor &a) {
  check_defined(a, "self");
  return as_mask_dtype_of(a, reduce(OpId::any, "any", a, {}, false, a.scalar_type(), kBool, false));
}
Tensor any(const Tensor &a, int64_t dim, bool keepdim) {
  check_defined(a, "self");
  return as_mask_dtype_of(a, reduce(OpId::any, "any", a, IntArrayRef(dim), keepdim, a.scalar_type(), kBool, false));
}
Tensor all(const Tensor &a) {
  check_defined(a, "self");
  return as_mask_dtype_of(a, reduce(OpId::all, "all", a, {}, false, a.scalar_type(), kBool, false));
}
Tensor all(const Tensor &a, int64_t dim, bool keepdim) {
  check_defined(a, "self");
  return as_mask_dtype_of(a, reduce(OpId::all, "all", a, IntArrayRef(dim), keepdim, a.scalar_type(), kBool, false));
}

Tensor cumsum(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  return along_dim(OpId::cumsum, a, dim, sum_type(a, dtype));
}

// --- comparisons reduced to one bool -------------------------------------------------------------

bool equal(const Tensor &a, const Tensor &b, SL loc) {
  check_defined(a, "self");
  check_defined(b, "other");
  on_host_read("equal()", loc);
  if (a.sizes() != b.sizes()) return false;
  Tensor r = gfy::all(gfy::eq(a, b));
  return read_scalar(*(r.is_cpu() ? r : r.to(Device(kCPU), r.scalar_type(), false, false, loc)).unsafeGetTensorImpl(), 0).toBool();
}

Tensor isclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equal_nan) {
  check_defined(a, "self");
  check_defined(b, "other");
  GFY_CHECK(a.scalar_type() == b.scalar_type(), a.scalar_type(), " did not match ", b.scalar_type());
  GFY_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  GFY_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);
  Tensor close = gfy::eq(a, b);
  if (equal_nan) close = gfy::logical_or(close, gfy::logical_and(gfy::isnan(a), gfy::isnan(b)));
  if (isFloatingType(a.scalar_type())) {
    Tensor diff = gfy::abs(a - b);
    close = gfy::logical_or(close, gfy::le(diff, atol + rtol * gfy::abs(b)));
  }
  return close;
}

bool allclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equal_nan, SL loc) {
  on_host_read("allclose()", loc);
  Tensor r = gfy::all(isclose(a, b, rtol, atol, equal_nan));
  return read_scalar(*(r.is_cpu() ? r : r.to(Device(kCPU), r.scalar_type(), false, false, loc)).unsafeGetTensorImpl(), 0).toBool();
}

// As LibTorch's CPU count_nonzero: a sum of the comparison with zero.
Tensor count_nonzero(const Tensor &a, IntArrayRef dim) {
  check_defined(a, "self");
  return a.ne(0).sum(dim);
}
Tensor count_nonzero(const Tensor &a, std::optional<int64_t> dim) {
  check_defined(a, "self");
  return dim ? a.ne(0).sum(IntArrayRef{*dim}) : a.ne(0).sum();
}

} // namespace gfy
