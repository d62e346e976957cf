// einsum as sums, permutes and batched matrix products. The equation is parsed into one label
// list per operand (`...` becomes as many private labels as the operand has unnamed dims, right
// aligned across operands) and an output list (explicit after `->`, or LibTorch's implicit one:
// the broadcast dims, then the labels used once, alphabetically). Operands are then contracted
// left to right: labels no later operand or the output needs are summed out as soon as possible,
// and each pair becomes one bmm of (batch, left-only, contracted) x (batch, contracted,
// right-only). This is the order of operations LibTorch's own einsum uses, so the results agree
// to rounding.
#include "OpsCommon.h"

#include <algorithm>
#include <map>
#include <string>

namespace gfy {
using namespace detail;

namespace {

// Labels are ints: letters keep their char code, ellipsis dims count down from -1 (the last
// ellipsis dim is -1), so that they sort before letters and align from the right.
using Label = int;

struct Operand {
  Tensor t;
  std::vector<Label> labels; // one per dim of t
};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// Parses one operand's subscripts; `ell` receives the number of dims `...` stands for.
std::vector<Label> parse_term(const std::string &term, int64_t ndim, int64_t &ell, bool &has_ell) {
  std::vector<Label> letters_before, letters_after;
  has_ell = false;
  for (size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (c == ' ') continue;
    if (c == '.') {
      GFY_CHECK(!has_ell && term.compare(i, 3, "...") == 0, "einsum(): found '.' for operand that is not part of any ellipsis");
      has_ell = true;
      i += 2;
      continue;
    }
    GFY_CHECK(is_letter(c), "einsum(): invalid subscript given at index ", i, " in the equation string, subscripts must be in [a-zA-Z]");
    (has_ell ? letters_after : letters_before).push_back(c);
  }
  const int64_t named = static_cast<int64_t>(letters_before.size() + letters_after.size());
  if (has_ell) {
    GFY_CHECK(named <= ndim, "einsum(): the number of subscripts in the equation (", named,
              ") is more than the number of dimensions (", ndim, ") for operand");
  } else {
    GFY_CHECK(named == ndim, "einsum(): the number of subscripts in the equation (", named,
              ") does not match the number of dimensions (", ndim, ") for operand and no ellipsis was given");
  }
  ell = has_ell ? ndim - named : 0;
  std::vector<Label> labels = letters_before;
  for (int64_t e = ell; e >= 1; --e) labels.push_back(static_cast<Label>(-e));
  labels.insert(labels.end(), letters_after.begin(), letters_after.end());
  return labels;
}

/// Sums `op` over the dims whose label is not in `keep`.
void sum_out(Operand &op, const std::vector<Label> &keep) {
  std::vector<int64_t> dims;
  std::vector<Label> rest;
  for (size_t d = 0; d < op.labels.size(); ++d) {
    if (std::find(keep.begin(), keep.end(), op.labels[d]) == keep.end()) dims.push_back(static_cast<int64_t>(d));
    else rest.push_back(op.labels[d]);
  }
  if (dims.empty()) return;
  op.t = sum(op.t, dims);
  op.labels = rest;
}

int64_t size_of(const Operand &op, Label l) {
  for (size_t d = 0; d < op.labels.size(); ++d)
    if (op.labels[d] == l) return op.t.size(static_cast<int64_t>(d));
  return 1;
}

/// Permutes `op` to the label order `order` (a permutation of its labels).
Tensor permuted(const Operand &op, const std::vector<Label> &order) {
  std::vector<int64_t> perm;
  for (Label l : order) perm.push_back(std::find(op.labels.begin(), op.labels.end(), l) - op.labels.begin());
  return op.t.permute(perm);
}

int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

/// Contracts a with b, keeping the labels in `keep`; the result's labels are batch, a-only, b-only.
Operand contract(Operand a, Operand b, const std::vector<Label> &keep) {
  auto in = [](const std::vector<Label> &v, Label l) { return std::find(v.begin(), v.end(), l) != v.end(); };
  std::vector<Label> batch, a_only, b_only, summed;
  for (Label l : a.labels) {
    if (in(b.labels, l)) (in(keep, l) ? batch : summed).push_back(l);
    else a_only.push_back(l);
  }
  for (Label l : b.labels)
    if (!in(a.labels, l)) b_only.push_back(l);
  // Shared labels broadcast: a size-1 dim on one side takes the other side's size.
  std::vector<int64_t> bs, ks, ms, ns;
  for (Label l : batch) bs.push_back(std::max(size_of(a, l), size_of(b, l)));
  for (Label l : summed) ks.push_back(std::max(size_of(a, l), size_of(b, l)));
  for (Label l : a_only) ms.push_back(size_of(a, l));
  for (Label l : b_only) ns.push_back(size_of(b, l));
  for (Label l : batch) GFY_CHECK(size_of(a, l) == size_of(b, l) || size_of(a, l) == 1 || size_of(b, l) == 1,
                                  "einsum(): operands do not broadcast with remapped shapes (original->remapped)");
  for (Label l : summed) GFY_CHECK(size_of(a, l) == size_of(b, l) || size_of(a, l) == 1 || size_of(b, l) == 1,
                                   "einsum(): operands do not broadcast with remapped shapes (original->remapped)");
  // A summed label of size 1 on one side only is a broadcast, not a contraction of unequal sizes.
  std::vector<Label> a_order = batch, b_order = batch;
  a_order.insert(a_order.end(), a_only.begin(), a_only.end());
  a_order.insert(a_order.end(), summed.begin(), summed.end());
  b_order.insert(b_order.end(), summed.begin(), summed.end());
  b_order.insert(b_order.end(), b_only.begin(), b_only.end());
  std::vector<int64_t> a_shape = bs, b_shape = bs;
  a_shape.insert(a_shape.end(), ms.begin(), ms.end());
  a_shape.insert(a_shape.end(), ks.begin(), ks.end());
  b_shape.insert(b_shape.end(), ks.begin(), ks.end());
  b_shape.insert(b_shape.end(), ns.begin(), ns.end());
  Tensor at = permuted(a, a_order).expand(a_shape).reshape({product(bs), product(ms), product(ks)});
  Tensor bt = permuted(b, b_order).expand(b_shape).reshape({product(bs), product(ks), product(ns)});
  std::vector<int64_t> out_shape = bs;
  out_shape.insert(out_shape.end(), ms.begin(), ms.end());
  out_shape.insert(out_shape.end(), ns.begin(), ns.end());
  Operand r;
  r.t = bmm(at, bt).view(out_shape);
  r.labels = batch;
  r.labels.insert(r.labels.end(), a_only.begin(), a_only.end());
  r.labels.insert(r.labels.end(), b_only.begin(), b_only.end());
  return r;
}

} // namespace

Tensor einsum(std::string_view equation_view, const std::vector<Tensor> &tensors) {
  const std::string equation(equation_view);
  GFY_CHECK(!tensors.empty(), "einsum(): must provide at least one operand");
  for (auto &t : tensors) check_defined(t, "operands");
  const size_t arrow = equation.find("->");
  const std::string lhs = equation.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  GFY_CHECK(terms.size() == tensors.size(), "einsum(): more operands were provided than specified in the equation");

  std::vector<Operand> ops;
  int64_t max_ell = 0;
  std::map<Label, int> uses;
  for (size_t i = 0; i < terms.size(); ++i) {
    int64_t ell = 0;
    bool has_ell = false;
    Operand op{tensors[i], parse_term(terms[i], tensors[i].dim(), ell, has_ell)};
    max_ell = std::max(max_ell, ell);
    for (size_t d = 0; d < op.labels.size(); ++d)
      for (size_t e = d + 1; e < op.labels.size(); ++e)
        GFY_CHECK(op.labels[d] != op.labels[e],
                  "einsum(): a subscript repeated within one operand (a diagonal) is not supported by the gfy runtime");
    for (Label l : op.labels) ++uses[l];
    ops.push_back(std::move(op));
  }

  std::vector<Label> output;
  if (arrow == std::string::npos) {
    for (int64_t e = max_ell; e >= 1; --e) output.push_back(static_cast<Label>(-e));
    for (auto &[l, n] : uses)
      if (l > 0 && n == 1) output.push_back(l);
  } else {
    const std::string rhs = equation.substr(arrow + 2);
    bool seen_ell = false;
    for (size_t i = 0; i < rhs.size(); ++i) {
      const char c = rhs[i];
      if (c == ' ') continue;
      if (c == '.') {
        GFY_CHECK(!seen_ell && rhs.compare(i, 3, "...") == 0, "einsum(): found '.' for output that is not part of any ellipsis");
        seen_ell = true;
        for (int64_t e = max_ell; e >= 1; --e) output.push_back(static_cast<Label>(-e));
        i += 2;
        continue;
      }
      GFY_CHECK(is_letter(c), "einsum(): invalid subscript given at index ", lhs.size() + 2 + i,
                " in the equation string, subscripts must be in [a-zA-Z]");
      GFY_CHECK(uses.count(c) > 0, "einsum(): output subscript ", c, " does not appear in the equation for any input operand");
      GFY_CHECK(std::find(output.begin(), output.end(), Label(c)) == output.end(), "einsum(): output subscript ", c,
                " appears more than once in the output");
      output.push_back(c);
    }
    // Without `...` in the output, ellipsis dims are summed over (as LibTorch does).
  }

  // Left to right: before each step, sum out what neither the output nor a later operand uses.
  auto needed_after = [&](size_t i) {
    std::vector<Label> keep = output;
    for (size_t j = i + 1; j < ops.size(); ++j) keep.insert(keep.end(), ops[j].labels.begin(), ops[j].labels.end());
    return keep;
  };
  Operand acc = ops[0];
  sum_out(acc, [&] {
    auto keep = needed_after(0);
    if (ops.size() > 1) keep.insert(keep.end(), ops[1].labels.begin(), ops[1].labels.end());
    return keep;
  }());
  for (size_t i = 1; i < ops.size(); ++i) {
    Operand b = ops[i];
    std::vector<Label> keep = needed_after(i);
    std::vector<Label> keep_b = keep;
    keep_b.insert(keep_b.end(), acc.labels.begin(), acc.labels.end());
    sum_out(b, keep_b);
    acc = contract(acc, b, keep);
  }
  sum_out(acc, output);
  // Labels of the output missing from the result are broadcast ellipsis dims of size 1.
  std::vector<int64_t> shape;
  for (Label l : output) shape.push_back(size_of(acc, l));
  std::vector<Label> present;
  for (Label l : output)
    if (std::find(acc.labels.begin(), acc.labels.end(), l) != acc.labels.end()) present.push_back(l);
  Tensor r = permuted(acc, present);
  return r.reshape(shape);
}

} // namespace gfy
