// Executor of fused elementwise runs (see FusedElementwise.h). The per-element expressions are
// the ones the separate kernels evaluate (ElementwiseKernels.cpp: `T(x + al * y)`, exp_fast,
// sigmoid_fn, tanh_fn, relu_fn from Loops.h), so fusion changes where values live, never
// their bits; tests/runtime/test_graph_fusion.cpp compares fused and unfused replays exactly.
// Which ops fuse is ops.def's `fusable` trait, not this file's: `apply` has one case per fusable
// op, and FuseElementwise.EveryFusableOpGivesItsKernelsBits runs each of them through it.
#include "FusedElementwise.h"

#include "Loops.h"
#include "Parallel.h"

#include <algorithm>
#include <cstring>

namespace gfy::cpu {

namespace {

const TensorImpl &I(const Tensor &t) { return *t.unsafeGetTensorImpl(); }

/// One step over n contiguous values (each loop vectorizes).
template <class T> void apply(const FusedElementwise::Step &s, T *o, const T *x, const T *y, int64_t n) {
  const T al = static_cast<T>(s.alpha);
  switch (s.op) {
  case OpId::add:
    if (s.alpha == 1.0) for (int64_t i = 0; i < n; ++i) o[i] = T(x[i] + y[i]);
    else for (int64_t i = 0; i < n; ++i) o[i] = T(x[i] + al * y[i]);
    return;
  case OpId::sub:
    if (s.alpha == 1.0) for (int64_t i = 0; i < n; ++i) o[i] = T(x[i] - y[i]);
    else for (int64_t i = 0; i < n; ++i) o[i] = T(x[i] - al * y[i]);
    return;
  case OpId::mul: for (int64_t i = 0; i < n; ++i) o[i] = T(x[i] * y[i]); return;
  case OpId::div: for (int64_t i = 0; i < n; ++i) o[i] = x[i] / y[i]; return;
  case OpId::neg: for (int64_t i = 0; i < n; ++i) o[i] = T(-x[i]); return;
  case OpId::exp: for (int64_t i = 0; i < n; ++i) o[i] = T(exp_fast(x[i])); return;
  case OpId::sigmoid: for (int64_t i = 0; i < n; ++i) o[i] = T(sigmoid_fn(x[i])); return;
  case OpId::tanh: for (int64_t i = 0; i < n; ++i) o[i] = T(tanh_fn(x[i])); return;
  case OpId::relu: for (int64_t i = 0; i < n; ++i) o[i] = T(relu_fn(x[i])); return;
  default:
    throw Error(detail::str_cat("internal error: ops.def marks ", op_name(s.op),
                                " fusable, but the fused executor has no step for it"));
  }
}

/// Byte offset of row `r` (a linear index over all dims but the last) in `t`.
int64_t row_offset(const TensorImpl &t, int64_t r) {
  int64_t off = 0;
  for (int64_t d = int64_t(t.sizes.size()) - 2; d >= 0; --d) {
    const int64_t n = t.sizes[size_t(d)];
    off += (r % n) * t.strides[size_t(d)];
    r /= n;
  }
  return off * int64_t(element_size(t.dtype));
}

template <class T> void run_rows(const FusedElementwise &p, int64_t r0, int64_t r1) {
  const int64_t len = p.shape.empty() ? 1 : p.shape.back();
  // Slot k is [k * chunk, (k + 1) * chunk). Per thread and kept: replay allocates nothing.
  thread_local std::vector<T> slots;
  if (slots.size() < size_t(p.num_slots) * size_t(kFusedChunk)) slots.resize(size_t(p.num_slots) * size_t(kFusedChunk));
  auto slot = [&](int k) { return slots.data() + size_t(k) * size_t(kFusedChunk); };
  for (int64_t r = r0; r < r1; ++r) {
    for (int64_t c0 = 0; c0 < len; c0 += kFusedChunk) {
      const int64_t n = std::min(kFusedChunk, len - c0);
      for (const auto &[k, t] : p.loads) {
        const TensorImpl &ti = I(t);
        const int64_t step = ti.sizes.empty() ? 0 : ti.strides.back();
        const T *src = reinterpret_cast<const T *>(ti.data() + row_offset(ti, r)) + c0 * step;
        T *dst = slot(k);
        if (step == 1) std::memcpy(dst, src, size_t(n) * sizeof(T));
        else for (int64_t i = 0; i < n; ++i) dst[i] = src[i * step];
      }
      for (const auto &s : p.steps) apply<T>(s, slot(s.out), slot(s.in0), slot(std::max(s.in1, 0)), n);
      for (const auto &[k, t] : p.stores) {
        const TensorImpl &ti = I(t);
        const int64_t step = ti.sizes.empty() ? 0 : ti.strides.back();
        T *dst = reinterpret_cast<T *>(ti.data() + row_offset(ti, r)) + c0 * step;
        const T *src = slot(k);
        if (step == 1) std::memcpy(dst, src, size_t(n) * sizeof(T));
        else for (int64_t i = 0; i < n; ++i) dst[i * step] = src[i];
      }
    }
  }
}

} // namespace

void run_fused_elementwise(const FusedElementwise &p) {
  int64_t rows = 1, len = p.shape.empty() ? 1 : p.shape.back();
  for (size_t d = 0; d + 1 < p.shape.size(); ++d) rows *= p.shape[d];
  if (rows == 0 || len == 0) return;
  const int64_t grain = std::max<int64_t>(1, kParallelThreshold / 4 / len);
  if (p.dtype == kFloat)
    parallel_for(rows, grain, [&](int64_t b, int64_t e) { run_rows<float>(p, b, e); });
  else if (p.dtype == kDouble)
    parallel_for(rows, grain, [&](int64_t b, int64_t e) { run_rows<double>(p, b, e); });
  else
    throw Error("internal error: fused elementwise run of a non-floating dtype");
}

} // namespace gfy::cpu
