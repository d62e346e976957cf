// CPU reference kernels for indexing. Index values are data, so bounds are checked here, at run
// time (eagerly and on every replay), and reported with LibTorch's message.
#include "Kernels.h"
#include "Loops.h"

#include <graphify/core/Functions.h>

#include <vector>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {
const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

/// Element offsets of every position of a (sizes, strides) block, in row-major order.
std::vector<int64_t> offsets(const int64_t *sizes, const int64_t *strides, size_t nd) {
  // An empty block has no positions, however large its other (expanded) dimensions are.
  for (size_t d = 0; d < nd; ++d)
    if (sizes[d] == 0)
      return {};
  std::vector<int64_t> out{0};
  for (size_t d = 0; d < nd; ++d) {
    std::vector<int64_t> next;
    next.reserve(out.size() * size_t(sizes[d]));
    for (int64_t base : out)
      for (int64_t i = 0; i < sizes[d]; ++i) next.push_back(base + i * strides[d]);
    out.swap(next);
  }
  return out;
}

inline int64_t checked_index(int64_t v, int64_t size, int64_t dim) {
  if (v < -size || v >= size)
    throw Error(detail::str_cat("index ", v, " is out of bounds for dimension ", dim, " with size ", size));
  return v < 0 ? v + size : v;
}

/// gather and scatter take indices in [0, size) only (no wrapping, as LibTorch's
/// scatter_gather kernels); gather for nll_loss (`targets`) words it as a bad target.
inline int64_t gather_index(int64_t v, int64_t size, int64_t dim, bool targets) {
  if (v >= 0 && v < size) return v;
  if (targets) throw Error(detail::str_cat("Target ", v, " is out of bounds."));
  throw Error(detail::str_cat("index ", v, " is out of bounds for dimension ", dim, " with size ", size));
}

/// The position index value `v` names in indexed dim `P + k` of `t`. With flag2, indices lie in
/// [0, size): index_select / embedding (a gather) word a bad one "index out of range in self",
/// index_copy (a put) as a bound, as LibTorch's kernels do.
inline int64_t index_position(int64_t v, const TensorImpl &t, size_t P, size_t k, bool nonneg, bool put) {
  if (nonneg && (v < 0 || v >= t.sizes[P + k])) {
    if (put)
      throw Error(detail::str_cat("index_copy_(): index ", v, " is out of bounds for dimension ", P + k, " with size ",
                                  t.sizes[P + k]));
    throw Error("index out of range in self");
  }
  return checked_index(v, t.sizes[P + k], int64_t(P + k));
}

/// Shared geometry of index / index_put: `t` has shape pre(P) + indexed(M) + post; the index
/// tensors are contiguous long with nB elements each; the dense side is (pre, nB, post).
template <bool Put> void advanced(OpCall &c) {
  const TensorImpl &t = Put ? I(c.out[0]) : I(c.in[0]);
  const TensorImpl &dense = Put ? I(c.in[0]) : I(c.out[0]);
  const size_t P = size_t(c.k), M = size_t(c.dim), nd = t.sizes.size();
  const size_t first_idx = 1;
  const int64_t nB = I(c.in[first_idx]).numel;
  if (dense.numel == 0) {
    // Nothing to move, but the indices are still checked, and the position lists below must not
    // be built: a zero-size dimension elsewhere leaves the others free to be huge (an expanded
    // view of 2^62 rows), which made offsets() throw std::length_error (found by fuzzing).
    for (size_t k = 0; k < M; ++k) {
      const int64_t *ix = reinterpret_cast<const int64_t *>(I(c.in[first_idx + k]).data());
      for (int64_t b = 0; b < nB; ++b)
        index_position(ix[b], t, P, k, c.flag2, Put);
    }
    return;
  }
  const auto pre = offsets(t.sizes.data(), t.strides.data(), P);
  const auto post = offsets(t.sizes.data() + P + M, t.strides.data() + P + M, nd - P - M);
  bool post_dense = true;
  for (size_t q = 0; q < post.size(); ++q) post_dense = post_dense && post[q] == int64_t(q);
  const int64_t es = int64_t(element_size(t.dtype));
  std::vector<const int64_t *> idx(M);
  for (size_t k = 0; k < M; ++k) idx[k] = reinterpret_cast<const int64_t *>(I(c.in[first_idx + k]).data());
  char *tp = t.data();
  char *dp = dense.data();
  const int64_t post_n = int64_t(post.size());
  for (int64_t po : pre) {
    for (int64_t b = 0; b < nB; ++b) {
      int64_t off = po;
      for (size_t k = 0; k < M; ++k) {
        off += index_position(idx[k][b], t, P, k, c.flag2, Put) * t.strides[P + k];
      }
      char *tb = tp + off * es;
      if (Put && c.flag) {
        // accumulate=true: repeated indices sum up, so this cannot be a byte copy.
        dispatch_all(t.dtype, [&]<class T>() {
          for (int64_t q = 0; q < post_n; ++q) {
            T &dst = *reinterpret_cast<T *>(tb + post[size_t(q)] * es);
            const T v = *reinterpret_cast<const T *>(dp + q * es);
            if constexpr (std::is_same_v<T, bool>) dst = dst || v;
            else dst = T(dst + v);
          }
        });
      } else if (post_dense) {
        if (Put) std::memcpy(tb, dp, size_t(post_n * es));
        else std::memcpy(dp, tb, size_t(post_n * es));
      } else {
        for (int64_t q = 0; q < post_n; ++q) {
          if (Put) std::memcpy(tb + post[size_t(q)] * es, dp + q * es, size_t(es));
          else std::memcpy(dp + q * es, tb + post[size_t(q)] * es, size_t(es));
        }
      }
      dp += post_n * es;
    }
  }
}
} // namespace

