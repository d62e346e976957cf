// AdamW's update as LibTorch 1.13 (torch/csrc/api/src/optim/adamw.cpp): the parameter decays by
// `1 - lr * weight_decay` first, then takes Adam's step on the undecayed gradient (shared with
// Adam in detail::adam_moments_step, whose step count is also a 0-d tensor).
#include <graphify/core/Functions.h>
#include <graphify/optim/AdamW.h>

namespace gfy::optim {

AdamW::AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamWOptions>(defaults)) {
  detail::check_adam_options(defaults.lr(), defaults.eps(), defaults.betas(), defaults.weight_decay());
}

Tensor AdamW::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (auto &group : param_groups_) {
    const auto &o = static_cast<const AdamWOptions &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined()) continue;
      if (o.weight_decay() != 0) p.mul_(1 - o.lr() * o.weight_decay());
      detail::adam_moments_step(p, p.grad(), state_[key(p)], o.lr(), o.betas(), o.eps(), o.amsgrad());
    }
  }
  return loss;
}

} // namespace gfy::optim
