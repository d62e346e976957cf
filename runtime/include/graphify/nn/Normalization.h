#pragma once
/// \file
/// Group and instance normalisation of LibTorch 1.13: `GroupNorm` (`GroupNormOptions(num_groups,
/// num_channels)`: eps, affine), `InstanceNorm1d`/`InstanceNorm2d` (`InstanceNormOptions(num_features)`:
/// eps, momentum, affine, track_running_stats — off by default, as in LibTorch), and
/// `F::group_norm`, `F::instance_norm` with their `*FuncOptions`.
///
/// \code
///   gfy::nn::GroupNorm gn(gfy::nn::GroupNormOptions(8, 64));          // 8 groups of 8 channels
///   gfy::nn::InstanceNorm2d in(gfy::nn::InstanceNorm2dOptions(64).affine(true));
/// \endcode

#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <optional>

namespace gfy::nn {

struct GroupNormOptions {
  GroupNormOptions(int64_t num_groups, int64_t num_channels) : num_groups_(num_groups), num_channels_(num_channels) {}
  GFY_ARG(int64_t, num_groups);
  GFY_ARG(int64_t, num_channels);
  GFY_ARG(double, eps) = 1e-5;
  GFY_ARG(bool, affine) = true;
};

/// weight (C) = 1 and bias (C) = 0 when affine.
class GroupNormImpl : public Module {
public:
  GroupNormImpl(int64_t num_groups, int64_t num_channels) : GroupNormImpl(GroupNormOptions(num_groups, num_channels)) {}
  explicit GroupNormImpl(const GroupNormOptions &options);
  void reset();
  void reset_parameters();
  Tensor forward(const Tensor &input);
  GroupNormOptions options;
  Tensor weight, bias;
};
GFY_MODULE(GroupNorm);

struct InstanceNormOptions {
  /* implicit */ InstanceNormOptions(int64_t num_features) : num_features_(num_features) {}
  GFY_ARG(int64_t, num_features);
  GFY_ARG(double, eps) = 1e-5;
  GFY_ARG(double, momentum) = 0.1;
  GFY_ARG(bool, affine) = false;
  GFY_ARG(bool, track_running_stats) = false;
};
using InstanceNorm1dOptions = InstanceNormOptions;
using InstanceNorm2dOptions = InstanceNormOptions;

/// The shared body of InstanceNorm1d and InstanceNorm2d; `D` decides the accepted input ranks
/// (D + 1 unbatched, D + 2 batched).
template <size_t D> class InstanceNormImpl : public Module {
public:
  explicit InstanceNormImpl(const InstanceNormOptions &options);
  void reset();
  void reset_running_stats();
  void reset_parameters();
  Tensor forward(const Tensor &input);
  InstanceNormOptions options;
  Tensor weight, bias, running_mean, running_var, num_batches_tracked;
};

class InstanceNorm1dImpl : public InstanceNormImpl<1> {
public:
  using InstanceNormImpl<1>::InstanceNormImpl;
};
GFY_MODULE(InstanceNorm1d);

class InstanceNorm2dImpl : public InstanceNormImpl<2> {
public:
  using InstanceNormImpl<2>::InstanceNormImpl;
};
GFY_MODULE(InstanceNorm2d);

namespace functional {
struct GroupNormFuncOptions {
  /* implicit */ GroupNormFuncOptions(int64_t num_groups) : num_groups_(num_groups) {}
  GFY_ARG(int64_t, num_groups);
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(Tensor, bias) = {};
  GFY_ARG(double, eps) = 1e-5;
};
Tensor group_norm(const Tensor &input, const GroupNormFuncOptions &options);

struct InstanceNormFuncOptions {
  GFY_ARG(Tensor, running_mean) = {};
  GFY_ARG(Tensor, running_var) = {};
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(Tensor, bias) = {};
  GFY_ARG(bool, use_input_stats) = true;
  GFY_ARG(double, momentum) = 0.1;
  GFY_ARG(double, eps) = 1e-5;
};
Tensor instance_norm(const Tensor &input, const InstanceNormFuncOptions &options = {});
} // namespace functional

} // namespace gfy::nn