void index_kernel(OpCall &c) { advanced<false>(c); }
void index_put_kernel(OpCall &c) { advanced<true>(c); }

void gather_kernel(OpCall &c) {
  // in0: self restrided to index's shape (stride 0 on dim); in1: index (long); out: index's shape
  const TensorImpl &out = I(c.out[0]), &src = I(c.in[0]), &index = I(c.in[1]);
  const int64_t step = c.k, size = c.ints[0];
  dispatch_all(out.dtype, [&]<class T>() {
    loop_nd<3>(out.sizes, {&out, &src, &index}, [&](char **p, const int64_t *s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t v = gather_index(*reinterpret_cast<const int64_t *>(p[2] + i * s[2]), size, c.dim, c.flag);
        *reinterpret_cast<T *>(p[0] + i * s[0]) = reinterpret_cast<const T *>(p[1] + i * s[1])[v * step];
      }
    });
  });
}

void scatter_kernel(OpCall &c) {
  // out0: self restrided to index's shape (stride 0 on dim); in0: src (index's shape); in1: index
  const TensorImpl &out = I(c.out[0]), &src = I(c.in[0]), &index = I(c.in[1]);
  const int64_t step = c.k, size = c.ints[0];
  dispatch_all(out.dtype, [&]<class T>() {
    loop_nd<3>(index.sizes, {&out, &src, &index}, [&](char **p, const int64_t *s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t v = gather_index(*reinterpret_cast<const int64_t *>(p[2] + i * s[2]), size, c.dim, false);
        reinterpret_cast<T *>(p[0] + i * s[0])[v * step] = *reinterpret_cast<const T *>(p[1] + i * s[1]);
      }
    });
  });
}

void nonzero_kernel(OpCall &c) {
  // Dynamic output: (count, ndim) long, allocated here. Never recorded on a tape.
  const TensorImpl &in = I(c.in[0]);
  const size_t nd = in.sizes.size();
  const auto offs = offsets(in.sizes.data(), in.strides.data(), nd);
  std::vector<int64_t> hits;
  dispatch_all(in.dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(in.data());
    for (size_t i = 0; i < offs.size(); ++i)
      if (x[offs[i]] != T(0)) hits.push_back(int64_t(i));
  });
  Tensor out = detail::make_tensor({int64_t(hits.size()), int64_t(nd)}, kLong, in.storage->device);
  int64_t *o = reinterpret_cast<int64_t *>(out.unsafeGetTensorImpl()->data());
  for (size_t h = 0; h < hits.size(); ++h) {
    int64_t rem = hits[h];
    for (size_t d = nd; d-- > 0;) {
      o[h * nd + d] = rem % in.sizes[d];
      rem /= in.sizes[d];
    }
  }
  c.out = {out};
}

void unique_consecutive_kernel(OpCall &c) {
  // Dynamic output: values (k), inverse (numel), counts (k). Input contiguous.
  const TensorImpl &in = I(c.in[0]);
  const int64_t n = in.numel;
  Tensor inverse = detail::make_tensor({n}, kLong, in.storage->device);
  int64_t *inv = reinterpret_cast<int64_t *>(inverse.unsafeGetTensorImpl()->data());
  std::vector<int64_t> starts;
  dispatch_all(in.dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(in.data());
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || !(x[i] == x[i - 1])) starts.push_back(i);
      inv[i] = int64_t(starts.size()) - 1;
    }
  });
  const int64_t k = int64_t(starts.size());
  Tensor values = detail::make_tensor({k}, in.dtype, in.storage->device);
  Tensor counts = detail::make_tensor({k}, kLong, in.storage->device);
  int64_t *cnt = reinterpret_cast<int64_t *>(counts.unsafeGetTensorImpl()->data());
  const int64_t es = int64_t(element_size(in.dtype));
  for (int64_t j = 0; j < k; ++j) {
    std::memcpy(values.unsafeGetTensorImpl()->data() + j * es, in.data() + starts[size_t(j)] * es, size_t(es));
    cnt[j] = (j + 1 < k ? starts[size_t(j + 1)] : n) - starts[size_t(j)];
  }
  c.out = {values, inverse, counts};
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
