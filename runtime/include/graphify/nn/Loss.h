#pragma once
/// \file
/// Forward-only losses of LibTorch 1.13: `F::mse_loss`, `F::nll_loss`, `F::cross_entropy` and the
/// modules `MSELoss`, `NLLLoss`, `CrossEntropyLoss`, with LibTorch's reductions `torch::kNone`,
/// `torch::kMean` (the default) and `torch::kSum`.
///
/// \code
///   namespace F = gfy::nn::functional;
///   auto l = F::cross_entropy(logits, targets);                        // mean over the batch
///   auto per = F::nll_loss(logp, targets, F::NLLLossFuncOptions().reduction(gfy::kNone));
///   gfy::nn::MSELoss mse(gfy::nn::MSELossOptions(gfy::kSum));
/// \endcode

#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <variant>

namespace gfy {

/// The reduction tags of LibTorch's `torch::enumtype`; each is its own type so that options can
/// hold them in a variant and constructors can be overloaded on them.
namespace enumtype {
struct kNone {};
struct kMean {};
struct kSum {};
} // namespace enumtype
inline constexpr enumtype::kNone kNone{};
inline constexpr enumtype::kMean kMean{};
inline constexpr enumtype::kSum kSum{};

namespace nn {

using LossReduction = std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;

struct MSELossOptions {
  using reduction_t = LossReduction;
  MSELossOptions() = default;
  /* implicit */ MSELossOptions(enumtype::kNone r) : reduction_(r) {}
  /* implicit */ MSELossOptions(enumtype::kMean r) : reduction_(r) {}
  /* implicit */ MSELossOptions(enumtype::kSum r) : reduction_(r) {}
  GFY_ARG(reduction_t, reduction) = kMean;
};

struct NLLLossOptions {
  using reduction_t = LossReduction;
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(int64_t, ignore_index) = -100;
  GFY_ARG(reduction_t, reduction) = kMean;
};

struct CrossEntropyLossOptions {
  using reduction_t = LossReduction;
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(int64_t, ignore_index) = -100;
  GFY_ARG(reduction_t, reduction) = kMean;
  GFY_ARG(double, label_smoothing) = 0.0;
};

namespace functional {

using MSELossFuncOptions = MSELossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;

/// Mean (or sum, or elementwise) squared error; input and target broadcast.
Tensor mse_loss(const Tensor &input, const Tensor &target, const MSELossFuncOptions &options = {});
/// input: log-probabilities (N, C) or (N, C, d1, ...); target: long class indices (N) or (N, d1, ...).
/// The mean divides by the summed weights of the targets that are not `ignore_index`.
Tensor nll_loss(const Tensor &input, const Tensor &target, const NLLLossFuncOptions &options = {});
/// log_softmax over the class dim, then nll_loss; a floating target of input's shape is read as
/// class probabilities. Supports weight, ignore_index and label_smoothing as LibTorch.
Tensor cross_entropy(const Tensor &input, const Tensor &target, const CrossEntropyFuncOptions &options = {});

} // namespace functional

class MSELossImpl : public Module {
public:
  explicit MSELossImpl(const MSELossOptions &options = {}) : Module("MSELoss"), options(options) {}
  Tensor forward(const Tensor &input, const Tensor &target) { return functional::mse_loss(input, target, options); }
  MSELossOptions options;
};
GFY_MODULE(MSELoss);

class NLLLossImpl : public Module {
public:
  explicit NLLLossImpl(const NLLLossOptions &options = {});
  Tensor forward(const Tensor &input, const Tensor &target) { return functional::nll_loss(input, target, options); }
  NLLLossOptions options;
  Tensor weight; ///< registered as a buffer when given, as LibTorch
};
GFY_MODULE(NLLLoss);

class CrossEntropyLossImpl : public Module {
public:
  explicit CrossEntropyLossImpl(const CrossEntropyLossOptions &options = {});
  Tensor forward(const Tensor &input, const Tensor &target) {
    return functional::cross_entropy(input, target, options);
  }
  CrossEntropyLossOptions options;
  Tensor weight; ///< registered as a buffer when given, as LibTorch
};
GFY_MODULE(CrossEntropyLoss);

} // namespace nn
} // namespace gfy
