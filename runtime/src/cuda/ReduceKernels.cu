// CUDA kernels for reductions and ops along one dimension (max/min with indices, cumsum,
// softmax, log_softmax, layer_norm, sort, topk), matching src/cpu/ReduceKernels.cpp: the same
// accumulator types (double for floating, int64 for integers), the same NaN rules, and the same
// tie-breaking (lowest index first). Parallel reductions combine partial results in a tree, so
// floating sums agree with the CPU's sequential order to rounding, not bitwise; short lanes
// (< kSeqLane elements) are reduced sequentially by one thread, exactly as on the CPU.
#include "Kernels.cuh"

#include <vector>

namespace gfy::cuda::detail {
namespace {

constexpr int64_t kSeqLane = 64;

/// Block-wide reduction of one value per thread; the result is valid in every thread.
template <class Acc, class Combine> __device__ Acc block_reduce(Acc v, Combine combine) {
  __shared__ Acc buf[kThreads];
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) buf[threadIdx.x] = combine(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  const Acc r = buf[0];
  __syncthreads();
  return r;
}

// --- full and partial reductions ------------------------------------------------------------------

/// Kept dims (output index) and reduced dims (reduction index) of an input, in element strides.
struct ReduceGeom {
  int nk = 0, nr = 0;
  int64_t ksizes[kMaxDims], kstrides[kMaxDims];
  int64_t rsizes[kMaxDims], rstrides[kMaxDims];
  int64_t nout = 1, R = 1;
};

__device__ __forceinline__ int64_t decompose(int64_t linear, int n, const int64_t *sizes, const int64_t *strides) {
  int64_t off = 0;
  for (int d = n - 1; d >= 0; --d) {
    off += (linear % sizes[d]) * strides[d];
    linear /= sizes[d];
  }
  return off;
}

template <class T> struct SumOp {
  using Acc = acc_t<T>;
  using Out = T;
  __device__ Acc init() const { return Acc(0); }
  __device__ Acc step(Acc a, T x) const { return a + Acc(x); }
  __device__ Acc combine(Acc a, Acc b) const { return a + b; }
};
template <class T> struct ProdOp {
  using Acc = acc_t<T>;
  using Out = T;
  __device__ Acc init() const { return Acc(1); }
  __device__ Acc step(Acc a, T x) const { return a * Acc(x); }
  __device__ Acc combine(Acc a, Acc b) const { return a * b; }
};
template <class T> struct AmaxOp {
  using Acc = T;
  using Out = T;
  __device__ Acc init() const { return lowest_value<T>(); }
  __device__ Acc step(Acc a, T x) const { return (x > a || is_nan(x)) && !is_nan(a) ? x : a; }
  __device__ Acc combine(Acc a, Acc b) const { return step(a, b); }
};
template <class T> struct AminOp {
  using Acc = T;
  using Out = T;
  __device__ Acc init() const { return highest_value<T>(); }
  __device__ Acc step(Acc a, T x) const { return (x < a || is_nan(x)) && !is_nan(a) ? x : a; }
  __device__ Acc combine(Acc a, Acc b) const { return step(a, b); }
};
template <class T> struct AnyOp {
  using Acc = bool;
  using Out = bool;
  __device__ Acc init() const { return false; }
  __device__ Acc step(Acc a, T x) const { return a || x != T(0); }
  __device__ Acc combine(Acc a, Acc b) const { return a || b; }
};
template <class T> struct AllOp {
  using Acc = bool;
  using Out = bool;
  __device__ Acc init() const { return true; }
  __device__ Acc step(Acc a, T x) const { return a && x != T(0); }
  __device__ Acc combine(Acc a, Acc b) const { return a && b; }
};

/// One output per thread, reduced sequentially (short reductions: the CPU's exact order).
template <class T, class Op>
__global__ void reduce_seq_kernel(const ReduceGeom g, const T *in, typename Op::Out *out, Op op, double scale) {
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < g.nout; o += int64_t(gridDim.x) * blockDim.x) {
    const int64_t base = decompose(o, g.nk, g.ksizes, g.kstrides);
    typename Op::Acc a = op.init();
    for (int64_t r = 0; r < g.R; ++r) a = op.step(a, in[base + decompose(r, g.nr, g.rsizes, g.rstrides)]);
    out[o] = scale != 0 ? static_cast<typename Op::Out>(static_cast<typename Op::Out>(a) * static_cast<typename Op::Out>(scale))
                        : static_cast<typename Op::Out>(a);
  }
}

/// One output per block (long reductions).
template <class T, class Op>
__global__ void reduce_block_kernel(const ReduceGeom g, const T *in, typename Op::Out *out, Op op, double scale) {
  using Acc = typename Op::Acc;
  for (int64_t o = blockIdx.x; o < g.nout; o += gridDim.x) {
    const int64_t base = decompose(o, g.nk, g.ksizes, g.kstrides);
    Acc a = op.init();
    for (int64_t r = threadIdx.x; r < g.R; r += blockDim.x) a = op.step(a, in[base + decompose(r, g.nr, g.rsizes, g.rstrides)]);
    a = block_reduce(a, [op](Acc x, Acc y) { return op.combine(x, y); });
    if (threadIdx.x == 0)
      out[o] = scale != 0 ? static_cast<typename Op::Out>(static_cast<typename Op::Out>(a) * static_cast<typename Op::Out>(scale))
                          : static_cast<typename Op::Out>(a);
  }
}

/// out[1] = reduce(in[0]) over the dims where out[0] (the input-shaped accumulator view) has
/// stride 0. `scale` != 0 multiplies the result (mean).
template <class T, class Op> void reduce(const OpCall &c, const LaunchContext &ctx, Op op, double scale = 0) {
  const TensorImpl &acc = I(c.out[0]), &in = I(c.in[0]), &res = I(c.out[1]);
  ReduceGeom g;
  for (size_t i = 0; i < in.sizes.size(); ++i) {
    if (in.sizes[i] == 1) continue;
    if (acc.strides[i] == 0) {
      g.rsizes[g.nr] = in.sizes[i];
      g.rstrides[g.nr++] = in.strides[i];
      g.R *= in.sizes[i];
    } else {
      g.ksizes[g.nk] = in.sizes[i];
      g.kstrides[g.nk++] = in.strides[i];
    }
  }
  g.nout = res.numel;
  if (g.nout == 0) return;
  if (in.numel == 0) g.R = 0; // empty reduction: every output is the initial value
  const T *x = reinterpret_cast<const T *>(in.data());
  auto *y = reinterpret_cast<typename Op::Out *>(res.data());
  if (g.R < kSeqLane) {
    reduce_seq_kernel<T, Op><<<grid_for(g.nout), kThreads, 0, ctx.stream>>>(g, x, y, op, scale);
  } else {
    const unsigned blocks = unsigned(g.nout < 65535 * 4 ? g.nout : 65535 * 4);
    reduce_block_kernel<T, Op><<<blocks, kThreads, 0, ctx.stream>>>(g, x, y, op, scale);
  }
  CUDA_CHECK_LAUNCH();
}

// --- max/min along a dim, with the index ------------------------------------------------------------

template <class T> struct ValIdx {
  T v;
  int64_t i;
};
/// The CPU's sequential rule made associative: the first NaN wins, else the extreme value, ties
/// to the lower index.
template <class T, bool IsMax> __device__ ValIdx<T> pick(ValIdx<T> a, ValIdx<T> b) {
  if (b.i < 0) return a;
  if (a.i < 0) return b;
  const bool an = is_nan(a.v), bn = is_nan(b.v);
  if (an || bn) {
    if (an && bn) return a.i < b.i ? a : b;
    return an ? a : b;
  }
  const bool b_better = IsMax ? b.v > a.v : b.v < a.v;
  const bool a_better = IsMax ? a.v > b.v : a.v < b.v;
  if (b_better) return b;
  if (a_better) return a;
  return a.i < b.i ? a : b;
}

template <class T, bool IsMax> __global__ void max_min_dim_kernel(const T *x, T *vals, int64_t *idx, Lanes l) {
  const int64_t lanes_n = l.outer * l.inner;
  for (int64_t lane = blockIdx.x; lane < lanes_n; lane += gridDim.x) {
    const int64_t o = lane / l.inner, j = lane % l.inner;
    const T *p = x + o * l.n * l.inner + j;
    ValIdx<T> best{T(0), -1};
    for (int64_t r = threadIdx.x; r < l.n; r += blockDim.x) best = pick<T, IsMax>(best, ValIdx<T>{p[r * l.inner], r});
    best = block_reduce(best, [](ValIdx<T> a, ValIdx<T> b) { return pick<T, IsMax>(a, b); });
    if (threadIdx.x == 0) {
      vals[lane] = best.v;
      idx[lane] = best.i;
    }
  }
}

template <bool IsMax> void max_min_dim(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &in = I(c.in[0]); // in: (outer, n, inner) contiguous; out0/out1: (outer, inner)
  const Lanes l = lanes(in, c.dim);
  const int64_t nl = l.outer * l.inner;
  if (nl == 0 || l.n == 0) return;
  GFY_DISPATCH_ALL(in.dtype, T, {
    const unsigned blocks = unsigned(nl < 65535 * 4 ? nl : 65535 * 4);
    max_min_dim_kernel<T, IsMax><<<blocks, kThreads, 0, ctx.stream>>>(
        reinterpret_cast<const T *>(in.data()), reinterpret_cast<T *>(I(c.out[0]).data()),
        reinterpret_cast<int64_t *>(I(c.out[1]).data()), l);
    CUDA_CHECK_LAUNCH();
  })
}

// --- scans and normalisations along a dim -------------------------------------------------------------

template <class T> __global__ void cumsum_kernel(const T *x, T *y, Lanes l) {
  const int64_t nl = l.outer * l.inner;
  for (int64_t lane = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; lane < nl; lane += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = lane / l.inner, j = lane % l.inner;
    acc_t<T> a = 0;
    for (int64_t r = 0; r < l.n; ++r) {
      const int64_t at = (o * l.n + r) * l.inner + j;
      a += x[at];
      y[at] = static_cast<T>(a);
    }
  }
}

template <class T> __global__ void cumprod_kernel(const T *x, T *y, Lanes l) {
  const int64_t nl = l.outer * l.inner;
  for (int64_t lane = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; lane < nl; lane += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = lane / l.inner, j = lane % l.inner;
    acc_t<T> a = 1;
    for (int64_t r = 0; r < l.n; ++r) {
      const int64_t at = (o * l.n + r) * l.inner + j;
      a *= x[at];
      y[at] = static_cast<T>(a);
    }
  }
}

template <class T, bool Log> __global__ void softmax_kernel(const T *x, T *y, Lanes l) {
  const int64_t nl = l.outer * l.inner;
  for (int64_t lane = blockIdx.x; lane < nl; lane += gridDim.x) {
    const int64_t o = lane / l.inner, j = lane % l.inner;
    const T *xl = x + o * l.n * l.inner + j;
    T *yl = y + o * l.n * l.inner + j;
    T m = lowest_value<T>();
    for (int64_t r = threadIdx.x; r < l.n; r += blockDim.x) m = ::fmax(m, xl[r * l.inner]);
    m = block_reduce(m, [](T a, T b) { return T(::fmax(a, b)); });
    double s = 0;
    for (int64_t r = threadIdx.x; r < l.n; r += blockDim.x) {
      const T e = ::exp(xl[r * l.inner] - m);
      if (!Log) yl[r * l.inner] = e;
      s += e;
    }
    s = block_reduce(s, [](double a, double b) { return a + b; });
    if (Log) {
      const T ls = static_cast<T>(::log(s));
      for (int64_t r = threadIdx.x; r < l.n; r += blockDim.x) yl[r * l.inner] = xl[r * l.inner] - m - ls;
    } else {
      const T inv = static_cast<T>(1.0 / s);
      for (int64_t r = threadIdx.x; r < l.n; r += blockDim.x) yl[r * l.inner] *= inv;
    }
  }
}

template <class T>
__global__ void layer_norm_kernel(const T *x, T *y, const T *w, const T *b, int64_t N, int64_t D, double eps) {
  for (int64_t row = blockIdx.x; row < N; row += gridDim.x) {
    const T *xr = x + row * D;
    T *yr = y + row * D;
    double s = 0;
    for (int64_t i = threadIdx.x; i < D; i += blockDim.x) s += xr[i];
    const double mean = block_reduce(s, [](double a, double c) { return a + c; }) / double(D);
    double v = 0;
    for (int64_t i = threadIdx.x; i < D; i += blockDim.x) v += (xr[i] - mean) * (xr[i] - mean);
    const double var = block_reduce(v, [](double a, double c) { return a + c; }) / double(D);
    const T rstd = static_cast<T>(1.0 / ::sqrt(var + eps)), mu = static_cast<T>(mean);
    for (int64_t i = threadIdx.x; i < D; i += blockDim.x) {
      T val = (xr[i] - mu) * rstd;
      if (w) val *= w[i];
      if (b) val += b[i];
      yr[i] = val;
    }
  }
}

/// out = x * scale[c] + shift[c] over x (N, C, L), with LibTorch's per-channel scale and shift.
template <class T>
__global__ void batch_norm_kernel(const T *x, T *y, const T *mean, const T *var, const T *w, const T *b, int64_t C,
                                  int64_t L, int64_t total, double eps) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t ch = i / L % C;
    const T invstd = T(1) / ::sqrt(var[ch] + static_cast<T>(eps));
    const T scale = w ? invstd * w[ch] : invstd;
    const T shift = (b ? b[ch] : T(0)) - mean[ch] * scale;
    y[i] = x[i] * scale + shift;
  }
}

