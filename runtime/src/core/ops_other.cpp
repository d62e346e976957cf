// Front-ends of reductions, linear algebra, joining/splitting, indexing and the nn functions.
// Ops whose output shape depends on tensor values (nonzero, boolean-mask indexing, ...) call
// detail::on_dynamic_shape first and are never recorded: a graph's buffers have static shapes.
#include "OpsCommon.h"

#include "../cpu/Loops.h"

#include <algorithm>
#include <numeric>

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
Tensor any(const Tensor &a) {
  check_defined(a, "self");
  return reduce(OpId::any, "any", a, {}, false, a.scalar_type(), kBool, false);
}
Tensor any(const Tensor &a, int64_t dim, bool keepdim) {
  check_defined(a, "self");
  return reduce(OpId::any, "any", a, IntArrayRef(dim), keepdim, a.scalar_type(), kBool, false);
}
Tensor all(const Tensor &a) {
  check_defined(a, "self");
  return reduce(OpId::all, "all", a, {}, false, a.scalar_type(), kBool, false);
}
Tensor all(const Tensor &a, int64_t dim, bool keepdim) {
  check_defined(a, "self");
  return reduce(OpId::all, "all", a, IntArrayRef(dim), keepdim, a.scalar_type(), kBool, false);
}

namespace {
/// Ops along one dim of a contiguous input (cumsum, softmax, sort, ...): out has `out_shape`.
Tensor along_dim(OpId op, const Tensor &in, int64_t dim, ScalarType t, OpCall c = {}) {
  Tensor x = cast(in, t).contiguous();
  Tensor out = make_tensor(x.sizes(), t, x.device());
  c.op = op;
  c.in.insert(c.in.begin(), x);
  c.out = {out};
  c.dim = x.dim() == 0 ? 0 : dim;
  run(std::move(c), t);
  return out;
}
} // namespace

Tensor cumsum(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  return along_dim(OpId::cumsum, a, dim, sum_type(a, dtype));
}
Tensor softmax(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  return along_dim(OpId::softmax, a, dim, dtype.value_or(a.scalar_type()));
}
Tensor log_softmax(const Tensor &a, int64_t dim, std::optional<ScalarType> dtype) {
  check_defined(a, "self");
  dim = maybe_wrap_dim(dim, a.dim());
  return along_dim(OpId::log_softmax, a, dim, dtype.value_or(a.scalar_type()));
}

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
  c.k = k;
  c.flag = largest;
  c.flag2 = sorted;
  run(std::move(c), x.scalar_type());
  return {vals, idx};
}

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

// --- linear algebra ---------------------------------------------------------------------------

namespace {

/// A matrix BLAS can read in place (possibly as a transpose), or a contiguous copy of it.
Tensor blas_operand(const Tensor &m) {
  bool trans;
  int64_t ld;
  const int64_t nd = m.dim();
  if (cpu::blas_layout(m.size(nd - 2), m.size(nd - 1), m.stride(nd - 2), m.stride(nd - 1), trans, ld)) return m;
  return m.contiguous();
}

void check_same_dtype(const Tensor &a, const Tensor &b, const char *) {
  GFY_CHECK(a.scalar_type() == b.scalar_type(), "expected scalar type ", to_string(a.scalar_type()), " but found ",
            to_string(b.scalar_type()));
}

Tensor mm_impl(const Tensor &a, const Tensor &b, const Tensor *bias, double beta, double alpha) {
  check_defined(a, "mat1");
  check_defined(b, "mat2");
  GFY_CHECK(a.dim() == 2, "self must be a matrix");
  GFY_CHECK(b.dim() == 2, "mat2 must be a matrix");
  GFY_CHECK(a.size(1) == b.size(0), "mat1 and mat2 shapes cannot be multiplied (", a.size(0), "x", a.size(1), " and ",
            b.size(0), "x", b.size(1), ")");
  check_same_dtype(a, b, "mat1 and mat2");
  GFY_CHECK(a.scalar_type() != kBool, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  const Device dev = common_device({&a, &b});
  Tensor out = make_tensor({a.size(0), b.size(1)}, a.scalar_type(), dev);
  OpCall c;
  c.op = OpId::mm;
  c.in = {blas_operand(a), blas_operand(b)};
  if (bias && bias->defined()) {
    common_device({&a, bias});
    c.in.push_back(cast(*bias, a.scalar_type()).expand(out.sizes()));
  }
  c.out = {out};
  c.alpha = alpha;
  c.beta = beta;
  run(std::move(c), a.scalar_type());
  return out;
}

} // namespace

Tensor mm(const Tensor &a, const Tensor &b) { return mm_impl(a, b, nullptr, 0, 1); }
Tensor addmm(const Tensor &self, const Tensor &m1, const Tensor &m2, const Scalar &beta, const Scalar &alpha) {
  check_defined(self, "self");
  return mm_impl(m1, m2, &self, beta.toDouble(), alpha.toDouble());
}

Tensor bmm(const Tensor &a, const Tensor &b) {
  check_defined(a, "self");
  check_defined(b, "mat2");
  GFY_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  GFY_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  GFY_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "Expected size for first two dimensions of batch2 tensor to be: [",
            a.size(0), ", ", a.size(2), "] but got: [", b.size(0), ", ", b.size(1), "].");
  check_same_dtype(a, b, "batch1 and batch2");
  GFY_CHECK(a.scalar_type() != kBool, "\"bmm\" not implemented for 'Bool'");
  const Device dev = common_device({&a, &b});
  Tensor out = make_tensor({a.size(0), a.size(1), b.size(2)}, a.scalar_type(), dev);
  OpCall c;
  c.op = OpId::mm;
  c.in = {blas_operand(a), blas_operand(b)};
  c.out = {out};
  c.alpha = 1;
  c.beta = 0;
  run(std::move(c), a.scalar_type());
  return out;
}

