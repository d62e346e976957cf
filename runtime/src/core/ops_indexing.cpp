// Front-ends of indexing: Tensor::index / index_put_ with TensorIndex lists (basic indices become
// views, advanced ones one index / index_put call), index_select, embedding, gather and scatter.
// Ops whose output shape depends on tensor values (nonzero, boolean-mask indexing,
// masked_select, where(condition), unique_consecutive) call detail::on_dynamic_shape first and
// are never recorded: a graph's buffers have static shapes.
#include "OpsCommon.h"

#include "../autograd/Derivatives.h"

#include <algorithm>

namespace gfy {
using namespace detail;

// --- indexing -----------------------------------------------------------------------------------

indexing::TensorIndex::TensorIndex(const char *s) : kind_(Kind::Ellipsis) {
  GFY_CHECK(s != nullptr && std::string(s) == "...", "Expected \"...\" to represent an ellipsis index, but got \"",
            s ? s : "(null)", "\"");
}

namespace {

/// Gather (or, with `values`, scatter) `src` at long index tensors placed on consecutive or
/// scattered dims, with LibTorch's advanced-indexing result layout. `select_indices`: the
/// index_select / embedding contract, where an index must lie in [0, size) (negative ones are
/// errors, not counted from the end) and a bad one is "index out of range in self"; with
/// `values` (index_copy) the same range, worded as a bound.
Tensor advanced_index(const Tensor &src, std::vector<std::pair<int64_t, Tensor>> idx, const Tensor *values,
                      bool accumulate = false, bool select_indices = false) {
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
    c.flag2 = select_indices;
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
  c.flag2 = select_indices;
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
      Tensor t = i.tensor();
      GFY_CHECK(t.scalar_type() == kLong || t.scalar_type() == kBool || t.scalar_type() == kByte,
                "tensors used as indices must be long, byte or bool tensors");
      if (t.scalar_type() == kByte) {
        // LibTorch still reads a uint8 index as a mask (the type masks had before bool).
        detail::warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
        t = t.to(kBool);
      }
      // LibTorch: indices on the CPU index a tensor on any device (they are copied there); indices
      // on another device are refused.
      if (t.device() != self.device()) {
        GFY_CHECK(t.is_cpu(), "indices should be either on cpu or on the same device as the indexed tensor (",
                  self.device().str(), ")");
        t = t.to(self.device());
      }
      const ScalarType tt = t.scalar_type();
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
// LibTorch's TensorBody.h: the tensor is read as a Scalar (a host read), which must be integral.
Tensor Tensor::operator[](const Tensor &index) const {
  if (!index.defined()) throw Error("Can only index with tensors that are defined");
  if (index.dim() != 0) throw Error("Can only index with tensors that are scalars (zero-dim)");
  if (!isIntegralType(index.scalar_type(), /*include_bool=*/false))
    throw Error("Can only index tensors with integral scalars");
  return select(0, index.item<int64_t>());
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
  if (a.dim() == 0)
    return advanced_index(a.view({1}), {{0, index.reshape({-1})}}, nullptr, false, /*select_indices=*/true)
        .view(index.dim() == 0 ? IntArrayRef{} : IntArrayRef{index.numel()});
  return advanced_index(a, {{dim, index.reshape({-1})}}, nullptr, false, /*select_indices=*/true);
}

namespace {
/// The sizes of `t` but `dim` (none of a 0-d tensor), as LibTorch prints them in index_copy_'s
/// slice-shape message.
std::string sliced_sizes(const Tensor &t, int64_t dim) {
  std::string out;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (d != dim) out += (out.empty() ? "" : " ") + std::to_string(t.size(d));
  return out;
}
} // namespace

// index_copy_ and index_fill_ are advanced-index puts of one long index on `dim` of self itself
// (never a view of it), so they run the index_put kernel and its derivative on every backend.
Tensor &Tensor::index_copy_(int64_t dim, const Tensor &index, const Tensor &source) const {
  check_defined(*this, "self");
  check_defined(index, "index");
  check_defined(source, "source");
  dim = maybe_wrap_dim(dim, this->dim());
  GFY_CHECK(index.dim() < 2, "index_copy_(): Index should have dimension 1 or 0 (got ", index.dim(), ")");
  GFY_CHECK(index.scalar_type() == kLong, "index_copy_(): Expected a long tensor for index, but got ",
            to_string(index.scalar_type()));
  GFY_CHECK(scalar_type() == source.scalar_type(), "index_copy_(): self and source expected to have the same dtype, but got (self) ",
            to_string(scalar_type()), " and (source) ", to_string(source.scalar_type()));
  const int64_t n = index.numel();
  GFY_CHECK(source.dim() != 0 || n == 1, "index_copy_(): When source is scalar, index should have one element (got ", n, ")");
  GFY_CHECK(source.dim() == 0 || this->dim() == 0 || source.dim() == this->dim(),
            "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
            "dimensionality (", source.dim(), "), destination dimensionality (", this->dim(), ")");
  // The sizes but `dim` must agree, a 0-d tensor having none (LibTorch's order of checks).
  const std::string self_slice = sliced_sizes(*this, dim), source_slice = sliced_sizes(source, dim);
  GFY_CHECK(self_slice == source_slice, "index_copy_(): Source/destination tensor must have same slice shapes. "
            "Destination slice shape: ", self_slice, " at dimension ", dim, " and source slice shape: ", source_slice,
            " at dimension 0.");
  GFY_CHECK(source.dim() == 0 || source.size(dim) == n, "index_copy_(): Number of indices (", n,
            ") should be equal to source.size(dim) (", source.size(dim), ")");
  // A 0-d self is a one-element dim 0; a 0-d source is broadcast to the indexed slice.
  Tensor self = this->dim() == 0 ? view({1}) : *this;
  std::vector<int64_t> vshape = self.sizes().vec();
  vshape[size_t(dim)] = n;
  const Tensor values = source.expand(vshape);
  advanced_index(self, {{dim, index.reshape({-1})}}, &values, false, /*select_indices=*/true);
  return mutable_self();
}
Tensor Tensor::index_copy(int64_t dim, const Tensor &index, const Tensor &source) const {
  check_defined(*this, "self");
  return clone().index_copy_(dim, index, source);
}
Tensor index_copy(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &source) {
  return a.index_copy(dim, index, source);
}

// index_add_ is index_copy_'s put with accumulation (repeated indices add up), source scaled by
// alpha; LibTorch 1.13's checks (index_func_meta_impl) in its order.
Tensor &Tensor::index_add_(int64_t dim, const Tensor &index, const Tensor &source, const Scalar &alpha) const {
  check_defined(*this, "self");
  check_defined(index, "index");
  check_defined(source, "source");
  dim = maybe_wrap_dim(dim, this->dim());
  const int64_t n = index.numel();
  const int64_t source_n = source.dim() == 0 ? 1 : source.size(std::min<int64_t>(dim, source.dim() - 1));
  GFY_CHECK(n == source_n, "index_add_(): Number of indices (", n, ") should be equal to source.size(dim): (",
            source_n, "), for dim: ", dim);
  GFY_CHECK(index.dim() <= 1, "index_add_(): Index is supposed to be a vector, but got dim: ", index.dim(),
            " with type: ", to_string(index.scalar_type()), " and size: ", index.sizes());
  GFY_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
            "index_add_(): Expected dtype int32/int64 for index but got: ", to_string(index.scalar_type()));
  GFY_CHECK(scalar_type() == source.scalar_type(), "index_add_(): self (", to_string(scalar_type()),
            ") and source (", to_string(source.scalar_type()), ") must have the same scalar type");
  GFY_CHECK(dim == 0 || dim < source.dim(), "index_add_(): Indexing dim ", dim,
            " is out of bounds of the source tensor with dim ", source.dim());
  Tensor self = this->dim() == 0 ? view({1}) : *this;
  std::vector<int64_t> vshape = self.sizes().vec();
  vshape[size_t(dim)] = n;
  const std::string self_slice = sliced_sizes(*this, dim), source_slice = sliced_sizes(source, dim);
  GFY_CHECK(source.dim() == 0 || self_slice == source_slice, "index_add_(): Source/destination tensor must have same "
            "slice shapes. Destination slice shape: ", self_slice, " at dimension ", dim, " and source slice shape: ",
            source_slice, " at dimension 0.");
  const Tensor values = (alpha.to<double>() == 1.0 ? source : source.mul(alpha)).expand(vshape);
  advanced_index(self, {{dim, index.reshape({-1}).to(kLong)}}, &values, /*accumulate=*/true, /*select_indices=*/true);
  return mutable_self();
}
Tensor Tensor::index_add(int64_t dim, const Tensor &index, const Tensor &source, const Scalar &alpha) const {
  check_defined(*this, "self");
  return clone().index_add_(dim, index, source, alpha);
}
Tensor index_add(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &source, const Scalar &alpha) {
  return a.index_add(dim, index, source, alpha);
}

Tensor &Tensor::index_fill_(int64_t dim, const Tensor &index, const Tensor &value) const {
  check_defined(*this, "self");
  check_defined(index, "index");
  check_defined(value, "value");
  GFY_CHECK(value.dim() == 0, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
            value.dim(), " dimension(s).");
  dim = maybe_wrap_dim(dim, this->dim());
  GFY_CHECK(index.scalar_type() == kLong, "index_fill_(): Expected dtype int64 for index.");
  GFY_CHECK(index.dim() <= 1, "Index has to be a vector/scalar");
  Tensor self = this->dim() == 0 ? view({1}) : *this;
  std::vector<int64_t> vshape = self.sizes().vec();
  vshape[size_t(dim)] = index.numel();
  const Tensor v = value.to(scalar_type()).expand(vshape);
  advanced_index(self, {{dim, index.reshape({-1})}}, &v);
  return mutable_self();
}
Tensor &Tensor::index_fill_(int64_t dim, const Tensor &index, const Scalar &value) const {
  check_defined(*this, "self");
  return index_fill_(dim, index, scalar_to_tensor(value, scalar_type(), device()));
}
Tensor Tensor::index_fill(int64_t dim, const Tensor &index, const Scalar &value) const {
  check_defined(*this, "self");
  return clone().index_fill_(dim, index, value);
}
Tensor Tensor::index_fill(int64_t dim, const Tensor &index, const Tensor &value) const {
  check_defined(*this, "self");
  return clone().index_fill_(dim, index, value);
}
Tensor index_fill(const Tensor &a, int64_t dim, const Tensor &index, const Scalar &value) {
  return a.index_fill(dim, index, value);
}
Tensor index_fill(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &value) {
  return a.index_fill(dim, index, value);
}

Tensor embedding(const Tensor &weight, const Tensor &indices, int64_t padding_idx, bool, bool) {
  check_defined(weight, "weight");
  check_defined(indices, "indices");
  GFY_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  GFY_CHECK(indices.scalar_type() == kLong || indices.scalar_type() == kInt,
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
            to_string(indices.scalar_type()), " instead (while checking arguments for embedding)");
  // Its own derivative: the row of padding_idx gets no gradient (LibTorch's embedding_backward).
  const bool grad = autograd::detail::any_requires_grad({weight});
  Tensor out;
  {
    NoGradGuard no_grad;
    out = advanced_index(weight, {{0, indices}}, nullptr, false, /*select_indices=*/true);
  }
  if (grad) autograd::detail::record_embedding(out, weight, indices, padding_idx);
  return out;
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

namespace {
/// gather; `targets` makes the kernel report an index out of range as nll_loss's target error.
Tensor gather_impl(const Tensor &a, int64_t dim, const Tensor &index, bool targets) {
  check_defined(a, "self");
  check_defined(index, "index");
  dim = maybe_wrap_dim(dim, a.dim());
  check_gather_shapes(a, dim, index, nullptr, "gather");
  Tensor out = make_tensor(index.sizes(), a.scalar_type(), a.device());
  // The kernel reads `a` through a restrided view, so gather carries its own derivative.
  const bool grad = autograd::detail::any_requires_grad({a});
  NoGradGuard no_grad;
  if (grad) autograd::detail::record_gather(out, a, dim, index);
  OpCall c;
  c.op = OpId::gather;
  c.dim = dim;
  c.in = {restride_for(a, dim, index), index};
  c.out = {out};
  c.k = a.dim() == 0 ? 0 : a.stride(dim);
  c.ints = {a.dim() == 0 ? 1 : a.size(dim)};
  c.flag = targets;
  run(std::move(c), a.scalar_type());
  return out;
}
} // namespace

Tensor gather(const Tensor &a, int64_t dim, const Tensor &index) { return gather_impl(a, dim, index, false); }
Tensor detail::gather_targets(const Tensor &a, int64_t dim, const Tensor &index) {
  return gather_impl(a, dim, index, true);
}

namespace {
/// self[coordinates of index along dim] = src (or += with `accumulate`): along `dim` the index's
/// values, along every other dim the position itself (arange, broadcast). An advanced put, so it
/// differentiates as index_put_: scatter_add_ always, scatter_ when gradients are recorded
/// (ops.def: front_end_derivative; its kernel writes through a restrided view of self). Shapes
/// and dtypes are checked by the caller.
void put_along(const Tensor &target, int64_t dim, const Tensor &index, const Tensor &src, bool accumulate) {
  if (index.numel() == 0) return;
  {
    // The put below counts a negative index from the end; scatter's contract is [0, size), which
    // gather's kernel checks with LibTorch's message, on the device (no host read), so capturable.
    NoGradGuard no_grad;
    (void)gfy::gather(target, dim, index);
  }
  if (target.dim() == 0) {
    // One element: the put is its last write or the sum, without a view of the target (a write
    // through a view of a tensor with history is not recorded).
    const Tensor v = src.reshape({-1}).narrow(0, 0, index.numel());
    if (accumulate) target.add_(v.sum().to(target.scalar_type())); // sum widens integers
    else target.copy_(v.select(0, index.numel() - 1));
    return;
  }
  const Tensor &self = target;
  const Tensor idx = index.dim() == 0 ? index.view({1}) : index;
  Tensor values = src.dim() == 0 ? src.view({1}) : src;
  for (int64_t d = 0; d < idx.dim(); ++d) values = values.narrow(d, 0, idx.size(d));
  std::vector<std::pair<int64_t, Tensor>> coordinates;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == dim) {
      coordinates.push_back({d, idx});
      continue;
    }
    std::vector<int64_t> shape(size_t(idx.dim()), 1);
    shape[size_t(d)] = idx.size(d);
    coordinates.push_back({d, arange(idx.size(d), TensorOptions().dtype(kLong).device(self.device())).view(shape)});
  }
  advanced_index(self, std::move(coordinates), &values, accumulate);
}
} // namespace

Tensor &Tensor::scatter_(int64_t dim, const Tensor &index, const Tensor &src) const {
  check_defined(*this, "self");
  check_defined(index, "index");
  check_defined(src, "src");
  dim = maybe_wrap_dim(dim, this->dim());
  check_gather_shapes(*this, dim, index, &src, "scatter");
  GFY_CHECK(src.scalar_type() == scalar_type(), "scatter(): Expected self.dtype to be equal to src.dtype");
  if (autograd::detail::any_requires_grad({*this, src})) {
    put_along(*this, dim, index, src, /*accumulate=*/false);
    return mutable_self();
  }
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
  return mutable_self();
}
Tensor &Tensor::scatter_(int64_t dim, const Tensor &index, const Scalar &value) const {
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

// scatter_add_ adds repeated coordinates up, as LibTorch's scatter_add, and differentiates as
// index_put_ with accumulate.
Tensor &Tensor::scatter_add_(int64_t dim, const Tensor &index, const Tensor &src) const {
  check_defined(*this, "self");
  check_defined(index, "index");
  check_defined(src, "src");
  dim = maybe_wrap_dim(dim, this->dim());
  check_gather_shapes(*this, dim, index, &src, "scatter_add");
  GFY_CHECK(src.scalar_type() == scalar_type(), "scatter(): Expected self.dtype to be equal to src.dtype");
  put_along(*this, dim, index, src, /*accumulate=*/true);
  return mutable_self();
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor &index, const Tensor &src) const {
  check_defined(*this, "self");
  return clone().scatter_add_(dim, index, src);
}
Tensor scatter_add(const Tensor &a, int64_t dim, const Tensor &index, const Tensor &src) {
  return a.scatter_add(dim, index, src);
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
  GFY_CHECK(mask.scalar_type() == kBool || mask.scalar_type() == kByte, "masked_select: expected BoolTensor for mask");
  on_dynamic_shape("masked_select()", loc);
  Tensor m = mask;
  if (m.scalar_type() == kByte) {
    detail::warn("masked_select received a mask with dtype torch.uint8, this behavior is now deprecated,please use a "
                 "mask with dtype torch.bool instead.");
    m = m.to(kBool);
  }
  auto shape = broadcast_shapes(a.sizes(), m.sizes());
  return a.expand(shape).index({m.expand(shape)}, loc);
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

// _unique2 sorts the flattened input (stably, so equal elements keep their order) and collapses
// its runs; the inverse maps each input position to its run through the sort's permutation.
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor &a, bool, bool return_inverse, bool return_counts, SL loc) {
  check_defined(a, "self");
  on_dynamic_shape("_unique2()", loc);
  const Tensor flat = a.reshape({-1});
  auto [sorted_values, order] = sort(flat, /*stable=*/true, 0, false);
  auto [output, run_of_sorted, counts] = unique_consecutive(sorted_values, return_inverse, return_counts,
                                                            std::nullopt, loc);
  Tensor inverse = run_of_sorted;
  if (return_inverse) inverse = empty_like(run_of_sorted).scatter_(0, order, run_of_sorted).view(a.sizes());
  return {output, inverse, counts};
}

std::tuple<Tensor, Tensor> _unique(const Tensor &a, bool sorted, bool return_inverse, SL loc) {
  auto [output, inverse, counts] = _unique2(a, sorted, return_inverse, false, loc);
  return {output, inverse};
}

} // namespace gfy