unsigned blocks_for_lanes(int64_t n) { return unsigned(n < 65535 * 4 ? (n < 1 ? 1 : n) : 65535 * 4); }

// --- stable sort / topk: bitonic networks with index tie-breaking -----------------------------------
// Breaking ties by the original index makes the order total, so any sorting network yields the
// unique stable result: exactly the CPU reference's std::stable_sort, NaN sorted as the largest.

template <class T> struct SortOrder {
  bool descending;
  __device__ bool less(T a, T b) const {
    if (descending) return (is_nan(a) && !is_nan(b)) || a > b;
    return (!is_nan(a) && is_nan(b)) || a < b;
  }
  /// Whether (ka, ia) goes before (kb, ib); padding (index < 0) goes last.
  __device__ bool before(T ka, int64_t ia, T kb, int64_t ib) const {
    if (ia < 0) return false;
    if (ib < 0) return true;
    if (less(ka, kb)) return true;
    if (less(kb, ka)) return false;
    return ia < ib;
  }
};

template <class T> __global__ void sort_load_kernel(const T *x, T *keys, int64_t *idx, Lanes l, int64_t P) {
  const int64_t total = l.outer * l.inner * P;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t lane = i / P, r = i % P, o = lane / l.inner, j = lane % l.inner;
    if (r < l.n) {
      keys[i] = x[(o * l.n + r) * l.inner + j];
      idx[i] = r;
    } else {
      keys[i] = T(0);
      idx[i] = -1;
    }
  }
}

