// Recording autograd history: the nodes made by kernel launches (detail::run), by view ops and by
// front-ends with their own derivative. Invariant: every tensor an op writes while one of its
// operands requires grad (and grad mode is on) either receives a grad_fn that reaches each such
// operand, or the op throws before writing anything — no gradient is ever dropped silently.
#include "Derivatives.h"

#include <graphify/core/Functions.h>

#include <algorithm>
#include <cctype>

namespace gfy::autograd {

namespace {
thread_local uint64_t g_next_sequence_nr = 0;
} // namespace

Node::Node() : sequence_nr_(g_next_sequence_nr++) {}

namespace detail {
using gfy::detail::str_cat;

namespace {

Node::InputMeta input_meta(const Tensor &t) {
  return {t.sizes().vec(), t.scalar_type(), t.device()};
}

/// "log_softmax" → "LogSoftmaxBackward0", as LibTorch names its nodes.
std::string node_name(std::string_view op) {
  std::string s;
  bool up = true;
  for (char ch : op) {
    if (ch == '_') {
      up = true;
      continue;
    }
    s += up ? char(std::toupper(static_cast<unsigned char>(ch))) : ch;
    up = false;
  }
  return s + "Backward0";
}

/// Throws LibTorch's message for in-place writes into leaves that require grad.
void check_not_leaf(const Tensor &t) {
  const AutogradMeta *m = meta(t);
  GFY_CHECK(!(m && m->requires_grad && !m->grad_fn),
            "a leaf Variable that requires grad is being used in an in-place operation.");
}

bool same_storage(const Tensor &a, const Tensor &b) {
  return a.defined() && b.defined() && a.unsafeGetTensorImpl()->storage == b.unsafeGetTensorImpl()->storage;
}

/// Whether the view `o` is the only tensor outside this launch that holds its storage. The
/// launch's own operands may alias it (`x += r` reads x through a broadcast view of x); they die
/// with the launch, so only tensors beyond them could observe the write.
bool alone_holds_storage(const OpCall &call, const Tensor &o) {
  std::vector<const TensorImpl *> aliases{o.unsafeGetTensorImpl()};
  auto note = [&](const Tensor &t) {
    if (same_storage(t, o) && std::find(aliases.begin(), aliases.end(), t.unsafeGetTensorImpl()) == aliases.end())
      aliases.push_back(t.unsafeGetTensorImpl());
  };
  for (const Tensor &t : call.in) note(t);
  for (const Tensor &t : call.out) note(t);
  return o.unsafeGetTensorImpl()->storage.use_count() == static_cast<long>(aliases.size());
}

/// The node of one kernel launch: the entry of its op and the operands its formula reads.
class KernelNode : public Node {
public:
  KernelNode(OpId op, const KernelDerivative &d) : op_(op), d_(d) {}
  std::string name() const override { return node_name(op_name(op_)); }

  variable_list apply(variable_list &&grads) override {
    GFY_CHECK(!released_,
              "Trying to backward through the graph a second time (or directly access saved tensors after they have "
              "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
              "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
              "if you need to access saved tensors after calling backward.");
    check_versions();
    GradCtx ctx{saved_, grads, input_meta_, next_edges_, num_in_};
    variable_list r = d_.formula(ctx);
    r.resize(next_edges_.size());
    if (ctx.has_old_out() && d_.overwrites && next_edges_[num_in_].is_valid()) {
      const InputMeta &m = input_meta_[num_in_];
      r[num_in_] = zeros(m.sizes, TensorOptions().dtype(m.dtype).device(m.device));
    }
    return r;
  }

  void release_variables() override {
    if (!has_saved_) return; // nothing to free: a second backward is fine, as in LibTorch
    for (Tensor &t : saved_.in)
      if (!(t.defined() && t.unsafeGetTensorImpl()->wrapped_number)) t = Tensor();
    for (Tensor &t : saved_.out) t = Tensor();
    released_ = true;
  }