Tensor matmul(const Tensor &a, const Tensor &b) {
  check_defined(a, "self");
  check_defined(b, "other");
  const int64_t da = a.dim(), db = b.dim();
  GFY_CHECK(da > 0 && db > 0, "both arguments to matmul need to be at least 1D, but they are ", da, "D and ", db, "D");
  if (da == 1 && db == 1) {
    GFY_CHECK(a.size(0) == b.size(0), "inconsistent tensor size, expected tensor [", a.size(0), "] and src [", b.size(0),
              "] to have the same number of elements, but got ", a.size(0), " and ", b.size(0), " elements respectively");
    return mm(a.view({1, -1}), b.view({-1, 1})).view({});
  }
  if (da == 2 && db == 1) return mm(a, b.unsqueeze(1)).squeeze(1);
  if (da == 1 && db == 2) return mm(a.unsqueeze(0), b).squeeze(0);
  if (da == 2 && db == 2) return mm(a, b);
  if (da >= 3 && db <= 2) {
    // Fold the batch into the rows: one GEMM instead of a batch of small ones.
    Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
    std::vector<int64_t> shape(a.sizes().begin(), a.sizes().end() - 1);
    Tensor r = mm(a.reshape({-1, a.size(-1)}), b2);
    if (db == 2) shape.push_back(b.size(1));
    return r.view(shape);
  }
  // General batched case: broadcast the batch dims, then bmm.
  Tensor a2 = da == 1 ? a.unsqueeze(0) : a;
  Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
  std::vector<int64_t> ba(a2.sizes().begin(), a2.sizes().end() - 2), bb(b2.sizes().begin(), b2.sizes().end() - 2);
  std::vector<int64_t> batch = broadcast_shapes(ba, bb);
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  auto ea = batch, eb = batch;
  ea.push_back(a2.size(-2));
  ea.push_back(a2.size(-1));
  eb.push_back(b2.size(-2));
  eb.push_back(b2.size(-1));
  Tensor r = bmm(a2.expand(ea).reshape({nb, a2.size(-2), a2.size(-1)}), b2.expand(eb).reshape({nb, b2.size(-2), b2.size(-1)}));
  std::vector<int64_t> shape = batch;
  if (da > 1) shape.push_back(a2.size(-2));
  if (db > 1) shape.push_back(b2.size(-1));
  return r.view(shape);
}

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias) {
  check_defined(input, "input");
  check_defined(weight, "weight");
  GFY_CHECK(weight.dim() == 2, "linear(): weight must be 2-D, got ", weight.dim(), "-D");
  if (input.dim() == 2) return bias.defined() ? addmm(bias, input, weight.t()) : mm(input, weight.t());
  GFY_CHECK(input.dim() >= 1, "linear(): input must have at least one dimension");
  GFY_CHECK(input.size(-1) == weight.size(1), "mat1 and mat2 shapes cannot be multiplied (",
            input.numel() / std::max<int64_t>(input.size(-1), 1), "x", input.size(-1), " and ", weight.size(1), "x",
            weight.size(0), ")");
  std::vector<int64_t> shape(input.sizes().begin(), input.sizes().end() - 1);
  shape.push_back(weight.size(0));
  Tensor x2 = input.reshape({-1, input.size(-1)});
  Tensor r = bias.defined() ? addmm(bias, x2, weight.t()) : mm(x2, weight.t());
  return r.view(shape);
}

