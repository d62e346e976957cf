// Buffer accesses of a tape. A tensor is "tape private" when every reference to its TensorImpl
// comes from the tape's kernel calls and every reference to its Storage from those impls: then
// no user handle, kept view or control-flow closure can observe it, and the passes may drop,
// move or merge it.
#include "Tape.h"

#include <algorithm>

namespace gfy::detail {

std::function<void()> kernel_node(std::shared_ptr<OpCall> call) {
  const Tensor &first = call->out.empty() ? call->in.front() : call->out.front();
  Backend *backend = &backend_for(first.device().type());
  return [backend, call] { backend->compute(*call); };
}

bool same_view(const Tensor &a, const Tensor &b) {
  if (!a.defined() || !b.defined()) return false;
  const TensorImpl &x = *a.unsafeGetTensorImpl(), &y = *b.unsafeGetTensorImpl();
  return x.storage == y.storage && x.offset == y.offset && x.sizes == y.sizes && x.strides == y.strides &&
         x.dtype == y.dtype;
}

TapeAccesses::TapeAccesses(const Tape &tape) {
  std::unordered_map<TensorImpl *, long> impl_refs; // references held by the tape's calls
  std::unordered_map<TensorImpl *, const std::shared_ptr<TensorImpl> *> impl_handle;
  for (size_t i = 0; i < tape.calls.size(); ++i) {
    const OpCall *c = tape.calls[i].get();
    if (!c) {
      control_nodes_.push_back(int64_t(i));
      continue;
    }
    auto touch = [&](const Tensor &t, bool write) {
      if (!t.defined()) return;
      TensorImpl *impl = t.unsafeGetTensorImpl();
      ++impl_refs[impl];
      impl_handle[impl] = &t.impl();
      Storage *st = impl->storage.get();
      auto [it, fresh] = uses_.try_emplace(st);
      Use &u = it->second;
      if (fresh) order_.push_back(st);
      if (std::find(u.impls.begin(), u.impls.end(), impl) == u.impls.end()) u.impls.push_back(impl);
      if (u.nodes.empty() || u.nodes.back() != int64_t(i)) {
        if (u.nodes.empty()) u.first_is_write = write;
        u.nodes.push_back(int64_t(i));
      } else if (u.nodes.size() == 1 && !write) {
        u.first_is_write = false; // read and written by its first node: it keeps outside data
      }
      if (write && (u.writes.empty() || u.writes.back() != int64_t(i))) u.writes.push_back(int64_t(i));
    };
    for (const Tensor &t : c->out) touch(t, true);
    for (const Tensor &t : c->in) touch(t, false);
  }
  // Decided now, from reference counts: a pass that builds new calls copies handles and would
  // make every buffer look shared.
  for (auto &[st, u] : uses_) {
    bool only_tape = true;
    for (TensorImpl *impl : u.impls) only_tape = only_tape && impl_handle.at(impl)->use_count() == impl_refs.at(impl);
    // Each TensorImpl holds one reference to its storage; any other holder is outside the tape.
    u.tape_private = only_tape && u.impls.front()->storage.use_count() == long(u.impls.size());
  }
}

bool TapeAccesses::tape_private(Storage *s) const {
  auto it = uses_.find(s);
  return it != uses_.end() && it->second.tape_private;
}

bool TapeAccesses::control_between(int64_t after, int64_t before) const {
  auto it = std::upper_bound(control_nodes_.begin(), control_nodes_.end(), after);
  return it != control_nodes_.end() && *it < before;
}

bool TapeAccesses::written_between(Storage *s, int64_t after, int64_t before) const {
  if (control_between(after, before)) return true;
  const std::vector<int64_t> &w = uses_.at(s).writes;
  auto it = std::upper_bound(w.begin(), w.end(), after);
  return it != w.end() && *it < before;
}

bool TapeAccesses::touched_between(Storage *s, int64_t after, int64_t before) const {
  if (control_between(after, before)) return true;
  const std::vector<int64_t> &n = uses_.at(s).nodes;
  auto it = std::upper_bound(n.begin(), n.end(), after);
  return it != n.end() && *it < before;
}

} // namespace gfy::detail