  /// Keeps `t` (operand `slot`: in[i] or, with 8 added, out[j]) for the formula.
  void save(unsigned slot, const Tensor &t, bool check_version) {
    if (!t.defined()) return;
    if (check_version) {
      versions_.push_back({t, t.unsafeGetTensorImpl()->storage->version, slot});
      if (!t.unsafeGetTensorImpl()->wrapped_number) has_saved_ = true;
    }
  }

  /// Swaps saved input `i` for an alias of the same memory (its version entry too).
  void replace_saved_input(unsigned i, const Tensor &alias) {
    saved_.in[i] = alias;
    for (Version &v : versions_)
      if (v.slot == i) v.t = alias;
  }

  OpId op_;
  const KernelDerivative &d_;
  OpCall saved_;
  size_t num_in_ = 0;

private:
  struct Version {
    Tensor t;
    uint32_t version;
    unsigned slot;
  };
  void check_versions() const {
    for (const Version &v : versions_) {
      const uint32_t now = v.t.unsafeGetTensorImpl()->storage->version;
      if (now == v.version) continue;
      const Tensor &t = v.t;
      const std::string which = v.slot >= 8 ? str_cat(", which is output ", v.slot - 8, " of ", name(), ",") : "";
      throw Error(str_cat("one of the variables needed for gradient computation has been modified by an inplace "
                          "operation: [",
                          t.toString(), " ", t.sizes(), "]", which, " is at version ", now, "; expected version ",
                          v.version, " instead. Hint: the backtrace further above shows the operation that failed to "
                          "compute its gradient. The variable in question was changed in there or anywhere later. "
                          "Good luck!"));
    }
  }
  std::vector<Version> versions_;
  bool has_saved_ = false;
  bool released_ = false;
};

/// A node whose backward is a closure (views, front-ends with their own derivative).
class FunctionNode : public Node {
public:
  FunctionNode(std::string name, std::function<variable_list(const variable_list &)> fn)
      : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string name() const override { return name_; }
  variable_list apply(variable_list &&grads) override { return fn_(grads); }

private:
  std::string name_;
  std::function<variable_list(const variable_list &)> fn_;
};

void attach(const Tensor &out, const std::shared_ptr<Node> &node, uint32_t output_nr) {
  AutogradMeta &m = materialize(out);
  m.grad_fn = node;
  m.output_nr = output_nr;
  m.untracked_view = false;
  m.requires_grad = false;
  // New history of its own: a view written in place (which only a view that alone holds its
  // storage may be) no longer follows its base; view ops set the origin again after this.
  m.view_origin.reset();
}

/// The tensor a node keeps of operand `t`: `t` itself, unless it is a view with a ViewOrigin —
/// then an alias with the same memory and history but no origin, since base -> grad_fn -> this
/// node -> saved view -> origin -> base would be a cycle that is never freed
/// (`y.div_(y.view(-1).norm())`).
Tensor saved_operand(const Tensor &t) {
  const AutogradMeta *m = meta(t);
  if (!m || !m->view_origin) return t;
  auto impl = std::make_shared<TensorImpl>(*t.unsafeGetTensorImpl());
  auto alias_meta = std::make_shared<AutogradMeta>(*m);
  alias_meta->view_origin.reset();
  impl->autograd_meta = std::move(alias_meta);
  return Tensor(std::move(impl));
}

/// LibTorch's as_strided backward for a view of the root base: both layouts address one storage,
/// so the view's gradient is written at the view's positions of a zero buffer spanning both, and
/// the base's gradient read back at the base's positions. Kernels only (zeros, copy), so it runs
/// the same while a graph is being captured.
struct Layout {
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
};
Tensor as_strided_backward(const Tensor &grad, const Layout &base, const Layout &view) {
  IntArrayRef sizes = view.sizes, strides = view.strides;
  const int64_t offset = view.offset;
  auto last = [](IntArrayRef sz, IntArrayRef st, int64_t off) {
    int64_t end = off;
    for (size_t d = 0; d < sz.size(); ++d) {
      if (sz[d] == 0) return off;
      end += (sz[d] - 1) * st[d];
    }
    return end + 1;
  };
  const int64_t lo = std::min(base.offset, offset);
  const int64_t hi = std::max(last(base.sizes, base.strides, base.offset), last(sizes, strides, offset));
  Tensor flat = zeros({hi - lo}, grad.options());
  // A broadcast dim of the view names one element many times: its gradients add up there.
  std::vector<int64_t> broadcast, write_sizes = sizes.vec();
  for (size_t d = 0; d < sizes.size(); ++d)
    if (strides[d] == 0 && sizes[d] > 1) {
      broadcast.push_back(int64_t(d));
      write_sizes[d] = 1;
    }
  const Tensor g = broadcast.empty() ? grad : grad.sum(broadcast, /*keepdim=*/true);
  gfy::detail::make_view(flat, write_sizes, strides.vec(), offset - lo).copy_(g);
  return gfy::detail::make_view(flat, base.sizes, base.strides, base.offset - lo).contiguous();
}

} // namespace

AutogradMeta &materialize(const Tensor &t) {
  auto &p = t.unsafeGetTensorImpl()->autograd_meta;
  if (!p) p = std::make_shared<AutogradMeta>();
  return *p;
}

// --- kernel launches ------------------------------------------------------------------------------

KernelRecord::KernelRecord(OpCall &call) {
  const KernelDerivative &d = kernel_derivative(call.op);
  std::vector<bool> needs(call.in.size());
  bool any_input = false;
  for (size_t i = 0; i < call.in.size(); ++i) {
    const AutogradMeta *m = meta(call.in[i]);
    if (m && m->untracked_view)
      throw Error(str_cat("the derivative for '", op_name(call.op),
                          "' is not implemented (an operand is a view its front-end made of a tensor that requires "
                          "grad)"));
    needs[i] = requires_grad(call.in[i]);
    any_input = any_input || needs[i];
  }
  // Outputs that will carry history: the differentiable ones (floating dtype, listed by the
  // entry; without an entry every floating output would need a derivative).
  const unsigned outputs = d.defined ? d.outputs : ~0u; // OUT bits
  bool any_history = false, floating_out = false;
  for (size_t j = 0; j < call.out.size(); ++j) {
    if (!(outputs >> (8 + j) & 1u) || !isFloatingType(call.out[j].scalar_type())) continue;
    floating_out = true;
    any_history = any_history || requires_grad(call.out[j]);
  }
  if (!floating_out || (!any_input && !any_history)) return;
  if (!d.defined) throw Error(str_cat("the derivative for '", op_name(call.op), "' is not implemented."));
  for (size_t j = 0; j < call.out.size(); ++j) {
    if (!(d.outputs >> (8 + j) & 1u)) continue;
    const Tensor &o = call.out[j];
    check_not_leaf(o);
    // A view that alone holds its storage (its base and every other view are gone, nothing saved
    // it for backward: `x = bn(x); x += residual;`) is an ordinary tensor for this write; only a
    // write that another live tensor could observe needs LibTorch's CopySlices.
    GFY_CHECK(!o.is_view() || alone_holds_storage(call, o), "an in-place operation (", op_name(call.op),
              ") writes a view of another tensor while gradients are being recorded, which the gfy runtime's "
              "autograd does not support; build the result out of place (torch::cat, torch::stack, torch::where)");
  }

  auto node = std::make_shared<KernelNode>(call.op, d);
  node->num_in_ = call.in.size();
  node->num_inputs_ = uint32_t(call.out.size());
  for (size_t i = 0; i < call.in.size(); ++i) {
    node->next_edges_.push_back(needs[i] ? gradient_edge(call.in[i]) : Edge{});
    node->input_meta_.push_back(call.in[i].defined() ? input_meta(call.in[i]) : Node::InputMeta{});
  }
  // Written in place over a tensor with history that no input carries: its old history becomes
  // one more edge, fed by the formula (index_put) or with zeros (a full overwrite).
  const Tensor &o0 = call.out.front();
  if (requires_grad(o0)) {
    bool carried = false;
    for (const Tensor &t : call.in) carried = carried || same_storage(t, o0);
    if (!carried) {
      GFY_CHECK(d.overwrites || d.grads_old_out, "in-place ", op_name(call.op),
                " on a tensor that requires grad is not supported by the gfy runtime's autograd");
      node->next_edges_.push_back(gradient_edge(o0));
      node->input_meta_.push_back(input_meta(o0));
    }
  }

  // Save what the formula reads. An input the kernel is about to overwrite (x.mul_(y) saves x)
  // is kept as a copy of its old value.
  OpCall &s = node->saved_;
  s.op = call.op;
  s.alpha = call.alpha;
  s.beta = call.beta;
  s.dim = call.dim;
  s.k = call.k;
  s.flag = call.flag;
  s.flag2 = call.flag2;
  s.ints = call.ints;
  s.in.resize(call.in.size());
  s.out.resize(call.out.size());
  auto other_needs = [&](size_t i) {
    for (size_t j = 0; j < needs.size(); ++j)
      if (j != i && needs[j]) return true;
    return false;
  };
  for (size_t i = 0; i < call.in.size(); ++i) {
    const bool value = (d.saves >> i & 1u) && (!(d.for_others >> i & 1u) || other_needs(i));
    const bool shape = d.shapes >> i & 1u;
    if (!value && !shape) continue;
    Tensor t = call.in[i];
    if (value)
      for (const Tensor &o : call.out)
        if (same_storage(t, o)) {
          NoGradGuard no_grad;
          t = t.clone();
        }
    t = saved_operand(t);
    s.in[i] = t;
    node->save(unsigned(i), t, value);
  }
  node_ = std::move(node);
}

void KernelRecord::finish(const OpCall &call) {
  if (!node_) return;
  auto &node = static_cast<KernelNode &>(*node_);
  for (size_t j = 0; j < call.out.size(); ++j) {
    const bool value = node.d_.saves >> (8 + j) & 1u, shape = node.d_.shapes >> (8 + j) & 1u;
    if (value || shape) {
      // The output's history will be this node: saving the output itself would make a cycle
      // (node -> tensor -> node) that is never freed. An alias without history reads the same
      // memory and shares its version counter (LibTorch's SavedVariable does the same).
      NoGradGuard no_grad;
      node.saved_.out[j] = call.out[j].detach();
      node.save(unsigned(8 + j), node.saved_.out[j], value);
    }
  }
  // An in-place op's input is its output (`y.mul_(x)` saves y's shape): the same cycle.
  for (size_t i = 0; i < call.in.size(); ++i)
    for (const Tensor &o : call.out)
      if (node.saved_.in[i].defined() && node.saved_.in[i].unsafeGetTensorImpl() == o.unsafeGetTensorImpl()) {
        NoGradGuard no_grad;
        node.replace_saved_input(unsigned(i), node.saved_.in[i].detach());
      }
  for (size_t j = 0; j < call.out.size(); ++j)
    if ((node.d_.outputs >> (8 + j) & 1u) && isFloatingType(call.out[j].scalar_type()))
      attach(call.out[j], node_, uint32_t(j));
}

// --- views --------------------------------------------------------------------------------------------

namespace {
/// Gives `view` (whose history was just set from `base`'s, freshly refreshed) the origin of
/// ViewOrigin: base's own origin when base is a view, else base itself.
void remember_base(const Tensor &view, const Tensor &base) {
  const AutogradMeta *bm = meta(base);
  if (!bm || bm->untracked_view) return;
  auto o = std::make_shared<ViewOrigin>();
  if (bm->view_origin) {
    *o = *bm->view_origin;
  } else {
    const TensorImpl &b = *base.unsafeGetTensorImpl();
    o->base = base.unsafeGetTensorImpl()->autograd_meta;
    o->base_sizes = b.sizes;
    o->base_strides = b.strides;
    o->base_offset = b.offset;
    o->dtype = b.dtype;
    o->device = b.storage->device;
    o->base_fn = bm->grad_fn.get();
    o->base_output_nr = bm->output_nr;
  }
  o->version = view.unsafeGetTensorImpl()->storage->version;
  materialize(view).view_origin = std::move(o);
}
} // namespace

void set_view_history(const Tensor &view, const Tensor &base, const char *name,
                      std::function<Tensor(const Tensor &)> backward) {
  auto node = std::make_shared<FunctionNode>(
      name, [bw = std::move(backward)](const variable_list &g) -> variable_list { return {bw(g[0])}; });
  node->next_edges_.push_back(gradient_edge(base));
  node->input_meta_.push_back(input_meta(base));
  attach(view, node, 0);
  remember_base(view, base);
}

void share_history(const Tensor &view, const Tensor &base) {
  const Edge e = gradient_edge(base);
  attach(view, e.function, e.input_nr);
  remember_base(view, base);
}

void rebase_view_history(const Tensor &view, AutogradMeta &m) {
  ViewOrigin &o = *m.view_origin;
  o.version = view.unsafeGetTensorImpl()->storage->version;
  const AutogradMeta &base = *o.base;
  // Written without new history (under NoGradGuard, an optimizer step on a leaf): the view's
  // history still leads to the base's, and stays as it is.
  if (!base.grad_fn || (base.grad_fn.get() == o.base_fn && base.output_nr == o.base_output_nr)) return;
  o.base_fn = base.grad_fn.get();
  o.base_output_nr = base.output_nr;
  const TensorImpl &v = *view.unsafeGetTensorImpl();
  // Layouts by value: the node must not hold the origin (it holds the base's state, whose
  // history may come to lead back to this node).
  auto node = std::make_shared<FunctionNode>(
      "AsStridedBackward0", [base_layout = Layout{o.base_sizes, o.base_strides, o.base_offset},
                             view_layout = Layout{v.sizes, v.strides, v.offset}](const variable_list &g) -> variable_list {
        return {as_strided_backward(g[0], base_layout, view_layout)};
      });
  node->next_edges_.push_back({base.grad_fn, base.output_nr});
  node->input_meta_.push_back({o.base_sizes, o.dtype, o.device});
  m.grad_fn = std::move(node);
  m.output_nr = 0;
}

void mark_untracked_view(const Tensor &view) {
  AutogradMeta &m = materialize(view);
  m.untracked_view = true;
}

// --- front-ends with their own derivative -----------------------------------------------------------

bool any_requires_grad(const std::vector<Tensor> &inputs) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor &t : inputs)
    if (requires_grad(t)) return true;
  return false;
}

void record_function(const char *name, const std::vector<Tensor> &inputs, const std::vector<Tensor> &outputs,
                     std::function<variable_list(const variable_list &)> fn) {
  auto node = std::make_shared<FunctionNode>(name, std::move(fn));
  node->num_inputs_ = uint32_t(outputs.size());
  for (const Tensor &t : inputs) {
    node->next_edges_.push_back(requires_grad(t) ? gradient_edge(t) : Edge{});
    node->input_meta_.push_back(t.defined() ? input_meta(t) : Node::InputMeta{});
  }
  for (size_t j = 0; j < outputs.size(); ++j)
    if (isFloatingType(outputs[j].scalar_type())) attach(outputs[j], node, uint32_t(j));
}

} // namespace detail
} // namespace gfy::autograd
