#pragma once
/// \file
/// AdamW: LibTorch 1.13's `torch::optim::AdamW`, Adam with decoupled weight decay (the parameter
/// is scaled by `1 - lr * weight_decay` before Adam's step, instead of the decay entering the
/// gradient), its options with their defaults (weight decay 1e-2) and its checks. Its step count
/// lives in a 0-d tensor as Adam's does, so a captured step keeps counting on replay.
///
/// \code
///   gfy::optim::AdamW opt(model->parameters(), gfy::optim::AdamWOptions(3e-4).weight_decay(0.1));
/// \endcode

#include <graphify/optim/Adam.h>

#include <tuple>

namespace gfy::optim {

struct AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
  AdamWOptions(double lr = 1e-3) : lr_(lr) {}
  typedef std::tuple<double, double> betas_t;
  GFY_ARG(double, lr);
  GFY_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  GFY_ARG(double, eps) = 1e-8;
  GFY_ARG(double, weight_decay) = 1e-2;
  GFY_ARG(bool, amsgrad) = false;

public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { lr_ = lr; }
};

/// The same moments and step count as Adam's.
using AdamWParamState = AdamParamState;

class AdamW : public Optimizer {
public:
  AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults = {});
  AdamW(std::vector<Tensor> params, AdamWOptions defaults = {})
      : AdamW({OptimizerParamGroup(std::move(params))}, defaults) {}
  Tensor step(LossClosure closure = nullptr) override;
};

} // namespace gfy::optim