/// One (k, j) stage of the bitonic network over every lane (global memory, any P).
template <class T>
__global__ void sort_stage_kernel(T *keys, int64_t *idx, int64_t total, int64_t P, int64_t k, int64_t j, SortOrder<T> ord) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t l = i ^ j; // j < P: the partner is in the same lane
    if (l <= i) continue;
    // The direction comes from the position within the lane: with the global index, the last
    // stage (k == P) would read the lane number's low bit and sort odd lanes backwards.
    const bool up = ((i & (P - 1)) & k) == 0;
    const bool swap = up ? ord.before(keys[l], idx[l], keys[i], idx[i]) : ord.before(keys[i], idx[i], keys[l], idx[l]);
    if (swap) {
      const T tk = keys[i];
      keys[i] = keys[l];
      keys[l] = tk;
      const int64_t ti = idx[i];
      idx[i] = idx[l];
      idx[l] = ti;
    }
  }
}

/// The whole network for one lane in shared memory (P <= 1024: one block per lane).
template <class T> __global__ void sort_shared_kernel(T *keys, int64_t *idx, int64_t lanes_n, int P, SortOrder<T> ord) {
  extern __shared__ unsigned char smem[];
  int64_t *si = reinterpret_cast<int64_t *>(smem);
  T *sk = reinterpret_cast<T *>(smem + sizeof(int64_t) * size_t(P));
  for (int64_t lane = blockIdx.x; lane < lanes_n; lane += gridDim.x) {
    for (int i = threadIdx.x; i < P; i += blockDim.x) {
      sk[i] = keys[lane * P + i];
      si[i] = idx[lane * P + i];
    }
    __syncthreads();
    for (int k = 2; k <= P; k <<= 1)
      for (int j = k >> 1; j > 0; j >>= 1) {
        for (int i = threadIdx.x; i < P; i += blockDim.x) {
          const int l = i ^ j;
          if (l <= i) continue;
          const bool up = (i & k) == 0;
          const bool swap = up ? ord.before(sk[l], si[l], sk[i], si[i]) : ord.before(sk[i], si[i], sk[l], si[l]);
          if (swap) {
            const T tk = sk[i];
            sk[i] = sk[l];
            sk[l] = tk;
            const int64_t ti = si[i];
            si[i] = si[l];
            si[l] = ti;
          }
        }
        __syncthreads();
      }
    for (int i = threadIdx.x; i < P; i += blockDim.x) {
      keys[lane * P + i] = sk[i];
      idx[lane * P + i] = si[i];
    }
    __syncthreads();
  }
}

