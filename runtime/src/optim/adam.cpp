// Adam's update as LibTorch 1.13 (torch/csrc/api/src/optim/adam.cpp), except that the step count
// is also a 0-d double tensor and the bias corrections are computed from it with runtime ops: the
// same numbers eagerly (pow in double, then used in the parameter's dtype as LibTorch's scalars
// are), and a captured step keeps counting on replay instead of freezing its capture-time step.
#include <graphify/core/Functions.h>
#include <graphify/optim/Adam.h>

namespace gfy::optim {

namespace detail {

void check_adam_options(double lr, double eps, std::tuple<double, double> betas, double weight_decay) {
  GFY_CHECK(lr >= 0, "Invalid learning rate: ", lr);
  GFY_CHECK(eps >= 0, "Invalid epsilon value: ", eps);
  const auto [b1, b2] = betas;
  GFY_CHECK(0 <= b1 && b1 < 1.0, "Invalid beta parameter at index 0: ", b1);
  GFY_CHECK(0 <= b2 && b2 < 1.0, "Invalid beta parameter at index 1: ", b2);
  GFY_CHECK(weight_decay >= 0, "Invalid weight_decay value: ", weight_decay);
}

void adam_moments_step(Tensor &p, const Tensor &grad, std::unique_ptr<OptimizerParamState> &slot, double lr,
                       std::tuple<double, double> betas, double eps, bool amsgrad) {
  const auto [beta1, beta2] = betas;
  if (!slot) {
    auto s = std::make_unique<AdamParamState>();
    s->exp_avg(zeros_like(p)).exp_avg_sq(zeros_like(p));
    if (amsgrad) s->max_exp_avg_sq(zeros_like(p));
    s->step_tensor(zeros({}, TensorOptions().dtype(kDouble).device(p.device())));
    slot = std::move(s);
  }
  auto &state = static_cast<AdamParamState &>(*slot);
  state.step(state.step() + 1);
  Tensor step = state.step_tensor();
  step.add_(1);
  Tensor bias_correction1 = 1 - pow(beta1, step);
  Tensor bias_correction2 = 1 - pow(beta2, step);
  Tensor exp_avg = state.exp_avg(), exp_avg_sq = state.exp_avg_sq();
  exp_avg.mul_(beta1).add_(grad, 1 - beta1);
  exp_avg_sq.mul_(beta2).add_(grad * grad, 1 - beta2);
  Tensor second = exp_avg_sq;
  if (amsgrad) {
    Tensor max_sq = state.max_exp_avg_sq();
    max_sq.copy_(maximum(max_sq, exp_avg_sq));
    second = max_sq;
  }
  Tensor denom = (second.sqrt() / bias_correction2.sqrt()).add_(eps);
  Tensor step_size = lr / bias_correction1;
  p.sub_(exp_avg / denom * step_size);
}

} // namespace detail

Adam::Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamOptions>(defaults)) {
  detail::check_adam_options(defaults.lr(), defaults.eps(), defaults.betas(), defaults.weight_decay());
}

Tensor Adam::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (auto &group : param_groups_) {
    const auto &o = static_cast<const AdamOptions &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined()) continue;
      Tensor grad = p.grad();
      if (o.weight_decay() != 0) grad = grad.add(p, o.weight_decay());
      detail::adam_moments_step(p, grad, state_[key(p)], o.lr(), o.betas(), o.eps(), o.amsgrad());
    }
  }
  return loss;
}

} // namespace gfy::optim
