#pragma once
/// \file
/// Forward-only losses of LibTorch 1.13: `F::mse_loss`, `F::nll_loss`, `F::cross_entropy`,
/// `F::l1_loss`, `F::smooth_l1_loss`, `F::huber_loss`, `F::binary_cross_entropy`,
/// `F::binary_cross_entropy_with_logits`, `F::kl_div` and their modules (`MSELoss`, `NLLLoss`,
/// `CrossEntropyLoss`, `L1Loss`, `SmoothL1Loss`, `HuberLoss`, `BCELoss`, `BCEWithLogitsLoss`,
/// `KLDivLoss`), with LibTorch's reductions `torch::kNone`, `torch::kMean` (the default),
/// `torch::kSum` (and `torch::kBatchMean` for kl_div); and the `torch::` spellings that take
/// `torch::Reduction::Mean`-style integers (`torch::mse_loss(x, y)`, `torch::nll_loss(...)`).
///
/// \code
///   namespace F = gfy::nn::functional;
///   auto l = F::cross_entropy(logits, targets);                        // mean over the batch
///   auto per = F::nll_loss(logp, targets, F::NLLLossFuncOptions().reduction(gfy::kNone));
///   gfy::nn::MSELoss mse(gfy::nn::MSELossOptions(gfy::kSum));
/// \endcode

#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <optional>
#include <variant>

