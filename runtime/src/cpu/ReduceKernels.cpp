// CPU reference kernels for reductions and ops along one dimension (cumsum, cumprod, softmax,
// log_softmax, layer_norm, sort, topk). Along-dim ops get a contiguous input and view it as
// (outer, n, inner) with the op's dim in the middle; floating accumulations use double, as
// LibTorch's CPU acc_type does.
#include "BatchNormAffine.h"
#include "Kernels.h"
#include "Loops.h"
#include "Parallel.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace gfy::cpu {
GFY_CPU_ISA_BEGIN
namespace {

const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

template <class T> using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;

template <class T> inline bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

/// out[1] = init; then out[0] (the input-shaped view with stride 0 on reduced dims) accumulates
/// step(acc, x) over the input. Runs along reduced dims keep the accumulator in a register.
template <class O, class T, class Acc, class Step>
void reduce_loop(OpCall &c, Acc init, Step step) {
  const TensorImpl &res = I(c.out[1]);
  O *r = reinterpret_cast<O *>(res.data());
  for (int64_t i = 0; i < res.numel; ++i) r[i] = static_cast<O>(init);
  const TensorImpl &acc = I(c.out[0]), &in = I(c.in[0]);
  loop_nd<2>(in.sizes, {&acc, &in}, [&](char **p, const int64_t *s, int64_t n) {
    if (s[0] == 0) {
      Acc a = static_cast<Acc>(*reinterpret_cast<O *>(p[0]));
      if (s[1] == int64_t(sizeof(T))) {
        const T *x = reinterpret_cast<const T *>(p[1]);
        for (int64_t i = 0; i < n; ++i) a = step(a, x[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) a = step(a, *reinterpret_cast<const T *>(p[1] + i * s[1]));
      }
      *reinterpret_cast<O *>(p[0]) = static_cast<O>(a);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        O &o = *reinterpret_cast<O *>(p[0] + i * s[0]);
        o = static_cast<O>(step(static_cast<Acc>(o), *reinterpret_cast<const T *>(p[1] + i * s[1])));
      }
    }
  });
}

} // namespace

void sum_kernel(OpCall &c) {
  dispatch_num(I(c.in[0]).dtype, [&]<class T>() { reduce_loop<T, T>(c, acc_t<T>(0), [](acc_t<T> a, T x) { return a + x; }); });
}
void prod_kernel(OpCall &c) {
  dispatch_num(I(c.in[0]).dtype, [&]<class T>() { reduce_loop<T, T>(c, acc_t<T>(1), [](acc_t<T> a, T x) { return a * x; }); });
}
void mean_kernel(OpCall &c) {
  dispatch_float(I(c.in[0]).dtype, [&]<class T>() {
    reduce_loop<T, T>(c, double(0), [](double a, T x) { return a + x; });
    const TensorImpl &res = I(c.out[1]);
    T *r = reinterpret_cast<T *>(res.data());
    const T scale = T(1) / static_cast<T>(c.alpha);
    for (int64_t i = 0; i < res.numel; ++i) r[i] = c.alpha == 0 ? std::numeric_limits<T>::quiet_NaN() : r[i] * scale;
  });
}
void amax_kernel(OpCall &c) {
  dispatch_all(I(c.in[0]).dtype, [&]<class T>() {
    reduce_loop<T, T>(c, std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest(), [](T a, T x) { return (x > a || is_nan(x)) && !is_nan(a) ? x : a; });
  });
}
void amin_kernel(OpCall &c) {
  dispatch_all(I(c.in[0]).dtype, [&]<class T>() {
    reduce_loop<T, T>(c, std::is_floating_point_v<T> ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max(), [](T a, T x) { return (x < a || is_nan(x)) && !is_nan(a) ? x : a; });
  });
}
void any_kernel(OpCall &c) {
  dispatch_all(I(c.in[0]).dtype, [&]<class T>() { reduce_loop<bool, T>(c, false, [](bool a, T x) { return a || x != T(0); }); });
}
void all_kernel(OpCall &c) {
  dispatch_all(I(c.in[0]).dtype, [&]<class T>() { reduce_loop<bool, T>(c, true, [](bool a, T x) { return a && x != T(0); }); });
}

