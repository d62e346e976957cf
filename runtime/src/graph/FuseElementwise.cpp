// Post-capture pass: runs of consecutive elementwise kernels over one shape become one loop
// (cpu/FusedElementwise.h) that takes each chunk of a row through every op while it is in L1.
// Eagerly an LSTM cell's nine gate ops each stream whole (B, H) buffers and run single-threaded
// below the parallel threshold; fused, the values nobody else reads never reach memory and the
// rows are split over the pool.
//
// Invariant: executing the run chunk by chunk gives what executing it op by op gives. Each op's
// element i depends only on element i of its operands, so this holds when every buffer the run
// writes is accessed, within the run, through one view (one element <-> one address); buffers
// only read may be viewed any way. A written buffer is stored back unless it is tape private and
// nothing outside the run touches it.
#include "Tape.h"

#include "../cpu/KernelTable.h"

namespace gfy::detail {
namespace {

using cpu::FusedElementwise;

bool candidate(const OpCall *c) {
  if (!c || !op_is_fusable(c->op) || c->out.size() != 1) return false;
  const Tensor &o = c->out[0];
  if (!o.is_cpu() || (o.scalar_type() != kFloat && o.scalar_type() != kDouble)) return false;
  const size_t arity = op_kind(c->op) == OpKind::binary ? 2 : 1; // fusable ops are unary or binary (ops.def)
  if (c->in.size() != arity) return false;
  for (const Tensor &t : c->in)
    if (!t.defined() || !t.is_cpu() || t.scalar_type() != o.scalar_type() || !(t.sizes() == o.sizes())) return false;
  return true;
}

Storage *storage_of(const Tensor &t) { return t.unsafeGetTensorImpl()->storage.get(); }

/// A run being assembled: the program so far and how each view maps to a slot.
class RunBuilder {
public:
  RunBuilder(const OpCall &first) {
    program_.dtype = first.out[0].scalar_type();
    program_.shape = first.out[0].sizes().vec();
  }

  /// Adds `c` to the run when the one-view-per-written-buffer rule still holds.
  bool add(const OpCall &c) {
    if (c.out[0].scalar_type() != program_.dtype || !(c.out[0].sizes() == IntArrayRef(program_.shape))) return false;
    for (const Tensor &t : c.in)
      if (!consistent(t, false)) return false;
    if (!consistent(c.out[0], true)) return false;
    FusedElementwise::Step s{c.op, 0, slot_for_read(c.in[0]), c.in.size() > 1 ? slot_for_read(c.in[1]) : -1, c.alpha};
    s.out = program_.num_slots++;
    bind(c.out[0], s.out);
    written_.push_back(c.out[0]);
    program_.steps.push_back(s);
    return true;
  }

  size_t size() const { return program_.steps.size(); }

  /// Finishes the program: stores every written buffer that someone outside [first, last] sees.
  std::shared_ptr<FusedElementwise> finish(const TapeAccesses &acc, int64_t first, int64_t last) {
    for (const Tensor &w : written_) {
      bool stored = false;
      for (const auto &[k, t] : program_.stores) stored = stored || same_view(t, w);
      if (stored) continue;
      Storage *st = storage_of(w);
      const auto &nodes = acc.use(st).nodes;
      const bool scratch = acc.tape_private(st) && nodes.front() >= first && nodes.back() <= last;
      if (!scratch) program_.stores.push_back({current_slot(w), w});
    }
    return std::make_shared<FusedElementwise>(program_);
  }

private:
  FusedElementwise program_;
  std::vector<std::pair<Tensor, int>> slots_; ///< the current slot of each view seen
  std::vector<Tensor> written_;

  /// A buffer written in the run is accessed through one view only.
  bool consistent(const Tensor &t, bool write) const {
    Storage *st = storage_of(t);
    bool written = write;
    for (const Tensor &w : written_) written = written || storage_of(w) == st;
    if (!written) return true;
    for (const auto &[v, k] : slots_)
      if (storage_of(v) == st && !same_view(v, t)) return false;
    return true;
  }
  int current_slot(const Tensor &t) const {
    for (const auto &[v, k] : slots_)
      if (same_view(v, t)) return k;
    return -1;
  }
  int slot_for_read(const Tensor &t) {
    int k = current_slot(t);
    if (k >= 0) return k;
    k = program_.num_slots++;
    program_.loads.push_back({k, t});
    slots_.push_back({t, k});
    return k;
  }
  void bind(const Tensor &t, int k) {
    for (auto &[v, slot] : slots_)
      if (same_view(v, t)) {
        slot = k;
        return;
      }
    slots_.push_back({t, k});
  }
};

/// The tape node of a fused run, and a call listing what it reads and writes (for the memory
/// planner; the op id is a placeholder: the node runs the program, never the backend).
std::pair<std::function<void()>, std::shared_ptr<OpCall>> fused_node(std::shared_ptr<FusedElementwise> p) {
  auto call = std::make_shared<OpCall>();
  call->op = OpId::copy;
  for (const auto &[k, t] : p->loads) call->in.push_back(t);
  for (const auto &[k, t] : p->stores) call->out.push_back(t);
  return {[p] { cpu::kernels().fused_elementwise(*p); }, call};
}

} // namespace

int64_t fuse_elementwise(Tape &tape) {
  const TapeAccesses acc(tape);
  const int64_t n = int64_t(tape.calls.size());
  Tape rebuilt;
  int64_t removed = 0;
  for (int64_t i = 0; i < n;) {
    if (!candidate(tape.calls[size_t(i)].get())) {
      rebuilt.nodes.push_back(std::move(tape.nodes[size_t(i)]));
      rebuilt.calls.push_back(std::move(tape.calls[size_t(i)]));
      ++i;
      continue;
    }
    RunBuilder run(*tape.calls[size_t(i)]);
    int64_t j = i;
    while (j < n && candidate(tape.calls[size_t(j)].get()) && run.add(*tape.calls[size_t(j)])) ++j;
    if (j - i < 2) {
      rebuilt.nodes.push_back(std::move(tape.nodes[size_t(i)]));
      rebuilt.calls.push_back(std::move(tape.calls[size_t(i)]));
      ++i;
      continue;
    }
    auto [node, call] = fused_node(run.finish(acc, i, j - 1));
    rebuilt.nodes.push_back(std::move(node));
    rebuilt.calls.push_back(std::move(call));
    removed += j - i - 1;
    i = j;
  }
  tape.nodes = std::move(rebuilt.nodes);
  tape.calls = std::move(rebuilt.calls);
  return removed;
}

} // namespace gfy::detail
