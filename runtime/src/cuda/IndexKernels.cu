// CUDA kernels for indexing, matching src/cpu/IndexKernels.cpp. Index values are data: an index
// out of range cannot throw from a kernel, so it is recorded in the backend's device error record
// (the element is skipped) and raised as the CPU's gfy::Error message at the next synchronisation
// (synchronize(), a host copy, or the next eager op). Writes through duplicate indices race, as
// in LibTorch's CUDA index_put_/scatter_ (the CPU keeps the last one).
//
// nonzero and unique_consecutive have data-dependent output shapes: they are never captured, and
// already need the host for the output size, so they copy the input to the host and run the
// reference algorithm there (exactly the CPU's result).
#include "Kernels.cuh"

#include <graphify/core/Functions.h>

#include <cstring>
#include <vector>

namespace gfy::cuda::detail {
namespace {

/// Geometry of index / index_put: `t` is pre(P) + indexed(M) + post; the M index tensors are
/// contiguous long with nB elements each; the dense side is contiguous (pre, nB, post).
struct AdvancedGeom {
  int np = 0, m = 0, npost_d = 0;
  int64_t pre_sizes[kMaxDims], pre_strides[kMaxDims];
  int64_t post_sizes[kMaxDims], post_strides[kMaxDims];
  int64_t idx_sizes[kMaxDims], idx_strides[kMaxDims];
  const int64_t *idx[kMaxDims];
  int64_t nB = 0, npost = 1, total = 0;
  bool select_indices = false; // index_select / embedding / index_copy (flag2): a negative index is out of range
  char *t = nullptr;
  char *dense = nullptr;
};

__device__ __forceinline__ int64_t offset_of(int64_t linear, int n, const int64_t *sizes, const int64_t *strides) {
  int64_t off = 0;
  for (int d = n - 1; d >= 0; --d) {
    off += (linear % sizes[d]) * strides[d];
    linear /= sizes[d];
  }
  return off;
}

template <class E, bool Put> __global__ void advanced_kernel(const AdvancedGeom g, DeviceErrorRecord *err) {
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < g.total; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t q = e % g.npost, b = (e / g.npost) % g.nB, p = e / (g.npost * g.nB);
    int64_t off = offset_of(p, g.np, g.pre_sizes, g.pre_strides) + offset_of(q, g.npost_d, g.post_sizes, g.post_strides);
    bool ok = true;
    for (int k = 0; k < g.m; ++k) {
      const int64_t raw = g.idx[k][b];
      if (g.select_indices && raw < 0) report_error(err, kIndexOutOfRange, g.np + k, raw, g.idx_sizes[k]);
      const int64_t v = g.select_indices && raw < 0 ? -1 : checked_index(raw, g.idx_sizes[k], g.np + k, err);
      if (v < 0) ok = false;
      else off += v * g.idx_strides[k];
    }
    if (!ok) continue;
    E *tp = reinterpret_cast<E *>(g.t) + off;
    E *dp = reinterpret_cast<E *>(g.dense) + e;
    if (Put) *tp = *dp;
    else *dp = *tp;
  }
}

/// atomicAdd for 8- and 16-bit integers, which CUDA lacks: a compare-and-swap loop on the aligned
/// 32-bit word that holds the element, leaving its neighbours' bytes as they are. The sum wraps
/// like the type's own addition.
template <class T> __device__ void atomic_add_narrow(T *dst, T v) {
  using U = std::make_unsigned_t<T>;
  const auto addr = reinterpret_cast<uintptr_t>(dst);
  unsigned int *word = reinterpret_cast<unsigned int *>(addr & ~uintptr_t(3));
  const unsigned int shift = unsigned(addr & 3) * 8;
  const unsigned int mask = ((1u << (sizeof(T) * 8)) - 1u) << shift;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const T current = T(U((assumed & mask) >> shift));
    const unsigned int next = unsigned(U(T(current + v))) << shift;
    old = atomicCAS(word, assumed, (assumed & ~mask) | (next & mask));
  } while (old != assumed);
}