// --- joining and splitting ----------------------------------------------------------------------

Tensor cat(const std::vector<Tensor> &tensors, int64_t dim) {
  GFY_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  // LibTorch skips legacy empty 1-D tensors of shape [0].
  std::vector<const Tensor *> parts;
  for (auto &t : tensors) {
    check_defined(t, "tensors");
    if (!(t.dim() == 1 && t.size(0) == 0)) parts.push_back(&t);
  }
  if (parts.empty()) return tensors.front().clone();
  const Tensor &ref = *parts.front();
  GFY_CHECK(ref.dim() > 0, "zero-dimensional tensor (at position 0) cannot be concatenated");
  dim = maybe_wrap_dim(dim, ref.dim());
  ScalarType t = parts.front()->scalar_type();
  std::vector<int64_t> shape = ref.sizes().vec();
  int64_t total = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Tensor &p = *parts[i];
    GFY_CHECK(p.dim() == ref.dim(), "Tensors must have same number of dimensions: got ", ref.dim(), " and ", p.dim());
    for (int64_t d = 0; d < ref.dim(); ++d)
      GFY_CHECK(d == dim || p.size(d) == ref.size(d), "Sizes of tensors must match except in dimension ", dim,
                ". Expected size ", ref.size(d), " but got size ", p.size(d), " for tensor number ", int64_t(i),
                " in the list.");
    t = promote_types(t, p.scalar_type());
    total += p.size(dim);
    common_device({&ref, &p});
  }
  shape[dim] = total;
  Tensor out = make_tensor(shape, t, ref.device());
  int64_t off = 0;
  for (const Tensor *p : parts) {
    out.narrow(dim, off, p->size(dim)).copy_(*p);
    off += p->size(dim);
  }
  return out;
}

Tensor stack(const std::vector<Tensor> &tensors, int64_t dim) {
  GFY_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  check_defined(tensors[0], "tensors");
  for (size_t i = 1; i < tensors.size(); ++i) {
    check_defined(tensors[i], "tensors");
    GFY_CHECK(tensors[i].sizes() == tensors[0].sizes(), "stack expects each tensor to be equal size, but got ",
              tensors[0].sizes(), " at entry 0 and ", tensors[i].sizes(), " at entry ", int64_t(i));
  }
  dim = maybe_wrap_dim(dim, tensors[0].dim() + 1);
  std::vector<Tensor> us;
  for (auto &t : tensors) us.push_back(t.unsqueeze(dim));
  return cat(us, dim);
}

std::vector<Tensor> chunk(const Tensor &a, int64_t chunks, int64_t dim) { check_defined(a, "self"); return a.chunk(chunks, dim); }
std::vector<Tensor> split(const Tensor &a, int64_t s, int64_t dim) { check_defined(a, "self"); return a.split(s, dim); }
std::vector<Tensor> split(const Tensor &a, IntArrayRef s, int64_t dim) { check_defined(a, "self"); return a.split(s, dim); }
std::vector<Tensor> unbind(const Tensor &a, int64_t dim) { check_defined(a, "self"); return a.unbind(dim); }
Tensor slice(const Tensor &a, int64_t dim, std::optional<int64_t> s, std::optional<int64_t> e, int64_t step) {
  check_defined(a, "self");
  return a.slice(dim, s, e, step);
}
Tensor narrow(const Tensor &a, int64_t dim, int64_t s, int64_t l) { check_defined(a, "self"); return a.narrow(dim, s, l); }
Tensor select(const Tensor &a, int64_t dim, int64_t i) { check_defined(a, "self"); return a.select(dim, i); }
Tensor view(const Tensor &a, IntArrayRef s) { check_defined(a, "self"); return a.view(s); }
Tensor reshape(const Tensor &a, IntArrayRef s) { check_defined(a, "self"); return a.reshape(s); }
Tensor transpose(const Tensor &a, int64_t d0, int64_t d1) { check_defined(a, "self"); return a.transpose(d0, d1); }
Tensor t(const Tensor &a) { check_defined(a, "self"); return a.t(); }
Tensor permute(const Tensor &a, IntArrayRef dims) { check_defined(a, "self"); return a.permute(dims); }
Tensor contiguous(const Tensor &a) { check_defined(a, "self"); return a.contiguous(); }
Tensor expand(const Tensor &a, IntArrayRef s) { check_defined(a, "self"); return a.expand(s); }
Tensor squeeze(const Tensor &a) { check_defined(a, "self"); return a.squeeze(); }
Tensor squeeze(const Tensor &a, int64_t d) { check_defined(a, "self"); return a.squeeze(d); }
Tensor unsqueeze(const Tensor &a, int64_t d) { check_defined(a, "self"); return a.unsqueeze(d); }
Tensor flatten(const Tensor &a, int64_t s, int64_t e) { check_defined(a, "self"); return a.flatten(s, e); }
Tensor clone(const Tensor &a) { check_defined(a, "self"); return a.clone(); }

