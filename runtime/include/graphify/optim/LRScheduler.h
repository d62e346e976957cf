#pragma once
/// \file
/// Learning-rate schedulers as LibTorch 1.13's `torch::optim::LRScheduler` (the base user
/// schedulers derive from: they override `get_lrs()`, one rate per parameter group) and `StepLR`
/// (the rate times gamma every step_size steps). `step()` writes the rates into the optimizer's
/// parameter groups; the scheduler holds a reference, so the optimizer must outlive it.
///
/// \code
///   gfy::optim::SGD opt(model->parameters(), 0.1);
///   gfy::optim::StepLR sched(opt, /*step_size=*/30, /*gamma=*/0.1);
///   for (int epoch = 0; epoch < 90; ++epoch) { train(opt); sched.step(); }
/// \endcode

#include <graphify/optim/Optimizer.h>

#include <vector>

namespace gfy::optim {

class LRScheduler {
public:
  explicit LRScheduler(Optimizer &optimizer) : optimizer_(optimizer) {}
  virtual ~LRScheduler() = default;
  /// Sets every group's rate to get_lrs()'s, then counts the step.
  void step();

protected:
  /// The rates of the next step, one per parameter group.
  virtual std::vector<double> get_lrs() = 0;
  /// The groups' rates now.
  std::vector<double> get_current_lrs() const;
  unsigned step_count_{};

private:
  void set_optimizer_lrs(const std::vector<double> &learning_rates);
  Optimizer &optimizer_;
};

class StepLR : public LRScheduler {
public:
  StepLR(Optimizer &optimizer, const unsigned step_size, const double gamma = 0.1);

private:
  std::vector<double> get_lrs() override;
  const unsigned step_size_;
  const double gamma_;
};

} // namespace gfy::optim
