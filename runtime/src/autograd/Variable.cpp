// Tensor's autograd methods (requires_grad_, grad, backward, is_leaf, ...) with LibTorch's
// semantics and messages, and the thread's grad mode.
#include "AutogradMeta.h"

namespace gfy {

namespace {
thread_local bool g_grad_mode = true; // the thread's grad mode: on by default, as in LibTorch
} // namespace

bool GradMode::is_enabled() { return g_grad_mode; }
void GradMode::set_enabled(bool enabled) { g_grad_mode = enabled; }

using autograd::AutogradMeta;
using autograd::detail::meta;

bool Tensor::requires_grad() const {
  const AutogradMeta *m = meta(*this);
  return m && (m->requires_grad || m->grad_fn);
}

Tensor &Tensor::requires_grad_(bool requires_grad) const {
  GFY_CHECK(defined(), "requires_grad_ on an undefined tensor");
  // Asking a non-leaf (which requires grad already) to require grad is a no-op, as in LibTorch.
  if (!is_leaf()) {
    GFY_CHECK(requires_grad, "you can only change requires_grad flags of leaf variables. If you want to use a "
                             "computed variable in a subgraph that doesn't require differentiation use "
                             "var_no_grad = var.detach().");
    return mutable_self();
  }
  GFY_CHECK(!requires_grad || is_floating_point(),
            "Only Tensors of floating point and complex dtype can require gradients");
  if (!requires_grad && !meta(*this)) return mutable_self();
  autograd::detail::materialize(*this).requires_grad = requires_grad;
  return mutable_self();
}

const Tensor &Tensor::grad() const {
  static const Tensor undefined;
  const AutogradMeta *m = meta(*this);
  return m ? m->grad : undefined;
}

Tensor &Tensor::mutable_grad() const {
  GFY_CHECK(defined(), "mutable_grad on an undefined tensor");
  return autograd::detail::materialize(*this).grad;
}

void Tensor::backward(const Tensor &gradient, std::optional<bool> retain_graph, bool create_graph,
                      std::optional<std::vector<Tensor>> inputs) const {
  autograd::backward({*this}, {gradient}, retain_graph, create_graph, inputs.value_or(std::vector<Tensor>{}));
}

bool Tensor::is_leaf() const {
  const AutogradMeta *m = meta(*this);
  return !m || !m->grad_fn;
}

const std::shared_ptr<autograd::Node> &Tensor::grad_fn() const {
  static const std::shared_ptr<autograd::Node> none;
  AutogradMeta *m = meta(*this);
  if (m) autograd::detail::refresh_view_history(*this, *m);
  return m ? m->grad_fn : none;
}

uint32_t Tensor::output_nr() const {
  const AutogradMeta *m = meta(*this);
  return m ? m->output_nr : 0;
}

void Tensor::retain_grad() const {
  GFY_CHECK(requires_grad(), "can't retain_grad on Tensor that has requires_grad=False");
  if (is_leaf()) return; // leaves keep their gradient anyway
  AutogradMeta &m = autograd::detail::materialize(*this);
  if (m.retains_grad) return;
  m.retains_grad = true;
  m.grad_fn->retained_.push_back({m.output_nr, impl()});
}

bool Tensor::retains_grad() const {
  const AutogradMeta *m = meta(*this);
  return m && m->retains_grad;
}

Tensor &Tensor::detach_() const {
  GFY_CHECK(defined(), "detach_ on an undefined tensor");
  if (AutogradMeta *m = meta(*this)) {
    m->grad_fn.reset();
    m->requires_grad = false;
    m->untracked_view = false;
    m->output_nr = 0;
    m->view_origin.reset();
  }
  return mutable_self();
}

int64_t Tensor::_version() const {
  GFY_CHECK(defined(), "_version on an undefined tensor");
  return int64_t(unsafeGetTensorImpl()->storage->version);
}

} // namespace gfy