namespace {
struct Lanes {
  int64_t outer = 1, n = 1, inner = 1;
};
Lanes lanes(const TensorImpl &t, int64_t dim) {
  Lanes l;
  for (int64_t i = 0; i < int64_t(t.sizes.size()); ++i) {
    if (i < dim) l.outer *= t.sizes[i];
    else if (i == dim) l.n = t.sizes[i];
    else l.inner *= t.sizes[i];
  }
  return l;
}

template <bool IsMax> void max_min_dim(OpCall &c) {
  const TensorImpl &in = I(c.in[0]); // in: (outer, n, inner) contiguous
  const Lanes l = lanes(in, c.dim);
  dispatch_all(in.dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(in.data());
    T *v = reinterpret_cast<T *>(I(c.out[0]).data());           // out0: (outer, inner)
    int64_t *ix = reinterpret_cast<int64_t *>(I(c.out[1]).data()); // out1: (outer, inner)
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t j = 0; j < l.inner; ++j) {
        const T *lane = x + o * l.n * l.inner + j;
        T best = lane[0];
        int64_t bi = 0;
        for (int64_t r = 1; r < l.n && !is_nan(best); ++r) {
          const T cand = lane[r * l.inner];
          const bool better = IsMax ? cand > best : cand < best;
          if (better || is_nan(cand)) {
            best = cand;
            bi = r;
          }
        }
        v[o * l.inner + j] = best;
        ix[o * l.inner + j] = bi;
      }
  });
}
} // namespace

void max_dim_kernel(OpCall &c) { max_min_dim<true>(c); }
void min_dim_kernel(OpCall &c) { max_min_dim<false>(c); }

namespace {
/// Running accumulation along `c.dim`: y[r] = x[0] (op) ... (op) x[r], in the accumulation type.
template <class Step> void scan_lanes(OpCall &c, int init, Step step) {
  const TensorImpl &in = I(c.in[0]); // in, out: (outer, n, inner) contiguous
  const Lanes l = lanes(in, c.dim);
  dispatch_num(in.dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(in.data());
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t j = 0; j < l.inner; ++j) {
        acc_t<T> a = static_cast<acc_t<T>>(init);
        for (int64_t r = 0; r < l.n; ++r) {
          const int64_t at = (o * l.n + r) * l.inner + j;
          a = step(a, static_cast<acc_t<T>>(x[at]));
          y[at] = static_cast<T>(a);
        }
      }
  });
}
} // namespace

void cumsum_kernel(OpCall &c) { scan_lanes(c, 0, [](auto a, auto x) { return a + x; }); }
void cumprod_kernel(OpCall &c) { scan_lanes(c, 1, [](auto a, auto x) { return a * x; }); }

namespace {
/// One contiguous float lane of (log_)softmax: the hot case (last dim), written so that the
/// max, the exponentials and the sum vectorize (omp simd reductions, exp_fast).
template <bool Log> void softmax_lane_f32(const float *x, float *y, int64_t n) {
  float m = -std::numeric_limits<float>::infinity();
  bool nan = false;
#pragma omp simd reduction(max : m) reduction(| : nan)
  for (int64_t r = 0; r < n; ++r) {
    m = std::max(m, x[r]);
    nan |= x[r] != x[r];
  }
  if (nan) m = std::numeric_limits<float>::quiet_NaN();
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (int64_t r = 0; r < n; ++r) {
    const float e = exp_fast(x[r] - m);
    if (!Log) y[r] = e;
    s += e;
  }
  if (Log) {
    const float ls = std::log(s);
#pragma omp simd
    for (int64_t r = 0; r < n; ++r) y[r] = x[r] - m - ls;
  } else {
    const float inv = 1.0f / s;
#pragma omp simd
    for (int64_t r = 0; r < n; ++r) y[r] *= inv;
  }
}

template <bool Log> void softmax_impl(OpCall &c) {
  const TensorImpl &in = I(c.in[0]); // in, out: (outer, n, inner) contiguous
  const Lanes l = lanes(in, c.dim);
  dispatch_float(in.dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(in.data());
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());
    if constexpr (std::is_same_v<T, float>) {
      if (l.inner == 1) {
        parallel_for(l.outer, std::max<int64_t>(1, 32768 / std::max<int64_t>(l.n, 1)), [&](int64_t b, int64_t e) {
          for (int64_t o = b; o < e; ++o) softmax_lane_f32<Log>(x + o * l.n, y + o * l.n, l.n);
        });
        return;
      }
    }
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t j = 0; j < l.inner; ++j) {
        const T *xl = x + o * l.n * l.inner + j;
        T *yl = y + o * l.n * l.inner + j;
        T m = -std::numeric_limits<T>::infinity();
        for (int64_t r = 0; r < l.n; ++r) m = (xl[r * l.inner] > m || is_nan(xl[r * l.inner])) && !is_nan(m) ? xl[r * l.inner] : m;
        double s = 0;
        for (int64_t r = 0; r < l.n; ++r) {
          const T e = std::exp(xl[r * l.inner] - m);
          if (!Log) yl[r * l.inner] = e;
          s += e;
        }
        if (Log) {
          const T ls = static_cast<T>(std::log(s));
          for (int64_t r = 0; r < l.n; ++r) yl[r * l.inner] = xl[r * l.inner] - m - ls;
        } else {
          const T inv = static_cast<T>(1.0 / s);
          for (int64_t r = 0; r < l.n; ++r) yl[r * l.inner] *= inv;
        }
      }
  });
}
} // namespace