// --- indexing -----------------------------------------------------------------------------------

indexing::TensorIndex::TensorIndex(const char *s) : kind_(Kind::Ellipsis) {
  GFY_CHECK(s != nullptr && std::string(s) == "...", "Expected \"...\" to represent an ellipsis index, but got \"",
            s ? s : "(null)", "\"");
}

namespace {

/// Gather (or, with `values`, scatter) `src` at long index tensors placed on consecutive or
/// scattered dims, with LibTorch's advanced-indexing result layout.
Tensor advanced_index(const Tensor &src, std::vector<std::pair<int64_t, Tensor>> idx, const Tensor *values,
                      bool accumulate = false, bool embedding_message = false) {
  std::vector<int64_t> bshape;
  try {
    for (auto &[d, t] : idx) bshape = broadcast_shapes(bshape, t.sizes());
  } catch (const Error &) {
    std::string shapes;
    for (auto &[d, t] : idx) shapes += (shapes.empty() ? "" : ", ") + str_cat(t.sizes());
    throw Error("shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes);
  }
  bool adjacent = true;
  for (size_t i = 1; i < idx.size(); ++i) adjacent = adjacent && idx[i].first == idx[i - 1].first + 1;
  const int64_t nd = src.dim(), m = int64_t(idx.size());
  std::vector<int64_t> order;
  int64_t p = idx.front().first;
  if (!adjacent) {
    p = 0;
    for (auto &[d, t] : idx) order.push_back(d);
    for (int64_t d = 0; d < nd; ++d)
      if (std::none_of(idx.begin(), idx.end(), [d](auto &e) { return e.first == d; })) order.push_back(d);
  }
  Tensor s = adjacent ? src : src.permute(order);
  std::vector<int64_t> shape(s.sizes().begin(), s.sizes().begin() + p);
  shape.insert(shape.end(), bshape.begin(), bshape.end());
  shape.insert(shape.end(), s.sizes().begin() + p + m, s.sizes().end());
  OpCall c;
  c.k = p;
  c.dim = m;
  std::vector<Tensor> its;
  for (auto &[d, t] : idx) its.push_back(cast(t, kLong).expand(bshape).contiguous());
  if (!values) {
    Tensor out = make_tensor(shape, src.scalar_type(), src.device());
    c.op = OpId::index;
    c.flag2 = embedding_message;
    c.in = {s};
    c.in.insert(c.in.end(), its.begin(), its.end());
    c.out = {out};
    run(std::move(c), src.scalar_type());
    return out;
  }
  GFY_CHECK(values->scalar_type() == src.scalar_type(), "Index put requires the source and destination dtypes match, got ",
            to_string(src.scalar_type()), " for the destination and ", to_string(values->scalar_type()), " for the source.");
  Tensor v = *values;
  try {
    v = v.expand(shape).contiguous();
  } catch (const Error &) {
    throw Error(str_cat("shape mismatch: value tensor of shape ", values->sizes(),
                        " cannot be broadcast to indexing result of shape ", IntArrayRef(shape)));
  }
  c.op = OpId::index_put;
  c.flag = accumulate;
  c.in = {v};
  c.in.insert(c.in.end(), its.begin(), its.end());
  c.out = {s};
  run(std::move(c), src.scalar_type());
  return src;
}

struct Sliced {
  Tensor view;
  std::vector<std::pair<int64_t, Tensor>> tensors; ///< (dim in view, index tensor)
  bool has_bool_mask = false;
};

/// Applies basic indexing (ints, slices, None, Ellipsis, bools) as views and collects the tensor
/// indices with the view dimension each applies to.
Sliced apply_slicing(const Tensor &self, const std::vector<indexing::TensorIndex> &indices) {
  using K = indexing::TensorIndex::Kind;
  int64_t consumed = 0;
  int ellipses = 0;
  for (auto &i : indices) {
    switch (i.kind()) {
    case K::Integer: case K::Slice: consumed += 1; break;
    case K::Tensor:
      check_defined(i.tensor(), "indices");
      consumed += i.tensor().scalar_type() == kBool ? std::max<int64_t>(i.tensor().dim(), 0) : 1;
      break;
    case K::Ellipsis: ++ellipses; break;
    default: break;
    }
  }
  GFY_CHECK(ellipses <= 1, "an index can only have a single ellipsis ('...')");
  GFY_CHECK(consumed <= self.dim(), "too many indices for tensor of dimension ", self.dim());
  Sliced r;
  r.view = self;
  int64_t dim = 0, orig = 0;
  for (auto &i : indices) {
    switch (i.kind()) {
    case K::None: r.view = r.view.unsqueeze(dim); ++dim; break;
    case K::Ellipsis: dim += self.dim() - consumed; orig += self.dim() - consumed; break;
    case K::Integer: {
      const int64_t n = r.view.size(dim);
      GFY_CHECK(i.integer() >= -n && i.integer() < n, "index ", i.integer(), " is out of bounds for dimension ", orig,
                " with size ", n);
      r.view = r.view.select(dim, i.integer());
      ++orig;
      break;
    }
    case K::Slice: {
      const auto &s = i.slice();
      GFY_CHECK(s.step.value_or(1) > 0, "step must be greater than zero");
      r.view = r.view.slice(dim, s.start, s.stop, s.step.value_or(1));
      ++dim;
      ++orig;
      break;
    }
    case K::Boolean:
      r.view = r.view.unsqueeze(dim);
      if (!i.boolean()) r.view = r.view.narrow(dim, 0, 0);
      ++dim;
      break;
    case K::Tensor: {
      const Tensor &t = i.tensor();
      const ScalarType tt = t.scalar_type();
      GFY_CHECK(tt == kLong || tt == kBool, "tensors used as indices must be long, byte or bool tensors");
      if (tt == kBool) {
        r.has_bool_mask = true;
        Tensor mask = t;
        if (mask.dim() == 0) {
          r.view = r.view.unsqueeze(dim);
          mask = mask.view({1});
        }
        for (int64_t j = 0; j < mask.dim(); ++j)
          GFY_CHECK(mask.size(j) == r.view.size(dim + j), "The shape of the mask ", mask.sizes(), " at index ", j,
                    " does not match the shape of the indexed tensor ", r.view.sizes(), " at index ", dim + j);
        r.tensors.push_back({dim, mask});
        dim += mask.dim();
        orig += t.dim();
      } else {
        r.tensors.push_back({dim, t});
        ++dim;
        ++orig;
      }
      break;
    }
    }
  }
  return r;
}

/// Replaces boolean masks by their nonzero() coordinates (one long tensor per mask dim).
std::vector<std::pair<int64_t, Tensor>> expand_masks(const std::vector<std::pair<int64_t, Tensor>> &in) {
  std::vector<std::pair<int64_t, Tensor>> out;
  for (auto &[d, t] : in) {
    if (t.scalar_type() != kBool) {
      out.push_back({d, t});
      continue;
    }
    Tensor nz = nonzero(t);
    for (int64_t j = 0; j < t.dim(); ++j) out.push_back({d + j, nz.select(1, j)});
  }
  return out;
}

} // namespace

Tensor Tensor::index(const std::vector<indexing::TensorIndex> &indices, SL loc) const {
  check_defined(*this, "self");
  Sliced s = apply_slicing(*this, indices);
  if (s.tensors.empty()) return s.view;
  if (s.has_bool_mask) on_dynamic_shape("index() with a boolean mask", loc);
  return advanced_index(s.view, expand_masks(s.tensors), nullptr);
}
Tensor Tensor::index(std::initializer_list<indexing::TensorIndex> indices, SL loc) const {
  return index(std::vector<indexing::TensorIndex>(indices), loc);
}

Tensor &Tensor::index_put_(const std::vector<indexing::TensorIndex> &indices, const Tensor &value, bool accumulate,
                           SL loc) {
  check_defined(*this, "self");
  check_defined(value, "values");
  Sliced s = apply_slicing(*this, indices);
  if (s.tensors.empty()) {
    if (accumulate) s.view.add_(value);
    else s.view.copy_(value);
    return *this;
  }
  if (s.has_bool_mask) on_dynamic_shape("index_put_() with a boolean mask", loc);
  advanced_index(s.view, expand_masks(s.tensors), &value, accumulate);
  return *this;
}
Tensor &Tensor::index_put_(const std::vector<indexing::TensorIndex> &indices, const Scalar &value, SL loc) {
  check_defined(*this, "self");
  return index_put_(indices, scalar_to_tensor(value, scalar_type(), device()), false, loc);
}
Tensor &Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor &value, bool accumulate,
                           SL loc) {
  return index_put_(std::vector<indexing::TensorIndex>(indices), value, accumulate, loc);
}
Tensor &Tensor::index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar &value, SL loc) {
  return index_put_(std::vector<indexing::TensorIndex>(indices), value, loc);
}

