#pragma once
/// \file
/// The optimizer base of `torch::optim` (LibTorch 1.13): parameter groups with per-group options,
/// per-parameter state keyed by the parameter, `zero_grad()` and `step()`.
///
/// \code
///   gfy::optim::SGD opt(model->parameters(), gfy::optim::SGDOptions(0.1).momentum(0.9));
///   opt.zero_grad();
///   loss.backward();
///   opt.step();
/// \endcode
///
/// Each step is a few runtime ops per parameter under NoGradGuard, with no host reads, so a
/// training step (forward, backward, step) can be captured with gfy::capture and replayed: the
/// parameters and the optimizer state are updated in place on every replay. As with CUDA graphs,
/// capture after one eager step, so that the state (momentum buffers, Adam's moments) exists.

#include <graphify/core/Tensor.h>
#include <graphify/nn/Options.h>

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace gfy::optim {

/// The options every optimizer's options class derives from (the learning rate, read by
/// schedulers).
class OptimizerOptions {
public:
  virtual ~OptimizerOptions() = default;
  virtual std::unique_ptr<OptimizerOptions> clone() const = 0;
  virtual double get_lr() const = 0;
  virtual void set_lr(double lr) = 0;
};

/// CRTP helper giving an options class its `clone()`.
template <class Derived> class OptimizerCloneableOptions : public OptimizerOptions {
public:
  std::unique_ptr<OptimizerOptions> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived &>(*this));
  }
};

/// Per-parameter state (momentum buffers, moments).
class OptimizerParamState {
public:
  virtual ~OptimizerParamState() = default;
};

/// Parameters that share options. Without options, a group takes the optimizer's defaults.
class OptimizerParamGroup {
public:
  OptimizerParamGroup(std::vector<Tensor> params) : params_(std::move(params)) {}
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options)
      : params_(std::move(params)), options_(std::move(options)) {}
  OptimizerParamGroup(const OptimizerParamGroup &g)
      : params_(g.params_), options_(g.options_ ? g.options_->clone() : nullptr) {}
  OptimizerParamGroup &operator=(const OptimizerParamGroup &g) {
    params_ = g.params_;
    options_ = g.options_ ? g.options_->clone() : nullptr;
    return *this;
  }
  bool has_options() const { return options_ != nullptr; }
  OptimizerOptions &options();
  const OptimizerOptions &options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) { options_ = std::move(options); }
  std::vector<Tensor> &params() { return params_; }
  const std::vector<Tensor> &params() const { return params_; }

private:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

using LossClosure = std::function<Tensor()>;

class Optimizer {
public:
  Optimizer(std::vector<OptimizerParamGroup> param_groups, std::unique_ptr<OptimizerOptions> defaults);
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer &) = delete;
  Optimizer &operator=(const Optimizer &) = delete;

  /// Adds a group; without options it copies the defaults. A parameter may be in one group only.
  void add_param_group(const OptimizerParamGroup &group);
  /// One update of every parameter that has a gradient; returns the closure's loss, if any.
  virtual Tensor step(LossClosure closure = nullptr) = 0;
  /// Zeroes every defined `.grad()` in place (LibTorch 1.13's behaviour), so that a captured
  /// step's gradient buffers stay the same tensors.
  void zero_grad();
  /// All parameters of all groups.
  std::vector<Tensor> parameters() const;
  size_t size() const;
  std::vector<OptimizerParamGroup> &param_groups() noexcept { return param_groups_; }
  const std::vector<OptimizerParamGroup> &param_groups() const noexcept { return param_groups_; }
  /// State per parameter, keyed by its TensorImpl address as LibTorch does.
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> &state() noexcept { return state_; }
  const std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> &state() const noexcept {
    return state_;
  }
  OptimizerOptions &defaults() noexcept { return *defaults_; }

protected:
  /// The loss of `closure`, evaluated with gradients recorded (an undefined tensor without one),
  /// as LibTorch's optimizers do before their no-grad update.
  static Tensor evaluate(const LossClosure &closure);
  static std::string key(const Tensor &p);
  std::vector<OptimizerParamGroup> param_groups_;
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> state_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

} // namespace gfy::optim
