#pragma once
/// \file
/// `torch::nn::functional` of LibTorch 1.13 (usually spelled `F::`): the stateless forms of the
/// layers and activations, taking their arguments as `*FuncOptions` builders. Everything here is a
/// thin front-end over gfy:: tensor functions. Losses live in <graphify/nn/Loss.h>.
///
/// \code
///   namespace F = gfy::nn::functional;
///   auto p = F::softmax(logits, F::SoftmaxFuncOptions(1));
///   auto h = F::dropout(F::relu(x), F::DropoutFuncOptions().p(0.1).training(false));
///   auto y = F::layer_norm(h, F::LayerNormFuncOptions({64}).eps(1e-6));
/// \endcode
///
/// As in LibTorch, `F::` has no `sigmoid` or `tanh` (use `torch::sigmoid`, `torch::tanh`), and
/// `F::embedding` takes `(input, weight)` where `torch::embedding` takes `(weight, indices)`.

#include <graphify/core/Functions.h>
#include <graphify/nn/Options.h>

#include <optional>
#include <string>
#include <vector>

namespace gfy::nn {

/// Options of ReLU and F::relu.
struct ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false) : inplace_(inplace) {}
  GFY_ARG(bool, inplace);
};

/// Options of GELU and F::gelu: approximate is "none" (erf) or "tanh".
struct GELUOptions {
  GFY_ARG(std::string, approximate) = "none";
};

/// Options of LeakyReLU and F::leaky_relu.
struct LeakyReLUOptions {
  GFY_ARG(double, negative_slope) = 1e-2;
  GFY_ARG(bool, inplace) = false;
};

/// Options of ELU and F::elu.
struct ELUOptions {
  GFY_ARG(double, alpha) = 1.0;
  GFY_ARG(bool, inplace) = false;
};

/// Options of Softplus and F::softplus.
struct SoftplusOptions {
  GFY_ARG(double, beta) = 1.0;
  GFY_ARG(double, threshold) = 20.0;
};

namespace functional {

using ReLUFuncOptions = ReLUOptions;
using ELUFuncOptions = ELUOptions;
using SoftplusFuncOptions = SoftplusOptions;
using GELUFuncOptions = GELUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;

struct SoftmaxFuncOptions {
  /* implicit */ SoftmaxFuncOptions(int64_t dim) : dim_(dim) {}
  GFY_ARG(int64_t, dim);
  GFY_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

struct LogSoftmaxFuncOptions {
  /* implicit */ LogSoftmaxFuncOptions(int64_t dim) : dim_(dim) {}
  GFY_ARG(int64_t, dim);
  GFY_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

/// Note LibTorch's default `training(true)`: F::dropout(x) draws a mask unless told otherwise.
struct DropoutFuncOptions {
  GFY_ARG(double, p) = 0.5;
  GFY_ARG(bool, training) = true;
  GFY_ARG(bool, inplace) = false;
};

/// F::dropout2d zeroes whole channels of (N, C, H, W) or unbatched (C, H, W) inputs.
using Dropout2dFuncOptions = DropoutFuncOptions;

struct LayerNormFuncOptions {
  /* implicit */ LayerNormFuncOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  GFY_ARG(std::vector<int64_t>, normalized_shape);
  GFY_ARG(Tensor, weight) = {};
  GFY_ARG(Tensor, bias) = {};
  GFY_ARG(double, eps) = 1e-5;
};

/// `out` is not supported (the result is always a new tensor).
struct NormalizeFuncOptions {
  GFY_ARG(double, p) = 2.0;
  GFY_ARG(int64_t, dim) = 1;
  GFY_ARG(double, eps) = 1e-12;
};

/// `max_norm` (which renormalises the weight in place) is not supported.
struct EmbeddingFuncOptions {
  GFY_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  GFY_ARG(bool, scale_grad_by_freq) = false;
  GFY_ARG(bool, sparse) = false;
};

Tensor relu(Tensor input, const ReLUFuncOptions &options = {});
Tensor gelu(const Tensor &input, const GELUFuncOptions &options = {});
Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions &options = {});
Tensor silu(const Tensor &input);
Tensor elu(Tensor input, const ELUFuncOptions &options = {});
Tensor softplus(const Tensor &input, const SoftplusFuncOptions &options = {});
Tensor mish(const Tensor &input);
Tensor softmax(const Tensor &input, const SoftmaxFuncOptions &options);
Tensor log_softmax(const Tensor &input, const LogSoftmaxFuncOptions &options);
Tensor dropout(Tensor input, const DropoutFuncOptions &options = {});
Tensor dropout2d(Tensor input, const Dropout2dFuncOptions &options = {});
Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias = {});
Tensor layer_norm(const Tensor &input, const LayerNormFuncOptions &options);
/// input / max(‖input‖_p over `dim`, eps).
Tensor normalize(const Tensor &input, NormalizeFuncOptions options = {});
/// Rows of `weight` picked by `input` (long or int indices).
Tensor embedding(const Tensor &input, const Tensor &weight, const EmbeddingFuncOptions &options = {});
/// (…, num_classes) long tensor; num_classes = -1 infers max + 1 (a host read).
Tensor one_hot(const Tensor &tensor, int64_t num_classes = -1);

} // namespace functional
} // namespace gfy::nn
