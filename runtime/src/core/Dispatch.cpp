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

namespace gfy::detail {

void run(OpCall &&call, ScalarType dtype) {
  GFY_CHECK(!call.out.empty() || !call.in.empty(), "internal error: op ", op_name(call.op), " without operands");
  const Tensor &first = call.out.empty() ? call.in.front() : call.out.front();
  // Before anything is written: LibTorch's overlap rule (MemOverlap.h). Reductions and scatter
  // write through stride-0 views on purpose (ops.def's writes_broadcast); every other op refuses
  // an output that names one element twice, and any op refuses to overwrite part of an input.
  check_write_overlap(call);
  Backend &be = backend_for(first.device().type());
  GFY_CHECK(be.supports(call.op, dtype), "\"", op_name(call.op), "_", be.name(), "\" not implemented for '",
            to_string(dtype), "'");
  // Autograd (src/autograd): refuses what LibTorch refuses before anything is written, then gives
  // the outputs their grad_fn. Backward formulas are runtime ops too, so they come back here.
  std::optional<autograd::detail::KernelRecord> grad_record;
  if (autograd::detail::may_record(call)) grad_record.emplace(call);
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