/// index_put_(..., accumulate=true): repeated indices add up, so the write is an atomic add
/// (bool: a logical or, which every racing writer agrees on).
template <class T> __device__ __forceinline__ void atomic_accumulate(T *dst, T v) {
  if constexpr (std::is_same_v<T, bool>) {
    if (v) *dst = true;
  } else if constexpr (sizeof(T) < 4) {
    atomic_add_narrow(dst, v);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long *>(dst), static_cast<unsigned long long>(v));
  } else {
    atomicAdd(dst, v);
  }
}

template <class T> __global__ void accumulate_kernel(const AdvancedGeom g, DeviceErrorRecord *err) {
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < g.total; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t q = e % g.npost, b = (e / g.npost) % g.nB, p = e / (g.npost * g.nB);
    int64_t off = offset_of(p, g.np, g.pre_sizes, g.pre_strides) + offset_of(q, g.npost_d, g.post_sizes, g.post_strides);
    bool ok = true;
    for (int k = 0; k < g.m; ++k) {
      const int64_t v = checked_index(g.idx[k][b], g.idx_sizes[k], g.np + k, err);
      if (v < 0) ok = false;
      else off += v * g.idx_strides[k];
    }
    if (ok) atomic_accumulate(reinterpret_cast<T *>(g.t) + off, reinterpret_cast<const T *>(g.dense)[e]);
  }
}

template <bool Put> void advanced(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &t = Put ? I(c.out[0]) : I(c.in[0]);
  const TensorImpl &dense = Put ? I(c.in[0]) : I(c.out[0]);
  AdvancedGeom g;
  g.np = int(c.k);
  g.m = int(c.dim);
  const int nd = int(t.sizes.size());
  GFY_CHECK(g.m >= 1 && g.np + g.m <= nd, "internal error: bad advanced-index geometry");
  int64_t npre = 1;
  for (int d = 0; d < g.np; ++d) {
    g.pre_sizes[d] = t.sizes[size_t(d)];
    g.pre_strides[d] = t.strides[size_t(d)];
    npre *= t.sizes[size_t(d)];
  }
  for (int k = 0; k < g.m; ++k) {
    g.idx_sizes[k] = t.sizes[size_t(g.np + k)];
    g.idx_strides[k] = t.strides[size_t(g.np + k)];
    g.idx[k] = reinterpret_cast<const int64_t *>(I(c.in[size_t(1 + k)]).data());
  }
  for (int d = g.np + g.m; d < nd; ++d) {
    g.post_sizes[g.npost_d] = t.sizes[size_t(d)];
    g.post_strides[g.npost_d++] = t.strides[size_t(d)];
    g.npost *= t.sizes[size_t(d)];
  }
  g.nB = I(c.in[1]).numel;
  g.select_indices = c.flag2;
  g.total = npre * g.nB * g.npost;
  if (g.total == 0) return;
  g.t = t.data();
  g.dense = dense.data();
  if (Put && c.flag) {
    GFY_DISPATCH_ALL(t.dtype, T, {
      accumulate_kernel<T><<<grid_for(g.total), kThreads, 0, ctx.stream>>>(g, ctx.error);
      CUDA_CHECK_LAUNCH();
    })
    return;
  }
  switch (element_size(t.dtype)) {
  case 1: advanced_kernel<uint8_t, Put><<<grid_for(g.total), kThreads, 0, ctx.stream>>>(g, ctx.error); break;
  case 2: advanced_kernel<uint16_t, Put><<<grid_for(g.total), kThreads, 0, ctx.stream>>>(g, ctx.error); break;
  case 4: advanced_kernel<uint32_t, Put><<<grid_for(g.total), kThreads, 0, ctx.stream>>>(g, ctx.error); break;
  default: advanced_kernel<uint64_t, Put><<<grid_for(g.total), kThreads, 0, ctx.stream>>>(g, ctx.error); break;
  }
  CUDA_CHECK_LAUNCH();
}

