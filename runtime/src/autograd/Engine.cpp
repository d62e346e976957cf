// The backward engine: walks the graph of nodes from the outputs' gradient edges and runs each
// node once every node that feeds it has run (dependency counts), later-created nodes first, as
// LibTorch's engine does on one thread. Invariant: a node's gradient buffer is complete when it
// runs, and every gradient it returns has the shape of the forward input it belongs to (checked
// here, so a wrong formula fails loudly instead of broadcasting).
#include "AutogradMeta.h"

#include <graphify/core/Functions.h>

#include <algorithm>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace gfy::autograd {

namespace detail {
using gfy::detail::str_cat;

namespace {

/// Whether only this handle reaches `t`'s memory (so it may be kept or updated in place).
bool exclusive(const Tensor &t) {
  const TensorImpl &i = *t.unsafeGetTensorImpl();
  return t.impl().use_count() == 1 && i.storage.use_count() == 1 && !i.is_view && i.contiguous && !i.autograd_meta;
}

/// Accumulates incoming gradients into a leaf's `.grad()`.
class AccumulateGrad : public Node {
public:
  explicit AccumulateGrad(Tensor variable) : variable_(std::move(variable)) {}
  std::string name() const override { return "AccumulateGrad"; }
  variable_list apply(variable_list &&grads) override {
    accumulate(variable_, std::move(grads[0]));
    return {};
  }
  /// `variable.grad += g`; the first gradient is taken over when nothing else holds it (as
  /// LibTorch's AccumulateGrad), otherwise copied, so `.grad()` is always a dense tensor.
  static void accumulate(const Tensor &variable, Tensor &&g) {
    if (!g.defined()) return;
    AutogradMeta &m = materialize(variable);
    if (!m.grad.defined()) {
      m.grad = exclusive(g) ? std::move(g) : g.clone();
    } else {
      m.grad.add_(g);
    }
  }

private:
  Tensor variable_;
};

struct ByNewest {
  bool operator()(const Node *a, const Node *b) const { return a->sequence_nr() < b->sequence_nr(); }
};

std::string shape_str(IntArrayRef s) { return str_cat(s); }

/// Checks (and casts) the gradients a node returned against its inputs' metadata.
void validate(const Node &n, variable_list &grads) {
  GFY_CHECK(grads.size() == n.next_edges_.size(), "Function ", n.name(), " returned an invalid number of gradients - expected ",
            int64_t(n.next_edges_.size()), ", but got ", int64_t(grads.size()));
  for (size_t i = 0; i < grads.size(); ++i) {
    Tensor &g = grads[i];
    if (!g.defined() || !n.next_edges_[i].is_valid()) continue;
    const Node::InputMeta &m = n.input_meta_[i];
    if (g.sizes() != IntArrayRef(m.sizes))
      throw Error(str_cat("Function ", n.name(), " returned an invalid gradient at index ", int64_t(i), " - got ",
                          shape_str(g.sizes()), " but expected shape compatible with ", shape_str(m.sizes)));
    if (g.scalar_type() != m.dtype) g = g.to(m.dtype);
  }
}

/// Runs the graph reachable from `roots` (edges with their gradients). With `captures`, the
/// gradients arriving at those edges are returned and AccumulateGrad nodes do not run; only the
/// nodes on a path to a captured edge run.
variable_list execute(const std::vector<Edge> &roots, const variable_list &root_grads, bool keep_graph,
                      const std::vector<Edge> *captures) {
  std::unordered_map<Node *, int> deps;
  std::unordered_map<Node *, std::shared_ptr<Node>> owned;
  std::vector<Node *> order; // discovery order
  {
    std::vector<Node *> stack;
    for (const Edge &e : roots)
      if (owned.emplace(e.function.get(), e.function).second) {
        stack.push_back(e.function.get());
        order.push_back(e.function.get());
      }
    while (!stack.empty()) {
      Node *n = stack.back();
      stack.pop_back();
      for (const Edge &e : n->next_edges_) {
        if (!e.is_valid()) continue;
        ++deps[e.function.get()];
        if (owned.emplace(e.function.get(), e.function).second) {
          stack.push_back(e.function.get());
          order.push_back(e.function.get());
        }
      }
    }
  }
  std::unordered_map<Node *, std::vector<std::pair<uint32_t, size_t>>> capture_at;
  std::unordered_set<Node *> needed;
  variable_list captured;
  if (captures) {
    captured.resize(captures->size());
    for (size_t i = 0; i < captures->size(); ++i)
      if ((*captures)[i].is_valid()) capture_at[(*captures)[i].function.get()].push_back({(*captures)[i].input_nr, i});
    // A node runs only if a captured edge lies below it; nodes were discovered parents first, so
    // a reverse sweep sees every child before its parent... except through shared children,
    // hence the fixed point.
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        Node *n = *it;
        if (needed.count(n)) continue;
        for (const Edge &e : n->next_edges_)
          if (e.is_valid() && (capture_at.count(e.function.get()) || needed.count(e.function.get()))) {
            needed.insert(n);
            changed = true;
            break;
          }
      }
    }
  }

  std::unordered_map<Node *, variable_list> buffers;
  auto add_to = [&](const Edge &e, Tensor g) {
    variable_list &buf = buffers[e.function.get()];
    if (buf.size() < e.function->num_inputs_) buf.resize(e.function->num_inputs_);
    Tensor &slot = buf[e.input_nr];
    if (!slot.defined()) slot = std::move(g);
    else if (exclusive(slot) && slot.sizes() == g.sizes()) slot.add_(g); // no other holder: sum in place
    else slot = slot + g;
  };
  for (size_t i = 0; i < roots.size(); ++i) add_to(roots[i], root_grads[i]);