template <class T> __global__ void sort_store_kernel(const T *keys, const int64_t *idx, T *vals, int64_t *out_idx, Lanes l, int64_t P, int64_t k) {
  const int64_t total = l.outer * l.inner * k;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t lane = i / k, r = i % k, o = lane / l.inner, j = lane % l.inner;
    const int64_t at = (o * k + r) * l.inner + j;
    vals[at] = keys[lane * P + r];
    out_idx[at] = idx[lane * P + r];
  }
}

/// Temporary device memory from the backend's allocator (the capture's private pool under
/// capture), returned stream-ordered when the scope ends.
struct Workspace {
  Backend *backend;
  void *ptr = nullptr;
  size_t bytes = 0;
  Workspace(Backend *b, size_t n) : backend(b), bytes(n) { ptr = backend->allocate(n); }
  ~Workspace() { backend->deallocate(ptr, bytes); }
  Workspace(const Workspace &) = delete;
  Workspace &operator=(const Workspace &) = delete;
};

void sort_lanes(OpCall &c, const LaunchContext &ctx, int64_t k, bool descending) {
  const TensorImpl &in = I(c.in[0]); // in: (outer, n, inner); out0/out1: (outer, k, inner)
  const Lanes l = lanes(in, c.dim);
  const int64_t nl = l.outer * l.inner;
  if (nl == 0 || l.n == 0 || k == 0) return;
  int64_t P = 1;
  while (P < l.n) P <<= 1;
  GFY_DISPATCH_ALL(in.dtype, T, {
    Workspace wk(ctx.backend, size_t(nl * P) * sizeof(T)), wi(ctx.backend, size_t(nl * P) * sizeof(int64_t));
    T *keys = static_cast<T *>(wk.ptr);
    int64_t *idx = static_cast<int64_t *>(wi.ptr);
    const SortOrder<T> ord{descending};
    sort_load_kernel<T><<<grid_for(nl * P), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(in.data()), keys, idx, l, P);
    CUDA_CHECK_LAUNCH();
    if (P <= 1024) {
      const size_t shm = size_t(P) * (sizeof(T) + sizeof(int64_t));
      const int threads = int(P < kThreads ? (P < 32 ? 32 : P) : kThreads);
      sort_shared_kernel<T><<<blocks_for_lanes(nl), threads, shm, ctx.stream>>>(keys, idx, nl, int(P), ord);
      CUDA_CHECK_LAUNCH();
    } else {
      for (int64_t kk = 2; kk <= P; kk <<= 1)
        for (int64_t j = kk >> 1; j > 0; j >>= 1) {
          sort_stage_kernel<T><<<grid_for(nl * P), kThreads, 0, ctx.stream>>>(keys, idx, nl * P, P, kk, j, ord);
          CUDA_CHECK_LAUNCH();
        }
    }
    sort_store_kernel<T><<<grid_for(nl * k), kThreads, 0, ctx.stream>>>(keys, idx, reinterpret_cast<T *>(I(c.out[0]).data()),
                                                                         reinterpret_cast<int64_t *>(I(c.out[1]).data()), l, P, k);
    CUDA_CHECK_LAUNCH();
  })
}

} // namespace

