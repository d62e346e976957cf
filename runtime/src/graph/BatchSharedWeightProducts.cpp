// Post-capture pass: products that share a weight and whose inputs are all known before the first
// of them runs become one GEMM. This is the "premultiply" of RNN frameworks and cuDNN — an LSTM's
// `x_t·W_i` for every step t of a layer — found here by dataflow, not by recognising an LSTM: the
// tape says which products read the same weight, that their left operands are rows of one matrix
// (`x.select(1, t)` of a (B, T, E) input is every T-th row from row t), and that nothing writes
// that matrix, the weight or the bias between the first product and the last. Eagerly each step
// runs a GEMM of B rows, whose packing of the weight and whose thread hand-offs cost as much as its
// arithmetic; batched, the T·B rows go through one GEMM at the first product's position.
//
// Each product's own buffer then either disappears — when only the tape sees it and every node
// touching it is elementwise or a matrix product, its views are moved onto its rows of the
// batched result (a strided view: the step's rows are every T-th row) and the product's node is
// dropped, so the step's recurrent GEMM accumulates straight into those rows — or, when the
// buffer is the user's or read by other kernels, stays, filled by a copy of its rows.
//
// Invariant: every product's output gets the same values, from the same operand values, by the
// same per-element arithmetic (one BLAS call over more rows: the same K-order for every element).
// The batched GEMM runs at the first member's position, which is sound because no member's
// operands are written (or passed through a control-flow node) between there and the member.
#include "Tape.h"

#include <algorithm>
#include <map>
#include <set>