  std::priority_queue<Node *, std::vector<Node *>, ByNewest> ready;
  for (const auto &[n, _] : owned)
    if (deps[n] == 0) ready.push(n);
  while (!ready.empty()) {
    Node *n = ready.top();
    ready.pop();
    variable_list in = std::move(buffers[n]);
    buffers.erase(n);
    in.resize(n->num_inputs_);
    if (auto it = capture_at.find(n); it != capture_at.end())
      for (auto [slot, idx] : it->second)
        if (in[slot].defined()) captured[idx] = captured[idx].defined() ? captured[idx] + in[slot] : in[slot];
    for (auto &[slot, weak] : n->retained_)
      if (auto impl = weak.lock(); impl && slot < in.size() && in[slot].defined()) {
        AutogradMeta &m = materialize(Tensor(impl));
        m.grad = m.grad.defined() ? m.grad + in[slot] : in[slot].clone();
      }
    const bool run = captures ? needed.count(n) > 0 : true;
    const bool any = std::any_of(in.begin(), in.end(), [](const Tensor &t) { return t.defined(); });
    variable_list out;
    if (run && any) {
      out = n->apply(std::move(in));
      validate(*n, out);
    }
    if (!keep_graph) n->release_variables();
    for (size_t i = 0; i < n->next_edges_.size(); ++i) {
      const Edge &e = n->next_edges_[i];
      if (!e.is_valid()) continue;
      if (i < out.size() && out[i].defined()) add_to(e, std::move(out[i]));
      if (--deps[e.function.get()] == 0) ready.push(e.function.get());
    }
  }
  return captured;
}

std::vector<Edge> root_edges(const variable_list &tensors) {
  std::vector<Edge> edges;
  for (size_t i = 0; i < tensors.size(); ++i) {
    GFY_CHECK(tensors[i].defined(), "element ", int64_t(i), " of tensors is an undefined tensor");
    GFY_CHECK(requires_grad(tensors[i]), "element ", int64_t(i),
              " of tensors does not require grad and does not have a grad_fn");
    edges.push_back(gradient_edge(tensors[i]));
  }
  return edges;
}

variable_list root_gradients(const variable_list &tensors, const variable_list &grads) {
  GFY_CHECK(grads.empty() || grads.size() == tensors.size(), "got ", int64_t(grads.size()),
            " gradients for ", int64_t(tensors.size()), " tensors");
  variable_list out;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor &t = tensors[i];
    Tensor g = i < grads.size() ? grads[i] : Tensor();
    if (!g.defined()) {
      GFY_CHECK(t.numel() == 1, "grad can be implicitly created only for scalar outputs");
      g = ones_like(t);
    } else {
      GFY_CHECK(g.sizes() == t.sizes(), "Mismatch in shape: grad_output[", int64_t(i), "] has a shape of ",
                g.sizes(), " and output[", int64_t(i), "] has a shape of ", t.sizes(), ".");
    }
    out.push_back(g.detach());
  }
  return out;
}

void check_create_graph(bool create_graph) {
  GFY_CHECK(!create_graph, "create_graph=true is not supported: the gfy runtime's autograd computes first-order "
                           "gradients only (no graph is built through the backward pass)");
}

} // namespace

Edge gradient_edge(const Tensor &t) {
  AutogradMeta &m = materialize(t);
  refresh_view_history(t, m);
  if (m.grad_fn) return {m.grad_fn, m.output_nr};
  if (!m.requires_grad) return {};
  std::shared_ptr<Node> acc = m.grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    acc->num_inputs_ = 1;
    m.grad_accumulator = acc;
  }
  return {acc, 0};
}

void accumulate_grad(const Tensor &leaf, Tensor g) { AccumulateGrad::accumulate(leaf, std::move(g)); }

} // namespace detail

using namespace detail;

void backward(const variable_list &tensors, const variable_list &grad_tensors, std::optional<bool> retain_graph,
              bool create_graph, const variable_list &inputs) {
  check_create_graph(create_graph);
  const bool keep = retain_graph.value_or(create_graph);
  NoGradGuard no_grad;
  std::vector<Edge> roots = root_edges(tensors);
  variable_list grads = root_gradients(tensors, grad_tensors);
  if (inputs.empty()) {
    execute(roots, grads, keep, nullptr);
    return;
  }
  // backward(inputs=...): only those tensors accumulate.
  std::vector<Edge> targets;
  for (const Tensor &t : inputs) {
    GFY_CHECK(requires_grad(t), "One of the differentiated Tensors does not require grad");
    targets.push_back(gradient_edge(t));
  }
  variable_list got = execute(roots, grads, keep, &targets);
  for (size_t i = 0; i < inputs.size(); ++i) accumulate_grad(inputs[i], std::move(got[i]));
}

variable_list grad(const variable_list &outputs, const variable_list &inputs, const variable_list &grad_outputs,
                   std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
  check_create_graph(create_graph);
  const bool keep = retain_graph.value_or(create_graph);
  NoGradGuard no_grad;
  std::vector<Edge> roots = root_edges(outputs);
  variable_list grads = root_gradients(outputs, grad_outputs);
  std::vector<Edge> targets;
  for (const Tensor &t : inputs) {
    GFY_CHECK(t.defined() && requires_grad(t), "One of the differentiated Tensors does not require grad");
    targets.push_back(gradient_edge(t));
  }
  variable_list got = execute(roots, grads, keep, &targets);
  for (const Tensor &g : got)
    GFY_CHECK(g.defined() || allow_unused, "One of the differentiated Tensors appears to not have been used in the "
                                           "graph. Set allow_unused=True if this is the desired behavior.");
  return got;
}

} // namespace gfy::autograd
