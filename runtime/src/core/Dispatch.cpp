// detail::run, the one path every kernel-running op takes (STYLE.md §9): eager execution and
// graph capture share it. Invariant: a call reaches a backend only after the checks every backend
// relies on (no output is written twice through a broadcast dim unless ops.def marks its op
// writes_broadcast, no output overlaps an input partially; the backend supports the op for the
// dtype), and under capture it is recorded
// exactly as it ran, so replay re-enters the backend without repeating them. While grad mode is on
// and an operand takes part in autograd, the launch is also recorded for backward (KernelRecord).
#include "MemOverlap.h"
#include "OpsCommon.h"

#include "../autograd/AutogradMeta.h"
#include "../graph/DeviceGraph.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace gfy::detail {
namespace {

bool is_reduced(const Tensor &t) { return t.defined() && isReducedFloatingType(t.scalar_type()); }

/// The half or bfloat16 dtype the call computes in or has an operand of, if any.
std::optional<ScalarType> reduced_dtype(const OpCall &call, ScalarType dtype) {
  if (isReducedFloatingType(dtype)) return dtype;
  for (const std::vector<Tensor> *list : {&call.in, &call.out})
    for (const Tensor &t : *list)
      if (is_reduced(t)) return t.scalar_type();
  return std::nullopt;
}

bool records_gradients(const OpCall &call) {
  if (!autograd::GradMode::is_enabled()) return false;
  for (const std::vector<Tensor> *list : {&call.in, &call.out})
    for (const Tensor &t : *list)
      if (t.defined() && t.requires_grad()) return true;
  return false;
}

/// The storage elements [first, end) a tensor names.
std::pair<int64_t, int64_t> element_span(const Tensor &t) {
  const TensorImpl &i = *t.unsafeGetTensorImpl();
  int64_t last = i.offset;
  for (size_t d = 0; d < i.sizes.size(); ++d) {
    if (i.sizes[d] == 0) return {i.offset, i.offset};
    last += (i.sizes[d] - 1) * i.strides[d];
  }
  return {i.offset, last + 1};
}

/// Float stand-ins for a call's reduced outputs. Outputs may share storage (a reduction writes
/// through a zero-stride view of its result, and the result itself), so each storage they write
/// gets one float buffer over the span they name, starting from its values (kernels that
/// accumulate or write some positions read their output), and each output the same view of it.
struct WideOutputs {
  std::vector<Tensor> spans, buffers; ///< a reduced storage span and its float copy

  void widen(const std::vector<Tensor> &out, std::vector<Tensor> &wide) {
    std::vector<size_t> group(out.size(), SIZE_MAX);
    for (size_t i = 0; i < out.size(); ++i) {
      if (!is_reduced(out[i]) || group[i] != SIZE_MAX) continue;
      auto [lo, hi] = element_span(out[i]);
      for (size_t j = i; j < out.size(); ++j)
        if (is_reduced(out[j]) && out[j].unsafeGetTensorImpl()->storage == out[i].unsafeGetTensorImpl()->storage) {
          group[j] = spans.size();
          auto [l, h] = element_span(out[j]);
          lo = std::min(lo, l);
          hi = std::max(hi, h);
        }
      spans.push_back(make_view(out[i], {hi - lo}, {1}, lo));
      buffers.push_back(spans.back().to(kFloat));
      for (size_t j = i; j < out.size(); ++j)
        if (group[j] == spans.size() - 1) {
          const TensorImpl &o = *out[j].unsafeGetTensorImpl();
          wide[j] = make_view(buffers.back(), o.sizes, o.strides, o.offset - lo);
        }
    }
  }
  /// Rounds the results back into the reduced storage.
  void narrow() {
    for (size_t g = 0; g < spans.size(); ++g) spans[g].copy_(buffers[g]);
  }
};

/// Half and bfloat16 are storage types (graphify/core/Half.h): backends convert them and nothing
/// else, and every other op runs in float, as LibTorch's CPU kernels compute in float and round
/// once. The reduced operands are widened, the op runs on the float copies and the results are
/// rounded back into the caller's outputs, each step through run() so capture records it.
void run_in_float(OpCall &&call, ScalarType dtype, ScalarType reduced, Backend &be) {
  const ScalarType wide_dtype = isReducedFloatingType(dtype) ? kFloat : dtype;
  GFY_CHECK(be.supports(OpId::copy, reduced) && be.supports(call.op, wide_dtype), "\"", op_name(call.op), "_",
            be.name(), "\" not implemented for '", to_string(reduced), "'");
  GFY_CHECK(!records_gradients(call), "\"", op_name(call.op), "\": ", to_string(reduced),
            " tensors do not record gradients in the runtime (they are computed in float: train in float)");
  OpCall wide = call;
  for (Tensor &t : wide.in)
    if (is_reduced(t)) t = t.to(kFloat);
  WideOutputs outputs;
  outputs.widen(call.out, wide.out);
  const bool dynamic_outputs = call.out.empty();
  run(std::move(wide), wide_dtype);
  if (dynamic_outputs) {
    // The backend made the outputs (nonzero, unique): the floating ones are the reduced input's.
    for (const Tensor &t : wide.out) call.out.push_back(t.scalar_type() == kFloat ? t.to(reduced) : t);
    return;
  }
  outputs.narrow();
}

} // namespace

void run(OpCall &&call, ScalarType dtype) {
  GFY_CHECK(!call.out.empty() || !call.in.empty(), "internal error: op ", op_name(call.op), " without operands");
  const Tensor &first = call.out.empty() ? call.in.front() : call.out.front();
  // Before anything is written: LibTorch's overlap rule (MemOverlap.h). Reductions and scatter
  // write through stride-0 views on purpose (ops.def's writes_broadcast); every other op refuses
  // an output that names one element twice, and any op refuses to overwrite part of an input.
  check_write_overlap(call);
  Backend &be = backend_for(first.device().type());
  if (auto reduced = reduced_dtype(call, dtype); reduced && !be.supports(call.op, *reduced))
    return run_in_float(std::move(call), dtype, *reduced, be);
  GFY_CHECK(be.supports(call.op, dtype), "\"", op_name(call.op), "_", be.name(), "\" not implemented for '",
            to_string(dtype), "'");
  // Autograd (src/autograd): refuses what LibTorch refuses before anything is written, then gives
  // the outputs their grad_fn. Backward formulas are runtime ops too, so they come back here.
  std::optional<autograd::detail::KernelRecord> grad_record;
  if (autograd::detail::may_record(call)) grad_record.emplace(call);
  if (is_capturing()) prepare_captured_op(first.device()); // CUDA ops go to a CUDA graph (DeviceGraph.h)
  be.compute(call);
  for (const Tensor &o : call.out) ++o.unsafeGetTensorImpl()->storage->version;
  if (grad_record) grad_record->finish(call);
  if (is_capturing()) {
    // The call (and so every buffer it touches) now belongs to the tape; replay re-enters the
    // backend directly, skipping every check above.
    auto recorded = std::make_shared<OpCall>(std::move(call));
    Backend *b = &be;
    record([b, recorded] { b->compute(*recorded); }, recorded);
  }
}

} // namespace gfy::detail