void sum_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_NUM(I(c.in[0]).dtype, T, reduce<T>(c, ctx, SumOp<T>{})) }
void prod_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_NUM(I(c.in[0]).dtype, T, reduce<T>(c, ctx, ProdOp<T>{})) }
void mean_cuda(OpCall &c, const LaunchContext &ctx) {
  // The CPU divides by the count after the sum (NaN for an empty reduction); so do we.
  GFY_DISPATCH_FLOAT(I(c.in[0]).dtype, T, {
    const double scale = c.alpha == 0 ? __builtin_nan("") : double(T(1) / static_cast<T>(c.alpha));
    reduce<T>(c, ctx, SumOp<T>{}, scale);
  })
}
void amax_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_ALL(I(c.in[0]).dtype, T, reduce<T>(c, ctx, AmaxOp<T>{})) }
void amin_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_ALL(I(c.in[0]).dtype, T, reduce<T>(c, ctx, AminOp<T>{})) }
void any_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_ALL(I(c.in[0]).dtype, T, reduce<T>(c, ctx, AnyOp<T>{})) }
void all_cuda(OpCall &c, const LaunchContext &ctx) { GFY_DISPATCH_ALL(I(c.in[0]).dtype, T, reduce<T>(c, ctx, AllOp<T>{})) }