Tensor index_select(const Tensor &a, int64_t dim, const Tensor &index) {
  check_defined(a, "self");
  check_defined(index, "index");
  GFY_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
            "index_select(): Expected dtype int32 or int64 for index");
  GFY_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  dim = maybe_wrap_dim(dim, a.dim());
  if (a.dim() == 0) return advanced_index(a.view({1}), {{0, index.reshape({-1})}}, nullptr).view(index.dim() == 0 ? IntArrayRef{} : IntArrayRef{index.numel()});
  return advanced_index(a, {{dim, index.reshape({-1})}}, nullptr);
}

Tensor embedding(const Tensor &weight, const Tensor &indices, int64_t, bool, bool) {
  check_defined(weight, "weight");
  check_defined(indices, "indices");
  GFY_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  GFY_CHECK(indices.scalar_type() == kLong || indices.scalar_type() == kInt,
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
            to_string(indices.scalar_type()), " instead (while checking arguments for embedding)");
  return advanced_index(weight, {{0, indices}}, nullptr, false, /*embedding_message=*/true);
}

namespace {
void check_gather_shapes(const Tensor &self, int64_t dim, const Tensor &index, const Tensor *src, const char *name) {
  GFY_CHECK(index.scalar_type() == kLong, name, "(): Expected dtype int64 for index");
  GFY_CHECK(index.dim() == self.dim() || (index.dim() <= 1 && self.dim() <= 1),
            "Index tensor must have the same number of dimensions as ", src ? "self tensor" : "input tensor");
  for (int64_t d = 0; d < index.dim(); ++d) {
    if (d != dim)
      GFY_CHECK(index.size(d) <= self.size(d), "Size does not match at dimension ", d, " expected index ", index.sizes(),
                " to be smaller than self ", self.sizes(), " apart from dimension ", dim);
    if (src)
      GFY_CHECK(index.size(d) <= src->size(d), "Expected index ", index.sizes(), " to be smaller than self ",
                self.sizes(), " apart from dimension ", dim, " and to be smaller size than src ", src->sizes());
  }
}
/// A view of `t` with `index`'s shape, t's strides and stride 0 on `dim` (the kernel adds
/// index * stride(dim) itself).
Tensor restride_for(const Tensor &t, int64_t dim, const Tensor &index) {
  std::vector<int64_t> st = t.strides().vec();
  if (st.empty()) st = {0};
  else st[dim] = 0;
  std::vector<int64_t> sz = index.sizes().vec();
  if (t.dim() == 0 && sz.empty()) st.clear();
  return make_view(t, sz, st, t.storage_offset());
}
} // namespace