namespace gfy::detail {
namespace {

Storage *storage_of(const Tensor &t) { return t.unsafeGetTensorImpl()->storage.get(); }

/// A 2-d product `out = alpha·A·B (+ beta·bias)` into a contiguous floating CPU buffer, with `A`
/// read row by row (unit column stride) and a bias, if any, equal on every row.
bool is_candidate(const OpCall *c) {
  if (!c || c->op != OpId::mm || c->out.size() != 1 || c->in.size() < 2 || c->in.size() > 3) return false;
  const Tensor &a = c->in[0], &out = c->out[0];
  if (!out.is_cpu() || (out.scalar_type() != kFloat && out.scalar_type() != kDouble)) return false;
  if (a.dim() != 2 || c->in[1].dim() != 2 || !out.is_contiguous() || a.scalar_type() != out.scalar_type()) return false;
  if (a.size(0) < 1 || a.size(1) < 1 || out.size(1) < 1 || a.stride(1) != 1 || a.stride(0) < a.size(1)) return false;
  if (c->in.size() == 3 && c->beta != 0.0) {
    const Tensor &bias = c->in[2];
    const bool row_constant = bias.dim() == 1 || (bias.dim() == 2 && (bias.size(0) == 1 || bias.stride(0) == 0));
    if (!row_constant || storage_of(bias) == storage_of(out)) return false; // not an accumulation
  }
  return true;
}

bool has_bias(const OpCall &c) { return c.in.size() == 3 && c.beta != 0.0; }

/// The products that may share one GEMM: same weight, same bias, same coefficients, left operands
/// of the same geometry in one storage, all seeing the values of the same writes.
struct GroupKey {
  Storage *a_storage;
  std::vector<int64_t> a_sizes, a_strides;
  Storage *b_storage;
  int64_t b_offset;
  std::vector<int64_t> b_sizes, b_strides;
  Storage *bias_storage;
  int64_t bias_offset;
  std::vector<int64_t> bias_sizes, bias_strides;
  double alpha, beta;
  int64_t a_epoch, b_epoch, bias_epoch; ///< the last write to each operand before the product
  auto tie() const {
    return std::tie(a_storage, a_sizes, a_strides, b_storage, b_offset, b_sizes, b_strides, bias_storage, bias_offset,
                    bias_sizes, bias_strides, alpha, beta, a_epoch, b_epoch, bias_epoch);
  }
  bool operator<(const GroupKey &o) const { return tie() < o.tie(); }
};

/// The last node before `node` that writes `s` (-1: none).
int64_t last_write_before(const TapeAccesses &acc, Storage *s, int64_t node) {
  const std::vector<int64_t> &w = acc.use(s).writes;
  auto it = std::lower_bound(w.begin(), w.end(), node);
  return it == w.begin() ? -1 : *(it - 1);
}

GroupKey key_of(const TapeAccesses &acc, const OpCall &c, int64_t node) {
  auto geometry = [](const Tensor &t) {
    return std::make_pair(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()),
                          std::vector<int64_t>(t.strides().begin(), t.strides().end()));
  };
  const Tensor &a = c.in[0], &b = c.in[1];
  GroupKey k{};
  k.a_storage = storage_of(a);
  std::tie(k.a_sizes, k.a_strides) = geometry(a);
  k.b_storage = storage_of(b);
  k.b_offset = b.storage_offset();
  std::tie(k.b_sizes, k.b_strides) = geometry(b);
  k.alpha = c.alpha;
  k.beta = has_bias(c) ? c.beta : 0.0;
  k.a_epoch = last_write_before(acc, k.a_storage, node);
  k.b_epoch = last_write_before(acc, k.b_storage, node);
  k.bias_epoch = -1;
  if (has_bias(c)) {
    const Tensor &bias = c.in[2];
    k.bias_storage = storage_of(bias);
    k.bias_offset = bias.storage_offset();
    std::tie(k.bias_sizes, k.bias_strides) = geometry(bias);
    k.bias_epoch = last_write_before(acc, k.bias_storage, node);
  }
  return k;
}

/// How the members' left operands tile one matrix: row r of the union is member r % n's row
/// r / n when the members interleave (every n-th row, as `select(1, t)` of a (B, T, E) tensor),
/// or member r / M's row r % M when they are consecutive blocks (`narrow(0, t·M, M)`).
struct Tiling {
  int64_t first_offset = 0; ///< storage offset of the union's row 0
  int64_t row_stride = 0;   ///< between consecutive rows of the union
  bool interleaved = false;
  std::vector<int64_t> slot; ///< per member (tape order): its position t in the union
};

bool tile(const std::vector<const OpCall *> &members, Tiling &tiling) {
  const int64_t n = int64_t(members.size());
  const Tensor &a0 = members[0]->in[0];
  const int64_t M = a0.size(0), K = a0.size(1), sM = a0.stride(0);
  std::vector<int64_t> offsets;
  for (const OpCall *c : members) offsets.push_back(c->in[0].storage_offset());
  std::vector<int64_t> sorted = offsets;
  std::sort(sorted.begin(), sorted.end());
  const int64_t d = sorted[1] - sorted[0];
  for (int64_t t = 1; t < n; ++t)
    if (sorted[size_t(t)] - sorted[size_t(t - 1)] != d) return false; // also refuses repeated operands (d = 0)
  if (d >= K && (M == 1 || d * n == sM)) {
    tiling.interleaved = true;
    tiling.row_stride = d;
  } else if (sM >= K && d == M * sM) {
    tiling.interleaved = false;
    tiling.row_stride = sM;
  } else {
    return false;
  }
  tiling.first_offset = sorted[0];
  for (int64_t o : offsets) tiling.slot.push_back((o - sorted[0]) / d);
  return true;
}

/// Whether nothing writes a member's operands between the first member and the last (so that the
/// batched GEMM, run at the first member's position, reads what every member read) and no member
/// writes into an operand.
bool operands_settled(const TapeAccesses &acc, const std::vector<int64_t> &nodes, const OpCall &first) {
  const int64_t from = nodes.front(), to = nodes.back() + 1;
  for (const Tensor &t : first.in)
    if (acc.written_between(storage_of(t), from, to)) return false;
  return true;
}

/// The batched GEMM and, per member, its rows of the result and the copy that fills the member's
/// own buffer from them.
struct Batch {
  std::shared_ptr<OpCall> gemm;
  std::vector<Tensor> rows;                    ///< per member, tape order
  std::vector<std::shared_ptr<OpCall>> copies; ///< per member, tape order
};

Batch make_batch(const std::vector<const OpCall *> &members, const Tiling &tiling) {
  const OpCall &first = *members.front();
  const Tensor &a0 = first.in[0];
  const int64_t n = int64_t(members.size()), M = a0.size(0), K = a0.size(1), N = first.out[0].size(1);
  const int64_t R = n * M;
  Batch batch;
  auto gemm = std::make_shared<OpCall>(first);
  gemm->in[0] = make_view(a0, {R, K}, {tiling.row_stride, 1}, tiling.first_offset);
  if (has_bias(first)) {
    const Tensor &bias = first.in[2];
    gemm->in[2] = bias.dim() == 1 ? make_view(bias, {R, N}, {0, bias.stride(0)}, bias.storage_offset())
                                  : make_view(bias, {R, N}, {0, bias.stride(1)}, bias.storage_offset());
  }
  Tensor all = make_tensor({R, N}, first.out[0].scalar_type());
  gemm->out = {all};
  batch.gemm = gemm;
  for (size_t i = 0; i < members.size(); ++i) {
    const int64_t t = tiling.slot[i];
    Tensor rows = tiling.interleaved ? make_view(all, {M, N}, {n * N, 1}, t * N) : make_view(all, {M, N}, {N, 1}, t * M * N);
    auto copy = std::make_shared<OpCall>();
    copy->op = OpId::copy;
    copy->in = {rows};
    copy->out = {members[i]->out[0]};
    batch.rows.push_back(rows);
    batch.copies.push_back(copy);
  }
  return batch;
}

/// Where a view of a member's (dense, offset 0, M × N) buffer lands in its rows of the batched
/// result, whose row stride is `row_stride`: element i·N + j goes to rows.offset + i·row_stride + j.
/// False when a dimension of the view crosses rows other than by whole rows.
bool rebased(const TensorImpl &view, const TensorImpl &rows, int64_t N, int64_t row_stride, int64_t &offset,
             std::vector<int64_t> &strides) {
  const int64_t row = view.offset / N, col = view.offset % N;
  offset = rows.offset + row * row_stride + col;
  strides.assign(view.strides.begin(), view.strides.end());
  int64_t reach = col; // the last column a within-row dimension reaches
  for (size_t d = 0; d < view.sizes.size(); ++d) {
    const int64_t st = view.strides[d], n = view.sizes[d];
    if (n <= 1) continue;
    if (st % N == 0) {
      strides[d] = st / N * row_stride;
    } else if (st > 0 && st < N) {
      reach += (n - 1) * st;
    } else {
      return false;
    }
  }
  return reach < N;
}

/// A node that may touch a member's buffer after it moved into the batched result: elementwise
/// kernels take any strides, and the CPU product writes a 2-d output with a row stride (ldc).
bool takes_strided_rows(const OpCall *c, Storage *st) {
  if (!c) return false; // a control-flow node
  const OpKind kind = op_kind(c->op);
  if (kind == OpKind::unary || kind == OpKind::binary || kind == OpKind::ternary) return true;
  if (c->op != OpId::mm) return false;
  return std::all_of(c->out.begin(), c->out.end(), [&](const Tensor &o) { return storage_of(o) != st || o.dim() == 2; });
}

/// Whether member `node`'s buffer can move into its rows of the batched result: only the tape's
/// kernels see it, the member writes all of it first, every other node touching it takes strided
/// rows, and every view of it lands inside its rows.
bool can_move_into_rows(const Tape &tape, const TapeAccesses &acc, int64_t node, const Tensor &rows) {
  const Tensor &out = tape.calls[size_t(node)]->out[0];
  Storage *st = storage_of(out);
  const TensorImpl &o = *out.unsafeGetTensorImpl();
  if (!acc.tape_private(st) || o.offset != 0 || size_t(o.numel) * element_size(o.dtype) != st->nbytes) return false;
  const TapeAccesses::Use &u = acc.use(st);
  if (!u.first_is_write || u.nodes.front() != node) return false;
  for (size_t k = 1; k < u.nodes.size(); ++k)
    if (!takes_strided_rows(tape.calls[size_t(u.nodes[k])].get(), st)) return false;
  const int64_t N = out.size(1), row_stride = rows.stride(0);
  int64_t offset;
  std::vector<int64_t> strides;
  for (const TensorImpl *v : u.impls)
    if (!rebased(*v, *rows.unsafeGetTensorImpl(), N, row_stride, offset, strides)) return false;
  return true;
}

/// Moves every view of the member's buffer onto its rows (the views are the tape's alone, so
/// editing them in place re-points every call that holds them); the buffer itself is released.
void move_into_rows(const TapeAccesses &acc, const Tensor &out, const Tensor &rows) {
  const TensorImpl &r = *rows.unsafeGetTensorImpl();
  const int64_t N = out.size(1), row_stride = rows.stride(0);
  for (TensorImpl *v : acc.use(storage_of(out)).impls) {
    int64_t offset;
    std::vector<int64_t> strides;
    rebased(*v, r, N, row_stride, offset, strides);
    v->storage = r.storage;
    v->offset = offset;
    v->strides = std::move(strides);
    v->is_view = true;
    v->refresh();
  }
}

} // namespace