/// gather and scatter take indices in [0, size) only, as the CPU reference (no wrapping);
/// reports and returns -1 otherwise, as a bad nll_loss target when `targets`.
__device__ __forceinline__ int64_t gather_index(int64_t v, int64_t size, int dim, bool targets, DeviceErrorRecord *e) {
  if (v >= 0 && v < size) return v;
  report_error(e, targets ? kTargetOutOfBounds : kIndexOutOfRange, dim, v, size);
  return -1;
}

template <class T> struct GatherApply {
  int64_t step, size;
  int dim;
  bool targets;
  DeviceErrorRecord *err;
  __device__ void operator()(char **p) const {
    const int64_t v = gather_index(*reinterpret_cast<const int64_t *>(p[2]), size, dim, targets, err);
    if (v >= 0) *reinterpret_cast<T *>(p[0]) = reinterpret_cast<const T *>(p[1])[v * step];
  }
};
template <class T> struct ScatterApply {
  int64_t step, size;
  int dim;
  DeviceErrorRecord *err;
  __device__ void operator()(char **p) const {
    const int64_t v = gather_index(*reinterpret_cast<const int64_t *>(p[2]), size, dim, false, err);
    if (v >= 0) reinterpret_cast<T *>(p[0])[v * step] = *reinterpret_cast<const T *>(p[1]);
  }
};

/// A contiguous host copy of `t` (a device tensor of any strides): the dynamic-shape ops' input.
std::vector<char> to_host_dense(const Tensor &t, const LaunchContext &ctx) {
  const TensorImpl &in = I(t);
  Tensor dense = gfy::detail::make_tensor(in.sizes, in.dtype, in.storage->device);
  OpCall cp;
  cp.op = OpId::copy;
  cp.in = {t};
  cp.out = {dense};
  copy_cuda(cp, ctx);
  std::vector<char> host(size_t(in.numel) * element_size(in.dtype));
  ctx.backend->copy_to_host(host.data(), I(dense).data(), host.size());
  return host;
}

template <class T> bool nonzero_at(const char *p) {
  return *reinterpret_cast<const T *>(p) != T(0);
}

} // namespace

void index_cuda(OpCall &c, const LaunchContext &ctx) { advanced<false>(c, ctx); }
void index_put_cuda(OpCall &c, const LaunchContext &ctx) { advanced<true>(c, ctx); }

void gather_cuda(OpCall &c, const LaunchContext &ctx) {
  // in0: self restrided to index's shape (stride 0 on dim); in1: index (long); out: index's shape
  const TensorImpl &out = I(c.out[0]), &src = I(c.in[0]), &index = I(c.in[1]);
  const auto g = make_geometry<3>(out.sizes, {&out, &src, &index});
  GFY_DISPATCH_ALL(out.dtype, T, launch_elementwise(g, GatherApply<T>{c.k, c.ints.at(0), int(c.dim), c.flag, ctx.error}, ctx.stream))
}

void scatter_cuda(OpCall &c, const LaunchContext &ctx) {
  // out0: self restrided to index's shape (stride 0 on dim); in0: src (index's shape); in1: index
  const TensorImpl &out = I(c.out[0]), &src = I(c.in[0]), &index = I(c.in[1]);
  const auto g = make_geometry<3>(index.sizes, {&out, &src, &index});
  GFY_DISPATCH_ALL(out.dtype, T, launch_elementwise(g, ScatterApply<T>{c.k, c.ints.at(0), int(c.dim), ctx.error}, ctx.stream))
}

