// The optimizer base: parameter groups, state and zero_grad, as LibTorch 1.13's
// torch/csrc/api/src/optim/optimizer.cpp.
#include <graphify/autograd/GradMode.h>
#include <graphify/optim/Optimizer.h>

#include <sstream>

namespace gfy::optim {

OptimizerOptions &OptimizerParamGroup::options() {
  GFY_CHECK(options_ != nullptr, "param group has no options");
  return *options_;
}
const OptimizerOptions &OptimizerParamGroup::options() const {
  GFY_CHECK(options_ != nullptr, "param group has no options");
  return *options_;
}

Optimizer::Optimizer(std::vector<OptimizerParamGroup> param_groups, std::unique_ptr<OptimizerOptions> defaults)
    : defaults_(std::move(defaults)) {
  for (const auto &g : param_groups) add_param_group(g);
}

std::string Optimizer::key(const Tensor &p) {
  std::ostringstream s;
  s << static_cast<const void *>(p.unsafeGetTensorImpl());
  return s.str();
}

void Optimizer::add_param_group(const OptimizerParamGroup &group) {
  OptimizerParamGroup g(group.params(), group.has_options() ? group.options().clone() : defaults_->clone());
  for (const Tensor &p : g.params()) {
    GFY_CHECK(p.defined(), "optimizer got an undefined parameter");
    GFY_CHECK(p.is_leaf(), "can't optimize a non-leaf Tensor");
    for (const auto &other : param_groups_)
      for (const Tensor &q : other.params())
        GFY_CHECK(!p.is_same(q), "some parameters appear in more than one parameter group");
  }
  param_groups_.push_back(std::move(g));
}

void Optimizer::zero_grad() {
  NoGradGuard no_grad;
  for (auto &group : param_groups_)
    for (Tensor &p : group.params()) {
      Tensor &g = p.mutable_grad();
      if (!g.defined()) continue;
      g.detach_();
      g.zero_();
    }
}

std::vector<Tensor> Optimizer::parameters() const {
  std::vector<Tensor> all;
  for (const auto &group : param_groups_) all.insert(all.end(), group.params().begin(), group.params().end());
  return all;
}

size_t Optimizer::size() const {
  size_t n = 0;
  for (const auto &group : param_groups_) n += group.params().size();
  return n;
}

Tensor Optimizer::evaluate(const LossClosure &closure) {
  if (!closure)
    return Tensor();
  AutoGradMode enable_grad(true);
  return closure();
}

} // namespace gfy::optim
