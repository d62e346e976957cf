#pragma once
/// \file
/// Stochastic gradient descent with momentum, dampening, weight decay and Nesterov momentum:
/// LibTorch 1.13's `torch::optim::SGD`, its options and its update, op for op.
///
/// \code
///   gfy::optim::SGD sgd(model->parameters(), gfy::optim::SGDOptions(0.01).momentum(0.9).nesterov(true));
/// \endcode

#include <graphify/optim/Optimizer.h>

namespace gfy::optim {

struct SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr) : lr_(lr) {}
  GFY_ARG(double, lr);
  GFY_ARG(double, momentum) = 0;
  GFY_ARG(double, dampening) = 0;
  GFY_ARG(double, weight_decay) = 0;
  GFY_ARG(bool, nesterov) = false;

public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { lr_ = lr; }
};

struct SGDParamState : public OptimizerParamState {
  GFY_ARG(Tensor, momentum_buffer);
};

class SGD : public Optimizer {
public:
  SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults);
  SGD(std::vector<Tensor> params, SGDOptions defaults) : SGD({OptimizerParamGroup(std::move(params))}, defaults) {}
  Tensor step(LossClosure closure = nullptr) override;
};

} // namespace gfy::optim