int64_t batch_shared_weight_products(Tape &tape) {
  const TapeAccesses acc(tape);
  const int64_t n = int64_t(tape.calls.size());
  std::map<GroupKey, std::vector<int64_t>> groups;
  for (int64_t i = 0; i < n; ++i) {
    const OpCall *c = tape.calls[size_t(i)].get();
    if (is_candidate(c)) groups[key_of(acc, *c, i)].push_back(i);
  }
  // Every decision is taken on the recorded tape (`acc`) before anything moves.
  struct Planned {
    std::vector<int64_t> nodes;
    std::vector<const OpCall *> members;
    Batch batch;
    bool move = true;
  };
  std::vector<Planned> plans;
  std::set<Storage *> operands; // read by some batched product: never moved under it
  for (const auto &[key, nodes] : groups) {
    if (nodes.size() < 2) continue;
    Planned p{nodes, {}, {}, true};
    for (int64_t i : nodes) p.members.push_back(tape.calls[size_t(i)].get());
    Tiling tiling;
    if (!tile(p.members, tiling) || !operands_settled(acc, nodes, *p.members.front())) continue;
    bool writes_operand = false;
    for (const OpCall *m : p.members)
      for (const Tensor &t : p.members.front()->in) writes_operand = writes_operand || storage_of(m->out[0]) == storage_of(t);
    if (writes_operand) continue;
    p.batch = make_batch(p.members, tiling);
    for (size_t k = 0; k < nodes.size() && p.move; ++k) p.move = can_move_into_rows(tape, acc, nodes[k], p.batch.rows[k]);
    for (const Tensor &t : p.members.front()->in) operands.insert(storage_of(t));
    plans.push_back(std::move(p));
  }
  // Per node: what replaces it (the batched GEMM goes before the first member's own replacement).
  std::vector<std::vector<std::shared_ptr<OpCall>>> replacement(static_cast<size_t>(n));
  std::vector<bool> replaced(static_cast<size_t>(n), false);
  int64_t batched = 0;
  for (Planned &p : plans) {
    for (const OpCall *m : p.members) p.move = p.move && !operands.count(storage_of(m->out[0]));
    replacement[size_t(p.nodes.front())].push_back(p.batch.gemm);
    for (size_t k = 0; k < p.nodes.size(); ++k) {
      if (!p.move) replacement[size_t(p.nodes[k])].push_back(p.batch.copies[k]);
      replaced[size_t(p.nodes[k])] = true;
    }
    batched += int64_t(p.nodes.size());
  }
  for (Planned &p : plans)
    if (p.move)
      for (size_t k = 0; k < p.members.size(); ++k) move_into_rows(acc, p.members[k]->out[0], p.batch.rows[k]);
  if (batched == 0) return 0;
  Tape rebuilt;
  for (int64_t i = 0; i < n; ++i) {
    if (!replaced[size_t(i)]) {
      rebuilt.nodes.push_back(std::move(tape.nodes[size_t(i)]));
      rebuilt.calls.push_back(std::move(tape.calls[size_t(i)]));
      continue;
    }
    for (auto &c : replacement[size_t(i)]) {
      rebuilt.nodes.push_back(kernel_node(c));
      rebuilt.calls.push_back(c);
    }
  }
  tape.nodes = std::move(rebuilt.nodes);
  tape.calls = std::move(rebuilt.calls);
  return batched;
}

} // namespace gfy::detail
