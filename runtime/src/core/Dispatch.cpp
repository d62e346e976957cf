// detail::run, the one path every kernel-running op takes (STYLE.md §9): eager execution and
// graph capture share it. Invariant: a call reaches a backend only after the checks every backend
// relies on (no output is written twice through a broadcast dim unless ops.def marks its op
// writes_broadcast; the backend supports the op for the dtype), and under capture it is recorded
// exactly as it ran, so replay re-enters the backend without repeating them. While grad mode is on
// and an operand takes part in autograd, the launch is also recorded for backward (KernelRecord).
#include "OpsCommon.h"

#include "../autograd/AutogradMeta.h"

namespace gfy::detail {

void run(OpCall &&call, ScalarType dtype) {
  GFY_CHECK(!call.out.empty() || !call.in.empty(), "internal error: op ", op_name(call.op), " without operands");
  const Tensor &first = call.out.empty() ? call.in.front() : call.out.front();
  // Writing through a stride-0 (expanded) dimension would race on one element. Reductions and
  // scatter write through such views on purpose (built by their front-ends): ops.def marks them
  // writes_broadcast, and they are exempt.
  if (!op_writes_through_broadcast(call.op))
    for (const Tensor &o : call.out) {
      const TensorImpl &oi = *o.unsafeGetTensorImpl();
      for (size_t d = 0; d < oi.sizes.size(); ++d)
        GFY_CHECK(oi.strides[d] != 0 || oi.sizes[d] <= 1,
                  "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                  "location. Please clone() the tensor before performing the operation.");
    }
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
