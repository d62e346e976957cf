#pragma once
/// \file
/// Adam (and AMSGrad): LibTorch 1.13's `torch::optim::Adam`, its options and its update. The step
/// count also lives in a 0-d tensor and the bias corrections are computed from it with runtime
/// ops, so a captured training step keeps counting on every replay (LibTorch computes them on
/// the host, which a graph would freeze).
///
/// \code
///   gfy::optim::Adam adam(model->parameters(), gfy::optim::AdamOptions(1e-3).betas({0.9, 0.98}));
/// \endcode

#include <graphify/optim/Optimizer.h>

#include <tuple>

namespace gfy::optim {

struct AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3) : lr_(lr) {}
  typedef std::tuple<double, double> betas_t;
  GFY_ARG(double, lr);
  GFY_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  GFY_ARG(double, eps) = 1e-8;
  GFY_ARG(double, weight_decay) = 0;
  GFY_ARG(bool, amsgrad) = false;

public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { lr_ = lr; }
};

struct AdamParamState : public OptimizerParamState {
  GFY_ARG(int64_t, step) = 0; ///< eager steps taken (replays of a captured step count in step_tensor)
  GFY_ARG(Tensor, exp_avg);
  GFY_ARG(Tensor, exp_avg_sq);
  GFY_ARG(Tensor, max_exp_avg_sq);
  GFY_ARG(Tensor, step_tensor); ///< 0-d double: the step count the update reads
};

class Adam : public Optimizer {
public:
  Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults = {});
  Adam(std::vector<Tensor> params, AdamOptions defaults = {})
      : Adam({OptimizerParamGroup(std::move(params))}, defaults) {}
  Tensor step(LossClosure closure = nullptr) override;
};

namespace detail {
/// The moments' update and the parameter's step that Adam and AdamW share (`grad` already holds
/// Adam's coupled weight decay; AdamW decays the parameter before): the state is made on the
/// first step, the step count advanced in it.
void adam_moments_step(Tensor &p, const Tensor &grad, std::unique_ptr<OptimizerParamState> &slot, double lr,
                       std::tuple<double, double> betas, double eps, bool amsgrad);
/// LibTorch's checks of Adam's and AdamW's options.
void check_adam_options(double lr, double eps, std::tuple<double, double> betas, double weight_decay);
} // namespace detail

} // namespace gfy::optim