Tensor gather(const Tensor &a, int64_t dim, const Tensor &index) {
  check_defined(a, "self");
  check_defined(index, "index");
  dim = maybe_wrap_dim(dim, a.dim());
  check_gather_shapes(a, dim, index, nullptr, "gather");
  Tensor out = make_tensor(index.sizes(), a.scalar_type(), a.device());
  OpCall c;
  c.op = OpId::gather;
  c.dim = dim;
  c.in = {restride_for(a, dim, index), index};
  c.out = {out};
  c.k = a.dim() == 0 ? 0 : a.stride(dim);
  c.ints = {a.dim() == 0 ? 1 : a.size(dim)};
  run(std::move(c), a.scalar_type());
  return out;
}

Tensor &Tensor::scatter_(int64_t dim, const Tensor &index, const Tensor &src) {
  check_defined(*this, "self");
  check_defined(index, "index");
  check_defined(src, "src");
  dim = maybe_wrap_dim(dim, this->dim());
  check_gather_shapes(*this, dim, index, &src, "scatter");
  GFY_CHECK(src.scalar_type() == scalar_type(), "scatter(): Expected self.dtype to be equal to src.dtype");
  Tensor s = src;
  for (int64_t d = 0; d < index.dim(); ++d) s = s.narrow(d, 0, index.size(d));
  OpCall c;
  c.op = OpId::scatter;
  c.dim = dim;
  c.in = {s, index};
  c.out = {restride_for(*this, dim, index)};
  c.k = this->dim() == 0 ? 0 : stride(dim);
  c.ints = {this->dim() == 0 ? 1 : size(dim)};
  run(std::move(c), scalar_type());
  return *this;
}
Tensor &Tensor::scatter_(int64_t dim, const Tensor &index, const Scalar &value) {
  check_defined(index, "index");
  return scatter_(dim, index, scalar_to_tensor(value, scalar_type(), device()).expand(index.sizes()));
}
Tensor scatter(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &src) {
  check_defined(a, "self");
  Tensor out = a.clone();
  return out.scatter_(dim, index, src);
}
Tensor scatter(const Tensor &a, int64_t dim, const Tensor &index, const Scalar &value) {
  check_defined(a, "self");
  Tensor out = a.clone();
  return out.scatter_(dim, index, value);
}

