// SGD's update, op for op as LibTorch 1.13 (torch/csrc/api/src/optim/sgd.cpp): the momentum
// buffer starts as a copy of the first gradient, then buf = momentum * buf + (1 - dampening) * d_p.
#include <graphify/core/Functions.h>
#include <graphify/optim/SGD.h>

namespace gfy::optim {

SGD::SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<SGDOptions>(defaults)) {
  GFY_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  GFY_CHECK(defaults.momentum() >= 0, "Invalid momentum value: ", defaults.momentum());
  GFY_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
  GFY_CHECK(!defaults.nesterov() || (defaults.momentum() > 0 && defaults.dampening() == 0),
            "Nesterov momentum requires a momentum and zero dampening");
}

Tensor SGD::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate(closure);
  for (auto &group : param_groups_) {
    const auto &o = static_cast<const SGDOptions &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined()) continue;
      Tensor d_p = p.grad();
      if (o.weight_decay() != 0) d_p = d_p.add(p, o.weight_decay());
      if (o.momentum() != 0) {
        auto &slot = state_[key(p)];
        Tensor buf;
        if (!slot) {
          buf = gfy::clone(d_p).detach();
          auto s = std::make_unique<SGDParamState>();
          s->momentum_buffer(buf);
          slot = std::move(s);
        } else {
          buf = static_cast<SGDParamState &>(*slot).momentum_buffer();
          buf.mul_(o.momentum()).add_(d_p, 1 - o.dampening());
        }
        d_p = o.nesterov() ? d_p.add(buf, o.momentum()) : buf;
      }
      p.add_(d_p, -1 * o.lr());
    }
  }
  return loss;
}

} // namespace gfy::optim
