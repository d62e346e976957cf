// Post-capture fusion of linear combinations of matrix products. Eagerly, `x·W + h·U + b` costs
// two GEMMs that each clear a fresh buffer (BLAS beta = 0), then two elementwise adds that read
// and write whole buffers again. Once the graph is captured we know what eager execution cannot:
// that nobody else reads the partial sums. So the sum becomes one buffer that a copy of `b`
// initialises and both GEMMs accumulate into (beta = 1): the products' buffers and the adds
// disappear. For an LSTM's gates that is two passes per step; for a vocabulary projection plus
// bias it is two passes over the largest tensor of the model.
//
// Invariant: the rewritten tape computes the same sum from the same operand values. Every
// operand is read later than before (at the sum's node instead of the product's), so the pass
// proves that nothing writes an operand in between; every buffer it drops is tape private and
// was read by nobody but the sum. Only the order of the additions changes (last-bit rounding).
#include "Tape.h"

#include <algorithm>

namespace gfy::detail {
namespace {

/// coef * (A·B), or coef * tensor.
struct Term {
  double coef = 1;
  std::shared_ptr<OpCall> product; ///< an mm call without bias, or null for a plain tensor
  Tensor tensor;                   ///< the summand when `product` is null
  int64_t read_at = 0;             ///< the node that read the operands in the recorded tape
};

bool is_cpu_floating(const Tensor &t) {
  return t.defined() && t.is_cpu() && (t.scalar_type() == kFloat || t.scalar_type() == kDouble);
}

/// add/sub of two same-dtype operands into a contiguous floating CPU tensor.
bool is_sum(const OpCall *c) {
  if (!c || (c->op != OpId::add && c->op != OpId::sub) || c->in.size() != 2 || c->out.size() != 1) return false;
  const Tensor &o = c->out[0];
  return is_cpu_floating(o) && o.is_contiguous() && c->in[0].scalar_type() == o.scalar_type() &&
         c->in[1].scalar_type() == o.scalar_type();
}

/// A plain (not batched) or batched product with no bias term, writing a contiguous buffer.
bool is_bare_product(const OpCall *c) {
  return c && c->op == OpId::mm && c->out.size() == 1 && (c->in.size() == 2 || c->beta == 0.0) &&
         is_cpu_floating(c->out[0]) && c->out[0].is_contiguous();
}

Storage *storage_of(const Tensor &t) { return t.unsafeGetTensorImpl()->storage.get(); }

class LinearCombinationFuser {
public:
  explicit LinearCombinationFuser(Tape &tape) : tape_(tape), acc_(tape), gone_(tape.calls.size(), false) {}

  int64_t run() {
    const int64_t n = int64_t(tape_.calls.size());
    std::vector<std::vector<std::shared_ptr<OpCall>>> replacement(static_cast<size_t>(n));
    // From the end: a sum's operands are expanded before the sum itself could be taken as the
    // root of a smaller combination.
    for (int64_t k = n - 1; k >= 0; --k) {
      if (gone_[size_t(k)] || !is_sum(tape_.calls[size_t(k)].get())) continue;
      std::vector<Term> terms;
      std::vector<int64_t> absorbed;
      collect(k, 1.0, terms, absorbed);
      const Tensor &out = tape_.calls[size_t(k)]->out[0];
      if (!worth_it(terms) || !safe(terms, out, k)) continue;
      replacement[size_t(k)] = emit(terms, out);
      gone_[size_t(k)] = true;
      for (int64_t a : absorbed) gone_[size_t(a)] = true;
    }
    // Survivors keep their order; each fused sum's calls take the place of its root.
    Tape rebuilt;
    for (int64_t i = 0; i < n; ++i) {
      if (!gone_[size_t(i)]) {
        rebuilt.nodes.push_back(std::move(tape_.nodes[size_t(i)]));
        rebuilt.calls.push_back(std::move(tape_.calls[size_t(i)]));
      }
      for (auto &c : replacement[size_t(i)]) {
        rebuilt.nodes.push_back(kernel_node(c));
        rebuilt.calls.push_back(c);
      }
    }
    tape_.nodes = std::move(rebuilt.nodes);
    tape_.calls = std::move(rebuilt.calls);
    return n - int64_t(tape_.calls.size());
  }

private:
  Tape &tape_;
  const TapeAccesses acc_;
  std::vector<bool> gone_;