Tensor nonzero(const Tensor &a, SL loc) {
  check_defined(a, "self");
  on_dynamic_shape("nonzero()", loc);
  OpCall c;
  c.op = OpId::nonzero;
  c.in = {a};
  // Dynamic shape: the backend allocates the output; the call is never recorded (refused
  // above while capturing), so it is still ours after run().
  run(std::move(c), a.scalar_type());
  return c.out.at(0);
}

Tensor masked_select(const Tensor &a, const Tensor &mask, SL loc) {
  check_defined(a, "self");
  check_defined(mask, "mask");
  GFY_CHECK(mask.scalar_type() == kBool, "masked_select: expected BoolTensor for mask");
  on_dynamic_shape("masked_select()", loc);
  auto shape = broadcast_shapes(a.sizes(), mask.sizes());
  return a.expand(shape).index({mask.expand(shape)}, loc);
}

std::vector<Tensor> where(const Tensor &condition, SL loc) {
  check_defined(condition, "condition");
  on_dynamic_shape("where(condition)", loc);
  Tensor nz = nonzero(condition, loc);
  std::vector<Tensor> out;
  for (int64_t d = 0; d < condition.dim(); ++d) out.push_back(nz.select(1, d).contiguous());
  return out;
}

std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor &a, bool return_inverse, bool return_counts,
                                                      std::optional<int64_t> dim, SL loc) {
  check_defined(a, "self");
  GFY_CHECK(!dim.has_value() || a.dim() <= 1, "unique_consecutive: only dim=None (or a 1-D input) is supported");
  on_dynamic_shape("unique_consecutive()", loc);
  OpCall c;
  c.op = OpId::unique_consecutive;
  c.in = {a.contiguous()};
  run(std::move(c), a.scalar_type());
  Tensor inv = return_inverse ? c.out.at(1).view(a.sizes()) : make_tensor({0}, kLong, a.device());
  Tensor cnt = return_counts ? c.out.at(2) : make_tensor({0}, kLong, a.device());
  return {c.out.at(0), inv, cnt};
}

// --- nn functions -------------------------------------------------------------------------------

Tensor layer_norm(const Tensor &input, IntArrayRef normalized_shape, const Tensor &weight, const Tensor &bias, double eps,
                  bool) {
  check_defined(input, "input");
  const int64_t nn = int64_t(normalized_shape.size()), nd = input.dim();
  bool ok = nn >= 1 && nd >= nn;
  for (int64_t i = 0; ok && i < nn; ++i) ok = input.size(nd - nn + i) == normalized_shape[size_t(i)];
  GFY_CHECK(ok, "Given normalized_shape=", normalized_shape, ", expected input with shape [*",
            [&] {
              std::string s;
              for (int64_t v : normalized_shape) s += ", " + std::to_string(v);
              return s;
            }(),
            "], but got input of size", input.sizes());
  if (weight.defined())
    GFY_CHECK(weight.sizes() == normalized_shape, "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
              weight.sizes(), " and normalized_shape = ", normalized_shape);
  if (bias.defined())
    GFY_CHECK(bias.sizes() == normalized_shape, "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
              bias.sizes(), " and normalized_shape = ", normalized_shape);
  int64_t D = 1;
  for (int64_t v : normalized_shape) D *= v;
  Tensor x = input.contiguous();
  Tensor out = make_tensor(x.sizes(), x.scalar_type(), x.device());
  OpCall c;
  c.op = OpId::layer_norm;
  c.in = {x, weight.defined() ? cast(weight, x.scalar_type()).contiguous() : Tensor(),
          bias.defined() ? cast(bias, x.scalar_type()).contiguous() : Tensor()};
  c.out = {out};
  c.alpha = eps;
  c.k = D;
  run(std::move(c), x.scalar_type());
  return out;
}

