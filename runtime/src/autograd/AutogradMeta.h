#pragma once
// The autograd state of a tensor and the internal API the op front-ends use to record history.
// Private to the runtime (src/): users see it through Tensor's methods and Autograd.h.
//
// Invariant: a TensorImpl without `autograd_meta` neither requires grad nor has history, so the
// common no-grad path of every op is a null-pointer test per operand (`may_record`).
#include <graphify/autograd/Autograd.h>
#include <graphify/core/Backend.h>

#include <functional>
#include <memory>

namespace gfy::autograd {

struct AutogradMeta;

/// Where a differentiable view came from, so that it follows its base's history when the base is
/// written in place after the view was made (LibTorch's "view + inplace": the view's grad_fn
/// becomes AsStridedBackward0 of the base's current grad_fn; see refresh_view_history).
struct ViewOrigin {
  /// The root base's autograd state (a view of a view records the first view's root). Held
  /// strongly, as LibTorch's view holds its base: the base's newest history must outlive the base
  /// handle. Saved tensors never carry an origin (saved_operand), so no node reaches one.
  std::shared_ptr<AutogradMeta> base;
  std::vector<int64_t> base_sizes, base_strides; ///< the root base's layout, in elements
  int64_t base_offset = 0;
  ScalarType dtype = kFloat;
  Device device;
  uint32_t version = 0;          ///< the storage version the view's history was last checked at
  const Node *base_fn = nullptr; ///< the base's grad_fn the view's history leads to (kept alive by it)
  uint32_t base_output_nr = 0;
};

struct AutogradMeta {
  bool requires_grad = false;  ///< set by the user on a leaf
  bool retains_grad = false;   ///< retain_grad() on a non-leaf
  /// A view made by an op's front-end (not a differentiable view op) of a tensor that requires
  /// grad: using it as a kernel operand would lose the gradient, so doing so is an error.
  bool untracked_view = false;
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  uint32_t output_nr = 0;
  std::weak_ptr<Node> grad_accumulator; ///< the leaf's AccumulateGrad, shared by every use
  /// Set on views made while their base requires grad; null otherwise.
  std::shared_ptr<ViewOrigin> view_origin;
};

namespace detail {

inline AutogradMeta *meta(const Tensor &t) {
  return t.defined() ? t.unsafeGetTensorImpl()->autograd_meta.get() : nullptr;
}
inline bool requires_grad(const Tensor &t) {
  const AutogradMeta *m = meta(t);
  return m && (m->requires_grad || m->grad_fn || m->untracked_view);
}
AutogradMeta &materialize(const Tensor &t);

/// The edge a gradient of `t` flows into: its grad_fn, or its leaf's AccumulateGrad.
Edge gradient_edge(const Tensor &t);

/// Whether a kernel launch needs the autograd recorder: grad mode is on and some operand has
/// autograd state. Inline: it runs on every launch.
inline bool may_record(const OpCall &c) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor &t : c.in)
    if (t.defined() && t.unsafeGetTensorImpl()->autograd_meta) return true;
  for (const Tensor &t : c.out)
    if (t.unsafeGetTensorImpl()->autograd_meta) return true;
  return false;
}

/// Records one kernel launch (detail::run): the constructor checks what LibTorch refuses before
/// anything is written (in-place on a leaf or a view, an op without a derivative) and saves what
/// the op's derivative reads; `finish` attaches the node to the outputs once the kernel has run.
class KernelRecord {
public:
  explicit KernelRecord(OpCall &call);
  void finish(const OpCall &call);

private:
  std::shared_ptr<Node> node_;
};

/// Whether a view of `base` needs its own history (grad mode on, base requires grad).
inline bool needs_view_history(const Tensor &base) { return GradMode::is_enabled() && requires_grad(base); }

/// Gives `view` (made from `base` by the view op `name`) a node whose backward maps the view's
/// gradient to the base's with `backward`.
void set_view_history(const Tensor &view, const Tensor &base, const char *name,
                      std::function<Tensor(const Tensor &)> backward);
/// An identity view (same shape and strides as `base`): shares base's gradient edge, no node.
void share_history(const Tensor &view, const Tensor &base);

/// Rebuilds a view's history over its base's current one when the base was written in place
/// since (ViewOrigin); every reader of a tensor's history (gradient_edge, Tensor::grad_fn) calls
/// it first. Inline test: it runs for every operand of a recorded launch.
void rebase_view_history(const Tensor &view, AutogradMeta &m);
inline void refresh_view_history(const Tensor &t, AutogradMeta &m) {
  if (m.view_origin && m.view_origin->version != t.unsafeGetTensorImpl()->storage->version) rebase_view_history(t, m);
}

/// Marks a view made inside a front-end (detail::make_view) of a tensor that requires grad; see
/// AutogradMeta::untracked_view.
void mark_untracked_view(const Tensor &view);

/// Whether any of `inputs` requires grad while grad mode is on (a front-end with its own
/// derivative then computes under NoGradGuard and calls record_function).
bool any_requires_grad(const std::vector<Tensor> &inputs);

/// Attaches a node named `name` to `outputs` whose backward is `fn`: gradients of the outputs in
/// (undefined where none arrived), one gradient per entry of `inputs` out. For front-ends whose
/// kernels cannot be differentiated one by one (cat, gather): their derivative sits in
/// Derivatives.cpp beside the kernels' and is declared by name.
void record_function(const char *name, const std::vector<Tensor> &inputs, const std::vector<Tensor> &outputs,
                     std::function<variable_list(const variable_list &)> fn);

} // namespace detail
} // namespace gfy::autograd