void max_dim_cuda(OpCall &c, const LaunchContext &ctx) { max_min_dim<true>(c, ctx); }
void min_dim_cuda(OpCall &c, const LaunchContext &ctx) { max_min_dim<false>(c, ctx); }

void cumsum_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &in = I(c.in[0]); // in, out: (outer, n, inner) contiguous
  const Lanes l = lanes(in, c.dim);
  const int64_t nl = l.outer * l.inner;
  if (nl == 0 || l.n == 0) return;
  GFY_DISPATCH_NUM(in.dtype, T, {
    cumsum_kernel<T><<<grid_for(nl), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(in.data()), reinterpret_cast<T *>(I(c.out[0]).data()), l);
    CUDA_CHECK_LAUNCH();
  })
}

void cumprod_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &in = I(c.in[0]); // in, out: (outer, n, inner) contiguous
  const Lanes l = lanes(in, c.dim);
  const int64_t nl = l.outer * l.inner;
  if (nl == 0 || l.n == 0) return;
  GFY_DISPATCH_NUM(in.dtype, T, {
    cumprod_kernel<T><<<grid_for(nl), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(in.data()), reinterpret_cast<T *>(I(c.out[0]).data()), l);
    CUDA_CHECK_LAUNCH();
  })
}

namespace {
template <bool Log> void softmax_impl(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &in = I(c.in[0]); // in, out: (outer, n, inner) contiguous
  const Lanes l = lanes(in, c.dim);
  const int64_t nl = l.outer * l.inner;
  if (nl == 0 || l.n == 0) return;
  GFY_DISPATCH_FLOAT(in.dtype, T, {
    softmax_kernel<T, Log><<<blocks_for_lanes(nl), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(in.data()),
                                                                              reinterpret_cast<T *>(I(c.out[0]).data()), l);
    CUDA_CHECK_LAUNCH();
  })
}
} // namespace

void softmax_cuda(OpCall &c, const LaunchContext &ctx) { softmax_impl<false>(c, ctx); }
void log_softmax_cuda(OpCall &c, const LaunchContext &ctx) { softmax_impl<true>(c, ctx); }

void layer_norm_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &in = I(c.in[0]); // in, out: (N, D) contiguous; weight, bias: (D) or undefined
  const int64_t D = c.k, N = D == 0 ? 0 : in.numel / D;
  if (N == 0) return;
  GFY_DISPATCH_FLOAT(in.dtype, T, {
    const T *w = c.in[1].defined() ? reinterpret_cast<const T *>(I(c.in[1]).data()) : nullptr;
    const T *b = c.in[2].defined() ? reinterpret_cast<const T *>(I(c.in[2]).data()) : nullptr;
    layer_norm_kernel<T><<<blocks_for_lanes(N), kThreads, 0, ctx.stream>>>(reinterpret_cast<const T *>(in.data()),
                                                                          reinterpret_cast<T *>(I(c.out[0]).data()), w, b, N, D, c.alpha);
    CUDA_CHECK_LAUNCH();
  })
}

void batch_norm_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &in = I(c.in[0]); // in, out: (N, C, L) contiguous; mean, var, weight, bias: (C)
  if (in.numel == 0) return;
  GFY_DISPATCH_FLOAT(in.dtype, T, {
    auto param = [&](size_t i) { return c.in[i].defined() ? reinterpret_cast<const T *>(I(c.in[i]).data()) : nullptr; };
    batch_norm_kernel<T><<<grid_for(in.numel), kThreads, 0, ctx.stream>>>(
        reinterpret_cast<const T *>(in.data()), reinterpret_cast<T *>(I(c.out[0]).data()), param(1), param(2),
        param(3), param(4), in.sizes[1], in.sizes[2], in.numel, c.alpha);
    CUDA_CHECK_LAUNCH();
  })
}

void sort_cuda(OpCall &c, const LaunchContext &ctx) {
  const TensorImpl &in = I(c.in[0]);
  sort_lanes(c, ctx, in.sizes.empty() ? 1 : in.sizes[size_t(c.dim)], c.flag2);
}
void topk_cuda(OpCall &c, const LaunchContext &ctx) { sort_lanes(c, ctx, c.k, /*descending=*/c.flag); }

} // namespace gfy::cuda::detail
