// Joining (cat, stack) and the free-function forms of the splitting and view methods (chunk,
// split, view, transpose, ...). Views are metadata only and never reach a backend; cat and stack
// are copies into slices of one output, so cat carries its own derivative (each input's slice of
// the gradient) instead of its copies' (src/autograd/Derivatives.cpp).
#include "OpsCommon.h"

#include "../autograd/Derivatives.h"

namespace gfy {
using namespace detail;

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
  const bool grad = autograd::detail::any_requires_grad(tensors);
  {
    NoGradGuard no_grad; // the copies into slices are not differentiated one by one
    int64_t off = 0;
    for (const Tensor *p : parts) {
      out.narrow(dim, off, p->size(dim)).copy_(*p);
      off += p->size(dim);
    }
  }
  if (grad) autograd::detail::record_cat(out, tensors, dim);
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
std::vector<Tensor> split_with_sizes(const Tensor &a, IntArrayRef s, int64_t dim) {
  check_defined(a, "self");
  return a.split(s, dim);
}
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

// --- coordinate grids -----------------------------------------------------------------------------

// Each output is input i viewed along dim i and expanded to the grid: a view, as in LibTorch, so
// a grid costs no memory until it is written to or made contiguous.
std::vector<Tensor> meshgrid(const std::vector<Tensor> &tensors, std::string_view indexing) {
  GFY_CHECK(!tensors.empty(), "torch.meshgrid: expects a non-empty TensorList");
  GFY_CHECK(indexing == "ij" || indexing == "xy", "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ",
            std::string(indexing));
  std::vector<Tensor> in;
  for (auto &t : tensors) {
    check_defined(t, "tensors");
    GFY_CHECK(t.dim() <= 1, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ", t.sizes());
    GFY_CHECK(t.scalar_type() == tensors[0].scalar_type(), "torch.meshgrid: Expected all tensors in the tensor list to have the same dtype");
    GFY_CHECK(t.device() == tensors[0].device(), "torch.meshgrid: Expected all tensors in the tensor list to have the same device");
    in.push_back(t.reshape({-1}));
  }
  // "xy" is "ij" over the inputs with the first two swapped, with the first two outputs swapped back:
  // the grids are (len(y), len(x), ...) and output 0 still belongs to input 0.
  const bool swap = indexing == "xy" && in.size() >= 2;
  if (swap) std::swap(in[0], in[1]);
  std::vector<int64_t> grid;
  for (auto &t : in) grid.push_back(t.size(0));
  std::vector<Tensor> out;
  for (size_t i = 0; i < in.size(); ++i) {
    std::vector<int64_t> shape(in.size(), 1);
    shape[i] = -1;
    Tensor g = in[i].view(shape).expand(grid);
    out.push_back(g);
  }
  if (swap) std::swap(out[0], out[1]);
  return out;
}
std::vector<Tensor> meshgrid(const std::vector<Tensor> &tensors) { return meshgrid(tensors, "ij"); }

} // namespace gfy
