// LRScheduler and StepLR as LibTorch 1.13's (torch/csrc/api/src/optim/schedulers): the rates
// are read from and written to the parameter groups' options, so a group's own rate is scaled
// on its own.
#include <graphify/core/Types.h>
#include <graphify/optim/LRScheduler.h>

namespace gfy::optim {

void LRScheduler::step() {
  set_optimizer_lrs(get_lrs());
  ++step_count_;
}

std::vector<double> LRScheduler::get_current_lrs() const {
  std::vector<double> lrs;
  lrs.reserve(optimizer_.param_groups().size());
  for (const auto &group : optimizer_.param_groups()) lrs.push_back(group.options().get_lr());
  return lrs;
}

void LRScheduler::set_optimizer_lrs(const std::vector<double> &learning_rates) {
  GFY_CHECK(learning_rates.size() == optimizer_.param_groups().size(),
            "Number of learning rates not equal to the number of param groups\nNumber of learning rates given: ",
            learning_rates.size(), "\nNumber of param groups: ", optimizer_.param_groups().size());
  for (size_t i = 0; i < learning_rates.size(); ++i) optimizer_.param_groups()[i].options().set_lr(learning_rates[i]);
}

StepLR::StepLR(Optimizer &optimizer, const unsigned step_size, const double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {}

std::vector<double> StepLR::get_lrs() {
  std::vector<double> lrs = get_current_lrs();
  if (step_count_ == 0 || step_count_ % step_size_ != 0) return lrs;
  for (double &lr : lrs) lr *= gamma_;
  return lrs;
}

} // namespace gfy::optim