  /// Appends the terms of the sum at node `k`, scaled by `coef`, expanding operands that are
  /// private products or private sums read only here.
  void collect(int64_t k, double coef, std::vector<Term> &terms, std::vector<int64_t> &absorbed) {
    const OpCall &c = *tape_.calls[size_t(k)];
    const double second = c.op == OpId::add ? c.alpha : -c.alpha;
    for (int j = 0; j < 2; ++j) {
      const Tensor &t = c.in[size_t(j)];
      const double cj = coef * (j == 0 ? 1.0 : second);
      const int64_t p = sole_producer(t, k);
      const OpCall *pc = p >= 0 ? tape_.calls[size_t(p)].get() : nullptr;
      if (pc && is_bare_product(pc) && same_view(pc->out[0], t)) {
        terms.push_back({cj, tape_.calls[size_t(p)], Tensor(), p});
        absorbed.push_back(p);
      } else if (pc && is_sum(pc) && same_view(pc->out[0], t)) {
        collect(p, cj, terms, absorbed);
        absorbed.push_back(p);
      } else {
        terms.push_back({cj, nullptr, t, k});
      }
    }
  }

  /// The node that wrote `t`'s buffer when the buffer is tape private and touched by exactly
  /// two nodes, that writer and `consumer`; -1 otherwise.
  int64_t sole_producer(const Tensor &t, int64_t consumer) const {
    if (!t.defined() || !t.is_cpu()) return -1;
    Storage *st = storage_of(t);
    if (!acc_.tape_private(st)) return -1;
    const TapeAccesses::Use &u = acc_.use(st);
    if (u.nodes.size() != 2 || u.nodes[1] != consumer || u.writes.size() != 1 || u.writes[0] != u.nodes[0]) return -1;
    const int64_t p = u.nodes[0];
    return gone_[size_t(p)] ? -1 : p;
  }

  static bool worth_it(const std::vector<Term> &terms) {
    return std::any_of(terms.begin(), terms.end(), [](const Term &t) { return t.product != nullptr; });
  }

  /// Every operand keeps its value from its original read to node `k`, and none overlaps the
  /// output except a tensor term that is exactly the output (an in-place `y += x·W`).
  bool safe(const std::vector<Term> &terms, const Tensor &out, int64_t k) const {
    Storage *o = storage_of(out);
    int exact_out_terms = 0;
    auto unchanged = [&](const Tensor &t, int64_t since) {
      Storage *st = storage_of(t);
      return !acc_.written_between(st, since, k);
    };
    for (const Term &t : terms) {
      if (t.coef == 0.0) return false; // 0 * inf is NaN eagerly; a dropped term would not be
      if (t.product) {
        for (size_t i = 0; i < 2; ++i) {
          const Tensor &operand = t.product->in[i];
          if (storage_of(operand) == o || !unchanged(operand, t.read_at)) return false;
        }
        if (!(t.product->out[0].sizes() == out.sizes())) return false;
      } else {
        if (storage_of(t.tensor) == o) {
          if (!same_view(t.tensor, out)) return false;
          ++exact_out_terms;
        }
        if (!unchanged(t.tensor, t.read_at)) return false;
      }
    }
    return exact_out_terms <= 1;
  }

  /// out = first tensor term (scaled) + the other tensor terms, then every product accumulates.
  static std::vector<std::shared_ptr<OpCall>> emit(std::vector<Term> terms, const Tensor &out) {
    // The tensor term that is the output itself must be consumed before anything overwrites it.
    std::stable_partition(terms.begin(), terms.end(),
                          [&](const Term &t) { return !t.product && same_view(t.tensor, out); });
    std::stable_partition(terms.begin(), terms.end(), [](const Term &t) { return !t.product; });
    std::vector<std::shared_ptr<OpCall>> calls;
    auto first_product = std::find_if(terms.begin(), terms.end(), [](const Term &t) { return t.product != nullptr; });
    const Term *init = terms.front().product ? nullptr : &terms.front();
    auto product_call = [&](const Term &t, const Tensor *bias, double beta) {
      auto c = std::make_shared<OpCall>(*t.product);
      c->in.resize(2);
      if (bias) c->in.push_back(*bias);
      c->beta = bias ? beta : 0.0;
      c->alpha = t.product->alpha * t.coef;
      c->out = {out};
      return c;
    };
    calls.push_back(product_call(*first_product, init ? &init->tensor : nullptr, init ? init->coef : 0.0));
    for (auto it = terms.begin(); it != terms.end(); ++it) {
      if (it->product || &*it == init) continue;
      auto c = std::make_shared<OpCall>();
      c->op = OpId::add; // out = out + coef * tensor
      c->in = {out, it->tensor};
      c->out = {out};
      c->alpha = it->coef;
      calls.push_back(c);
    }
    for (auto it = first_product + 1; it != terms.end(); ++it) calls.push_back(product_call(*it, &out, 1.0));
    return calls;
  }
};

} // namespace

int64_t fuse_linear_combinations(Tape &tape) { return LinearCombinationFuser(tape).run(); }

} // namespace gfy::detail
