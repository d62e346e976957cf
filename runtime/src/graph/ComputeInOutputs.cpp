// Post-capture pass: an intermediate that dies at the node writing a graph output is computed in
// the output's memory, and that node runs in place. Eagerly, `out = log_softmax(x·W + b)` writes
// the logits to one buffer and the result to another, so the last op reads one large buffer and
// writes (first fetching it, for the write) a second; on the tape the logits can live in `out`
// itself, since nothing looks at `out` until that last op overwrites it.
//
// Invariant: the output's memory is free while the intermediate lives: no node from the
// intermediate's first write up to the sink node touches the output's storage, the sink's other
// operands do not share it, and the sink's kernel computes each output element from the same
// element of the intermediate only (elementwise ops; softmax along a contiguous last dim, which
// reads a whole lane before it writes it), so running it in place gives the same values.
#include "Tape.h"

namespace gfy::detail {
namespace {

/// Kernels whose output element i depends only on element i of each input (ops.def trait
/// in_output), or on the lane of i along the last dim, read completely before any of it is
/// written (in_output_by_lane: softmax): safe with out aliasing an input of the same layout.
bool in_place_safe(const OpCall &c) {
  if (op_computes_in_output(c.op)) return true;
  if (op_computes_in_output_by_lane(c.op)) return c.in[0].dim() > 0 && c.dim == c.in[0].dim() - 1;
  return false;
}

/// `t` is a contiguous CPU tensor that spans its whole storage from offset 0.
bool whole_contiguous_buffer(const Tensor &t) {
  const TensorImpl &i = *t.unsafeGetTensorImpl();
  return t.is_cpu() && i.contiguous && i.offset == 0 &&
         i.storage->nbytes == size_t(i.numel) * element_size(i.dtype) && i.storage->backend != nullptr;
}

/// Whether the node at `n` can compute its input `j` in place of its output; see the file comment.
bool can_host(const TapeAccesses &acc, const OpCall &c, size_t j, int64_t n) {
  const Tensor &out = c.out[0], &in = c.in[j];
  if (!in.defined() || !whole_contiguous_buffer(in) || !out.is_cpu() || !out.is_contiguous()) return false;
  if (in.scalar_type() != out.scalar_type() || !(in.sizes() == out.sizes()) || in.numel() == 0) return false;
  Storage *si = in.unsafeGetTensorImpl()->storage.get(), *so = out.unsafeGetTensorImpl()->storage.get();
  if (si == so || !acc.tape_private(si)) return false;
  // The output must be user-visible memory: a private output is the memory planner's to move,
  // which would leave the intermediate pointing at the old buffer.
  if (acc.tape_private(so)) return false;
  const TapeAccesses::Use &ui = acc.use(si);
  if (!ui.first_is_write || ui.nodes.back() != n) return false;
  const int64_t first = ui.nodes.front();
  if (acc.touched_between(so, first - 1, n)) return false;
  for (size_t k = 0; k < c.in.size(); ++k)
    if (k != j && c.in[k].defined() && c.in[k].unsafeGetTensorImpl()->storage.get() == so) return false;
  return true;
}

} // namespace

int64_t compute_in_outputs(Tape &tape) {
  const TapeAccesses acc(tape);
  int64_t moved = 0;
  for (size_t n = 0; n < tape.calls.size(); ++n) {
    const OpCall *c = tape.calls[n].get();
    if (!c || c->out.size() != 1 || !in_place_safe(*c)) continue;
    for (size_t j = 0; j < c->in.size(); ++j) {
      if (!can_host(acc, *c, j, int64_t(n))) continue;
      Storage &st = *c->in[j].unsafeGetTensorImpl()->storage;
      // The intermediate's own buffer goes back to the cache; it now lives in the output, which
      // the sink's call keeps alive (backend = null: this Storage frees nothing, and the memory
      // planner leaves it alone).
      st.backend->deallocate(st.data, st.nbytes);
      st.data = c->out[0].unsafeGetTensorImpl()->data();
      st.backend = nullptr;
      ++moved;
      break;
    }
  }
  return moved;
}

} // namespace gfy::detail
