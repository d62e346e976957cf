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
GFY_CPU_ISA_BEGIN

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

/// Whether `t` is laid out densely in row-major order over `shape` (no broadcast, no gaps).
bool dense(const TensorImpl &t, const std::vector<int64_t> &shape) {
  if (t.sizes != shape) return false;
  int64_t step = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1 && t.strides[d] != step) return false;
    step *= shape[d];
  }
  return true;
}

/// Chunks [c0, c1) of a run whose operands are all dense: element i of every operand is at
/// offset i, so chunks are full kFusedChunk runs of the flat index, whatever the row length
/// (rows of 16 or 64 values would otherwise cost a row's bookkeeping per few vectors).
template <class T> void run_flat(const FusedElementwise &p, int64_t numel, int64_t c0, int64_t c1) {
  thread_local std::vector<T> slots;
  if (slots.size() < size_t(p.num_slots) * size_t(kFusedChunk)) slots.resize(size_t(p.num_slots) * size_t(kFusedChunk));
  // A loaded slot that no step overwrites is read where its tensor holds it: copying every
  // operand into a slot and back cost as much as the arithmetic of a short run (a residual
  // block's relu(y + x) ran twice as slowly fused as its two kernels).
  thread_local std::vector<const T *> in_place;
  in_place.assign(size_t(p.num_slots), nullptr);
  for (const auto &[k, t] : p.loads)
    if (std::none_of(p.steps.begin(), p.steps.end(), [&](const FusedElementwise::Step &s) { return s.out == k; }))
      in_place[size_t(k)] = reinterpret_cast<const T *>(I(t).data());
  thread_local std::vector<T *> ptr; // kept: replay allocates nothing
  ptr.resize(size_t(p.num_slots));
  for (int64_t c = c0; c < c1; ++c) {
    const int64_t i0 = c * kFusedChunk, n = std::min(kFusedChunk, numel - i0);
    for (int k = 0; k < p.num_slots; ++k)
      ptr[size_t(k)] = in_place[size_t(k)] ? const_cast<T *>(in_place[size_t(k)] + i0)
                                           : slots.data() + size_t(k) * size_t(kFusedChunk);
    for (const auto &[k, t] : p.loads)
      if (!in_place[size_t(k)])
        std::memcpy(ptr[size_t(k)], reinterpret_cast<const T *>(I(t).data()) + i0, size_t(n) * sizeof(T));
    for (const auto &s : p.steps) apply<T>(s, ptr[size_t(s.out)], ptr[size_t(s.in0)], ptr[size_t(std::max(s.in1, 0))], n);
    for (const auto &[k, t] : p.stores)
      std::memmove(reinterpret_cast<T *>(I(t).data()) + i0, ptr[size_t(k)], size_t(n) * sizeof(T));
  }
}

template <class T> void run(const FusedElementwise &p) {
  int64_t rows = 1, len = p.shape.empty() ? 1 : p.shape.back();
  for (size_t d = 0; d + 1 < p.shape.size(); ++d) rows *= p.shape[d];
  if (rows == 0 || len == 0) return;
  bool all_dense = true;
  for (const auto *operands : {&p.loads, &p.stores})
    for (const auto &[k, t] : *operands) all_dense = all_dense && dense(I(t), p.shape);
  if (all_dense) {
    const int64_t numel = rows * len, chunks = (numel + kFusedChunk - 1) / kFusedChunk;
    parallel_for(chunks, std::max<int64_t>(1, kParallelThreshold / 4 / kFusedChunk),
                 [&](int64_t b, int64_t e) { run_flat<T>(p, numel, b, e); });
    return;
  }
  parallel_for(rows, std::max<int64_t>(1, kParallelThreshold / 4 / len),
               [&](int64_t b, int64_t e) { run_rows<T>(p, b, e); });
}

} // namespace

void run_fused_elementwise(const FusedElementwise &p) {
  if (p.dtype == kFloat) run<float>(p);
  else if (p.dtype == kDouble) run<double>(p);
  else throw Error("internal error: fused elementwise run of a non-floating dtype");
}

GFY_CPU_ISA_END
} // namespace gfy::cpu