Tensor dropout(const Tensor &input, double p, bool train) {
  check_defined(input, "input");
  GFY_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!train || p == 0) return input;
  if (p == 1) return zeros_like(input);
  Tensor keep = rand_like(input, input.options().dtype(isFloatingType(input.scalar_type()) ? input.scalar_type() : kFloat)) >= p;
  return input * keep / (1 - p);
}

// --- Tensor methods -------------------------------------------------------------------------------

Tensor Tensor::sum(std::optional<ScalarType> d) const { return gfy::sum(*this, d); }
Tensor Tensor::sum(IntArrayRef dim, bool k, std::optional<ScalarType> d) const { return gfy::sum(*this, dim, k, d); }
Tensor Tensor::mean(std::optional<ScalarType> d) const { return gfy::mean(*this, d); }
Tensor Tensor::mean(IntArrayRef dim, bool k, std::optional<ScalarType> d) const { return gfy::mean(*this, dim, k, d); }
Tensor Tensor::prod(std::optional<ScalarType> d) const { return gfy::prod(*this, d); }
Tensor Tensor::prod(int64_t dim, bool k, std::optional<ScalarType> d) const { return gfy::prod(*this, dim, k, d); }
Tensor Tensor::max() const { return gfy::max(*this); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool k) const { return gfy::max(*this, dim, k); }
Tensor Tensor::min() const { return gfy::min(*this); }
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool k) const { return gfy::min(*this, dim, k); }
Tensor Tensor::amax(IntArrayRef dim, bool k) const { return gfy::amax(*this, dim, k); }
Tensor Tensor::amin(IntArrayRef dim, bool k) const { return gfy::amin(*this, dim, k); }
Tensor Tensor::argmax(std::optional<int64_t> dim, bool k) const { return gfy::argmax(*this, dim, k); }
Tensor Tensor::argmin(std::optional<int64_t> dim, bool k) const { return gfy::argmin(*this, dim, k); }
Tensor Tensor::any() const { return gfy::any(*this); }
Tensor Tensor::any(int64_t dim, bool k) const { return gfy::any(*this, dim, k); }
Tensor Tensor::all() const { return gfy::all(*this); }
Tensor Tensor::all(int64_t dim, bool k) const { return gfy::all(*this, dim, k); }
Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> d) const { return gfy::cumsum(*this, dim, d); }
Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> d) const { return gfy::softmax(*this, dim, d); }
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> d) const { return gfy::log_softmax(*this, dim, d); }
std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool desc) const { return gfy::sort(*this, dim, desc); }
std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> stable, int64_t dim, bool desc) const {
  return gfy::sort(*this, stable, dim, desc);
}
Tensor Tensor::argsort(int64_t dim, bool desc) const { return gfy::argsort(*this, dim, desc); }
Tensor Tensor::argsort(bool stable, int64_t dim, bool desc) const { return gfy::argsort(*this, stable, dim, desc); }
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool sorted) const {
  return gfy::topk(*this, k, dim, largest, sorted);
}
Tensor Tensor::matmul(const Tensor &o) const { return gfy::matmul(*this, o); }
Tensor Tensor::mm(const Tensor &o) const { return gfy::mm(*this, o); }
Tensor Tensor::bmm(const Tensor &o) const { return gfy::bmm(*this, o); }
Tensor Tensor::index_select(int64_t dim, const Tensor &i) const { return gfy::index_select(*this, dim, i); }
Tensor Tensor::gather(int64_t dim, const Tensor &i) const { return gfy::gather(*this, dim, i); }
Tensor Tensor::scatter(int64_t dim, const Tensor &i, const Tensor &s) const { return gfy::scatter(*this, dim, i, s); }
Tensor Tensor::scatter(int64_t dim, const Tensor &i, const Scalar &v) const { return gfy::scatter(*this, dim, i, v); }
Tensor Tensor::masked_select(const Tensor &m, SL loc) const { return gfy::masked_select(*this, m, loc); }
Tensor Tensor::nonzero(SL loc) const { return gfy::nonzero(*this, loc); }
bool Tensor::equal(const Tensor &o, SL loc) const { return gfy::equal(*this, o, loc); }
bool Tensor::allclose(const Tensor &o, double rtol, double atol, bool en, SL loc) const {
  return gfy::allclose(*this, o, rtol, atol, en, loc);
}

} // namespace gfy
