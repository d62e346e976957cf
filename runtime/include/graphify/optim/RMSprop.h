#pragma once
/// \file
/// RMSprop: LibTorch 1.13's `torch::optim::RMSprop` — a running average of squared gradients
/// divides the step; optional momentum, centring (the running mean of the gradient subtracted
/// from the average) and coupled weight decay — with its options, defaults and checks.
///
/// \code
///   gfy::optim::RMSprop opt(model->parameters(), gfy::optim::RMSpropOptions(1e-3).momentum(0.9));
/// \endcode

#include <graphify/optim/Optimizer.h>

namespace gfy::optim {

struct RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
  RMSpropOptions(double lr = 1e-2) : lr_(lr) {}
  GFY_ARG(double, lr);
  GFY_ARG(double, alpha) = 0.99;
  GFY_ARG(double, eps) = 1e-8;
  GFY_ARG(double, weight_decay) = 0;
  GFY_ARG(double, momentum) = 0;
  GFY_ARG(bool, centered) = false;

public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { lr_ = lr; }
};

struct RMSpropParamState : public OptimizerParamState {
  GFY_ARG(int64_t, step) = 0;
  GFY_ARG(Tensor, square_avg);
  GFY_ARG(Tensor, momentum_buffer); ///< defined when momentum > 0
  GFY_ARG(Tensor, grad_avg);        ///< defined when centered
};

class RMSprop : public Optimizer {
public:
  RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults = {});
  RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {})
      : RMSprop({OptimizerParamGroup(std::move(params))}, defaults) {}
  Tensor step(LossClosure closure = nullptr) override;
};

} // namespace gfy::optim
