#pragma once
/// \file
/// Batch normalisation of LibTorch 1.13: `BatchNorm1d` (input (N, C) or (N, C, L)) and
/// `BatchNorm2d` (input (N, C, H, W)) with `BatchNormOptions` (eps, momentum, affine,
/// track_running_stats), parameters `weight` (ones) and `bias` (zeros), buffers `running_mean`
/// (zeros), `running_var` (ones) and `num_batches_tracked`, and `F::batch_norm` with
/// `BatchNormFuncOptions`. In training mode a module normalises by the batch's statistics and
/// moves its running estimates towards them (momentum, or a cumulative average when momentum is
/// nullopt); after `eval()` it normalises by the running estimates.
///
/// \code
///   gfy::nn::BatchNorm2d bn(gfy::nn::BatchNorm2dOptions(16).momentum(0.01));
///   auto y = bn(x);        // training: batch statistics, running stats updated
///   bn->eval();
///   auto z = bn(x);        // running statistics
/// \endcode

#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <optional>

namespace gfy::nn {

struct BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features) : num_features_(num_features) {}
  GFY_ARG(int64_t, num_features);
  GFY_ARG(double, eps) = 1e-5;
  /// nullopt: a cumulative moving average (1 / num_batches_tracked).
  GFY_ARG(std::optional<double>, momentum) = 0.1;
  GFY_ARG(bool, affine) = true;
  GFY_ARG(bool, track_running_stats) = true;
};
using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;

/// The shared body of BatchNorm1d and BatchNorm2d; `D` only decides the accepted input ranks.
template <size_t D> class BatchNormImpl : public Module {
public:
  explicit BatchNormImpl(const BatchNormOptions &options);
  Tensor forward(const Tensor &input);
  /// running_mean = 0, running_var = 1, num_batches_tracked = 0.
  void reset_running_stats();
  /// reset_running_stats(), weight = 1, bias = 0.
  void reset_parameters();
  BatchNormOptions options;
  Tensor weight, bias, running_mean, running_var, num_batches_tracked;
};

class BatchNorm1dImpl : public BatchNormImpl<1> {
public:
  using BatchNormImpl<1>::BatchNormImpl;
};
GFY_MODULE(BatchNorm1d);

class BatchNorm2dImpl : public BatchNormImpl<2> {
public:
  using BatchNormImpl<2>::BatchNormImpl;
};
GFY_MODULE(BatchNorm2d);

namespace functional {

/// Note LibTorch's default `training(false)`: F::batch_norm uses the running statistics.
struct BatchNormFuncOptions {
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(Tensor, bias) = {};
  GFY_ARG(bool, training) = false;
  GFY_ARG(std::optional<double>, momentum) = 0.1;
  GFY_ARG(double, eps) = 1e-5;
};

/// Throws in training mode for a single value per channel (LibTorch's check).
Tensor batch_norm(const Tensor &input, const Tensor &running_mean, const Tensor &running_var,
                  const BatchNormFuncOptions &options = {});

} // namespace functional
} // namespace gfy::nn
