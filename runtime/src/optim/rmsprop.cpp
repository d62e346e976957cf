// RMSprop's update, op for op as LibTorch 1.13 (torch/csrc/api/src/optim/rmsprop.cpp): the
// state is made on a parameter's first step (zeros), square_avg = alpha * square_avg +
// (1 - alpha) * g^2, the denominator sqrt(square_avg [- grad_avg^2]) + eps.
#include <graphify/core/Functions.h>
#include <graphify/optim/RMSprop.h>

namespace gfy::optim {

RMSprop::RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<RMSpropOptions>(defaults)) {
  GFY_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  GFY_CHECK(defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
  GFY_CHECK(defaults.momentum() >= 0, "Invalid momentum value: ", defaults.momentum());
  GFY_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
  GFY_CHECK(defaults.alpha() >= 0, "Invalid alpha value: ", defaults.alpha());
}

Tensor RMSprop::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (auto &group : param_groups_) {
    const auto &o = static_cast<const RMSpropOptions &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined()) continue;
      Tensor grad = p.grad();
      auto &slot = state_[key(p)];
      if (!slot) {
        auto s = std::make_unique<RMSpropParamState>();
        s->square_avg(zeros_like(p));
        if (o.momentum() > 0) s->momentum_buffer(zeros_like(p));
        if (o.centered()) s->grad_avg(zeros_like(p));
        slot = std::move(s);
      }
      auto &state = static_cast<RMSpropParamState &>(*slot);
      state.step(state.step() + 1);
      if (o.weight_decay() != 0) grad = grad.add(p, o.weight_decay());
      Tensor square_avg = state.square_avg();
      square_avg.mul_(o.alpha()).add_(grad.mul(grad), 1 - o.alpha());
      Tensor avg;
      if (o.centered()) {
        Tensor grad_avg = state.grad_avg();
        grad_avg.mul_(o.alpha()).add_(grad, 1 - o.alpha());
        avg = square_avg.sub(grad_avg.mul(grad_avg)).sqrt().add(o.eps());
      } else {
        avg = square_avg.sqrt().add(o.eps());
      }
      if (o.momentum() > 0) {
        Tensor buf = state.momentum_buffer();
        buf.mul_(o.momentum()).add_(grad.div(avg));
        p.add_(buf, -o.lr());
      } else {
        p.add_(grad.div(avg), -o.lr());
      }
    }
  }
  return loss;
}

} // namespace gfy::optim