namespace gfy {

/// The reduction tags of LibTorch's `torch::enumtype`; each is its own type so that options can
/// hold them in a variant and constructors can be overloaded on them.
namespace enumtype {
struct kNone {};
struct kMean {};
struct kSum {};
struct kBatchMean {};
} // namespace enumtype
inline constexpr enumtype::kNone kNone{};
inline constexpr enumtype::kMean kMean{};
inline constexpr enumtype::kSum kSum{};
inline constexpr enumtype::kBatchMean kBatchMean{};

/// at::Reduction: the integer reductions of the `torch::` loss functions.
namespace Reduction {
enum Reduction { None, Mean, Sum, END };
} // namespace Reduction

/// `torch::mse_loss(input, target, torch::Reduction::Sum)` and the other ATen spellings; their
/// `F::` forms below take options. Defined in src/nn/losses.cpp and src/nn/functional.cpp.
Tensor mse_loss(const Tensor &input, const Tensor &target, int64_t reduction = Reduction::Mean);
Tensor l1_loss(const Tensor &input, const Tensor &target, int64_t reduction = Reduction::Mean);
Tensor smooth_l1_loss(const Tensor &input, const Tensor &target, int64_t reduction = Reduction::Mean,
                      double beta = 1.0);
Tensor huber_loss(const Tensor &input, const Tensor &target, int64_t reduction = Reduction::Mean,
                  double delta = 1.0);
Tensor nll_loss(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight = {},
                int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
/// nll_loss for (N, C, H, W) inputs and (N, H, W) targets, the form LibTorch names separately.
Tensor nll_loss2d(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight = {},
                  int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
Tensor cross_entropy_loss(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight = {},
                          int64_t reduction = Reduction::Mean, int64_t ignore_index = -100,
                          double label_smoothing = 0.0);
/// -w (t log(x) + (1 - t) log(1 - x)), each log clamped at -100; x must lie in [0, 1].
Tensor binary_cross_entropy(const Tensor &input, const Tensor &target, const std::optional<Tensor> &weight = {},
                            int64_t reduction = Reduction::Mean);
/// The numerically stable form of binary_cross_entropy(sigmoid(x), t), with `pos_weight` on the
/// positive term.
Tensor binary_cross_entropy_with_logits(const Tensor &input, const Tensor &target,
                                        const std::optional<Tensor> &weight = {},
                                        const std::optional<Tensor> &pos_weight = {},
                                        int64_t reduction = Reduction::Mean);
/// Pointwise t (log t - x) (0 where t = 0), or exp(t) (t - x) with `log_target`.
Tensor kl_div(const Tensor &input, const Tensor &target, int64_t reduction = Reduction::Mean, bool log_target = false);

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

/// Options of the losses that only reduce: L1Loss (and SmoothL1Loss, HuberLoss with their width).
struct L1LossOptions {
  using reduction_t = LossReduction;
  L1LossOptions() = default;
  /* implicit */ L1LossOptions(enumtype::kNone r) : reduction_(r) {}
  /* implicit */ L1LossOptions(enumtype::kMean r) : reduction_(r) {}
  /* implicit */ L1LossOptions(enumtype::kSum r) : reduction_(r) {}
  GFY_ARG(reduction_t, reduction) = kMean;
};

struct SmoothL1LossOptions {
  using reduction_t = LossReduction;
  SmoothL1LossOptions() = default;
  /* implicit */ SmoothL1LossOptions(enumtype::kNone r) : reduction_(r) {}
  /* implicit */ SmoothL1LossOptions(enumtype::kMean r) : reduction_(r) {}
  /* implicit */ SmoothL1LossOptions(enumtype::kSum r) : reduction_(r) {}
  GFY_ARG(reduction_t, reduction) = kMean;
  GFY_ARG(double, beta) = 1.0;
};

struct HuberLossOptions {
  using reduction_t = LossReduction;
  HuberLossOptions() = default;
  /* implicit */ HuberLossOptions(enumtype::kNone r) : reduction_(r) {}
  /* implicit */ HuberLossOptions(enumtype::kMean r) : reduction_(r) {}
  /* implicit */ HuberLossOptions(enumtype::kSum r) : reduction_(r) {}
  GFY_ARG(reduction_t, reduction) = kMean;
  GFY_ARG(double, delta) = 1.0;
};

struct BCELossOptions {
  using reduction_t = LossReduction;
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(reduction_t, reduction) = kMean;
};

struct BCEWithLogitsLossOptions {
  using reduction_t = LossReduction;
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(reduction_t, reduction) = kMean;
  GFY_ARG(Tensor, pos_weight) = {};
};

struct KLDivLossOptions {
  using reduction_t = std::variant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum, enumtype::kMean>;
  KLDivLossOptions() = default;
  /* implicit */ KLDivLossOptions(enumtype::kNone r) : reduction_(r) {}
  /* implicit */ KLDivLossOptions(enumtype::kBatchMean r) : reduction_(r) {}
  /* implicit */ KLDivLossOptions(enumtype::kSum r) : reduction_(r) {}
  /* implicit */ KLDivLossOptions(enumtype::kMean r) : reduction_(r) {}
  GFY_ARG(reduction_t, reduction) = kMean;
  GFY_ARG(bool, log_target) = false;
};

namespace functional {

using L1LossFuncOptions = L1LossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using KLDivFuncOptions = KLDivLossOptions;

Tensor l1_loss(const Tensor &input, const Tensor &target, const L1LossFuncOptions &options = {});
/// As LibTorch 1.13, `beta` is the trailing argument here (SmoothL1LossOptions::beta is read by the module).
Tensor smooth_l1_loss(const Tensor &input, const Tensor &target, const SmoothL1LossFuncOptions &options = {},
                      double beta = 1.0);
Tensor huber_loss(const Tensor &input, const Tensor &target, const HuberLossFuncOptions &options = {});
/// input and target must have the same shape; a weight broadcasts to it.
Tensor binary_cross_entropy(const Tensor &input, const Tensor &target,
                            const BinaryCrossEntropyFuncOptions &options = {});
Tensor binary_cross_entropy_with_logits(const Tensor &input, const Tensor &target,
                                        const BinaryCrossEntropyWithLogitsFuncOptions &options = {});
/// kBatchMean divides the sum by the batch size (input.size(0)).
Tensor kl_div(const Tensor &input, const Tensor &target, const KLDivFuncOptions &options = {});

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

class L1LossImpl : public Module {
public:
  explicit L1LossImpl(const L1LossOptions &options = {}) : Module("L1Loss"), options(options) {}
  Tensor forward(const Tensor &input, const Tensor &target) { return functional::l1_loss(input, target, options); }
  L1LossOptions options;
};
GFY_MODULE(L1Loss);

class SmoothL1LossImpl : public Module {
public:
  explicit SmoothL1LossImpl(const SmoothL1LossOptions &options = {}) : Module("SmoothL1Loss"), options(options) {}
  Tensor forward(const Tensor &input, const Tensor &target) {
    return functional::smooth_l1_loss(input, target, options, options.beta());
  }
  SmoothL1LossOptions options;
};
GFY_MODULE(SmoothL1Loss);

class HuberLossImpl : public Module {
public:
  explicit HuberLossImpl(const HuberLossOptions &options = {}) : Module("HuberLoss"), options(options) {}
  Tensor forward(const Tensor &input, const Tensor &target) { return functional::huber_loss(input, target, options); }
  HuberLossOptions options;
};
GFY_MODULE(HuberLoss);

class BCELossImpl : public Module {
public:
  explicit BCELossImpl(const BCELossOptions &options = {});
  Tensor forward(const Tensor &input, const Tensor &target) {
    return functional::binary_cross_entropy(input, target, options);
  }
  BCELossOptions options;
  Tensor weight; ///< a buffer, as LibTorch (undefined without a weight)
};
GFY_MODULE(BCELoss);

class BCEWithLogitsLossImpl : public Module {
public:
  explicit BCEWithLogitsLossImpl(const BCEWithLogitsLossOptions &options = {});
  Tensor forward(const Tensor &input, const Tensor &target) {
    return functional::binary_cross_entropy_with_logits(input, target, options);
  }
  BCEWithLogitsLossOptions options;
  Tensor weight, pos_weight; ///< buffers, as LibTorch (undefined unless given)
};
GFY_MODULE(BCEWithLogitsLoss);

class KLDivLossImpl : public Module {
public:
  explicit KLDivLossImpl(const KLDivLossOptions &options = {}) : Module("KLDivLoss"), options(options) {}
  Tensor forward(const Tensor &input, const Tensor &target) { return functional::kl_div(input, target, options); }
  KLDivLossOptions options;
};
GFY_MODULE(KLDivLoss);

} // namespace nn
} // namespace gfy