void nonzero_cuda(OpCall &c, const LaunchContext &ctx) {
  // Dynamic output: (count, ndim) long, allocated here. Never recorded on a tape.
  const TensorImpl &in = I(c.in[0]);
  const size_t nd = in.sizes.size();
  const std::vector<char> host = to_host_dense(c.in[0], ctx);
  const size_t es = element_size(in.dtype);
  std::vector<int64_t> coords;
  int64_t count = 0;
  for (int64_t i = 0; i < in.numel; ++i) {
    const char *p = host.data() + size_t(i) * es;
    bool nz = false;
    switch (in.dtype) {
    case kBool: nz = nonzero_at<bool>(p); break;
    case kByte: nz = nonzero_at<uint8_t>(p); break;
    case kChar: nz = nonzero_at<int8_t>(p); break;
    case kShort: nz = nonzero_at<int16_t>(p); break;
    case kInt: nz = nonzero_at<int32_t>(p); break;
    case kLong: nz = nonzero_at<int64_t>(p); break;
    case kFloat: nz = nonzero_at<float>(p); break;
    case kDouble: nz = nonzero_at<double>(p); break;
    default: throw Error(std::string("CUDA kernel not implemented for dtype ") + to_string(in.dtype));
    }
    if (!nz) continue;
    ++count;
    const size_t at = coords.size();
    coords.resize(at + nd);
    int64_t rem = i;
    for (size_t d = nd; d-- > 0;) {
      coords[at + d] = rem % in.sizes[d];
      rem /= in.sizes[d];
    }
  }
  Tensor out = gfy::detail::make_tensor({count, int64_t(nd)}, kLong, in.storage->device);
  if (!coords.empty()) ctx.backend->copy_from_host(I(out).data(), coords.data(), coords.size() * sizeof(int64_t));
  c.out = {out};
}

void unique_consecutive_cuda(OpCall &c, const LaunchContext &ctx) {
  // Dynamic output: values (k), inverse (numel), counts (k). Input contiguous.
  const TensorImpl &in = I(c.in[0]);
  const int64_t n = in.numel;
  const std::vector<char> host = to_host_dense(c.in[0], ctx);
  const size_t es = element_size(in.dtype);
  std::vector<int64_t> inverse(static_cast<size_t>(n)), starts;
  for (int64_t i = 0; i < n; ++i) {
    // Bytewise equality is the CPU's `==` except for floating NaN (never equal) and -0.0 == 0.0.
    bool same = false;
    if (i > 0) {
      const char *a = host.data() + size_t(i) * es, *b = host.data() + size_t(i - 1) * es;
      switch (in.dtype) {
      case kFloat: same = *reinterpret_cast<const float *>(a) == *reinterpret_cast<const float *>(b); break;
      case kDouble: same = *reinterpret_cast<const double *>(a) == *reinterpret_cast<const double *>(b); break;
      default: same = std::memcmp(a, b, es) == 0; break;
      }
    }
    if (!same) starts.push_back(i);
    inverse[size_t(i)] = int64_t(starts.size()) - 1;
  }
  const int64_t k = int64_t(starts.size());
  std::vector<char> values(static_cast<size_t>(k) * es);
  std::vector<int64_t> counts(static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) {
    std::memcpy(values.data() + size_t(j) * es, host.data() + size_t(starts[size_t(j)]) * es, es);
    counts[size_t(j)] = (j + 1 < k ? starts[size_t(j + 1)] : n) - starts[size_t(j)];
  }
  const Device dev = in.storage->device;
  Tensor tv = gfy::detail::make_tensor({k}, in.dtype, dev);
  Tensor ti = gfy::detail::make_tensor({n}, kLong, dev);
  Tensor tc = gfy::detail::make_tensor({k}, kLong, dev);
  if (k > 0) {
    ctx.backend->copy_from_host(I(tv).data(), values.data(), values.size());
    ctx.backend->copy_from_host(I(tc).data(), counts.data(), counts.size() * sizeof(int64_t));
  }
  if (n > 0) ctx.backend->copy_from_host(I(ti).data(), inverse.data(), inverse.size() * sizeof(int64_t));
  c.out = {tv, ti, tc};
}

} // namespace gfy::cuda::detail