void softmax_kernel(OpCall &c) { softmax_impl<false>(c); }
void log_softmax_kernel(OpCall &c) { softmax_impl<true>(c); }

void layer_norm_kernel(OpCall &c) {
  const TensorImpl &in = I(c.in[0]); // in, out: (N, D) contiguous; weight, bias: (D) or undefined
  const int64_t D = c.k, N = D == 0 ? 0 : in.numel / D;
  dispatch_float(in.dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(in.data());
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());
    const T *w = c.in[1].defined() ? reinterpret_cast<const T *>(I(c.in[1]).data()) : nullptr;
    const T *b = c.in[2].defined() ? reinterpret_cast<const T *>(I(c.in[2]).data()) : nullptr;
    for (int64_t r = 0; r < N; ++r) {
      const T *xr = x + r * D;
      T *yr = y + r * D;
      double mean = 0;
      for (int64_t i = 0; i < D; ++i) mean += xr[i];
      mean /= double(D);
      double var = 0;
      for (int64_t i = 0; i < D; ++i) var += (xr[i] - mean) * (xr[i] - mean);
      var /= double(D);
      const T rstd = static_cast<T>(1.0 / std::sqrt(var + c.alpha)), mu = static_cast<T>(mean);
      for (int64_t i = 0; i < D; ++i) {
        T v = (xr[i] - mu) * rstd;
        if (w) v *= w[i];
        if (b) v += b[i];
        yr[i] = v;
      }
    }
  });
}

void batch_norm_kernel(OpCall &c) {
  // x, out: (N, C, L) contiguous; mean, var, weight, bias: (C), weight and bias maybe undefined.
  // Per channel, out = x * scale + shift (BatchNormAffine.h).
  const TensorImpl &in = I(c.in[0]);
  const int64_t N = in.sizes[0], C = in.sizes[1], L = in.sizes[2];
  dispatch_float(in.dtype, [&]<class T>() {
    auto param = [&](size_t i) { return c.in[i].defined() ? reinterpret_cast<const T *>(I(c.in[i]).data()) : nullptr; };
    const T *x = reinterpret_cast<const T *>(in.data()), *mean = param(1), *var = param(2), *w = param(3), *b = param(4);
    T *y = reinterpret_cast<T *>(I(c.out[0]).data());
    std::vector<T> scale(static_cast<size_t>(C)), shift(static_cast<size_t>(C));
    batch_norm_affine(C, mean, var, w, b, c.alpha, scale.data(), shift.data());
    parallel_for(N * C, std::max<int64_t>(1, kParallelThreshold / std::max<int64_t>(L, 1)), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const T a = scale[size_t(r % C)], s = shift[size_t(r % C)];
        const T *xr = x + r * L;
        T *yr = y + r * L;
        for (int64_t i = 0; i < L; ++i) yr[i] = xr[i] * a + s;
      }
    });
  });
}

namespace {
/// Sorts (or selects the top k of) every lane. NaN sorts as the largest value, as in LibTorch.
void sort_lanes(OpCall &c, int64_t k, bool descending) {
  const TensorImpl &in = I(c.in[0]); // in: (outer, n, inner); out0/out1: (outer, k, inner)
  const Lanes l = lanes(in, c.dim);
  dispatch_all(in.dtype, [&]<class T>() {
    const T *x = reinterpret_cast<const T *>(in.data());
    T *v = reinterpret_cast<T *>(I(c.out[0]).data());
    int64_t *ix = reinterpret_cast<int64_t *>(I(c.out[1]).data());
    std::vector<int64_t> order(size_t(l.n));
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t j = 0; j < l.inner; ++j) {
        const T *xl = x + o * l.n * l.inner + j;
        auto key = [&](int64_t i) { return xl[i * l.inner]; };
        auto less = [&](int64_t a, int64_t b) {
          const T xa = key(a), xb = key(b);
          if (descending) return (is_nan(xa) && !is_nan(xb)) || xa > xb;
          return (!is_nan(xa) && is_nan(xb)) || xa < xb;
        };
        std::iota(order.begin(), order.end(), 0);
        // A full stable sort for topk too: ties keep index order, so results are deterministic.
        std::stable_sort(order.begin(), order.end(), less);
        for (int64_t r = 0; r < k; ++r) {
          const int64_t at = (o * k + r) * l.inner + j;
          v[at] = key(order[size_t(r)]);
          ix[at] = order[size_t(r)];
        }
      }
  });
}
} // namespace

void sort_kernel(OpCall &c) {
  const TensorImpl &in = I(c.in[0]);
  sort_lanes(c, in.sizes.empty() ? 1 : in.sizes[size_t(c.dim)], c.flag2);
}
void topk_kernel(OpCall &c) { sort_lanes(c, c.k, /*descending=*/c.flag); }

GFY_CPU_ISA_END
} // namespace gfy::cpu
