#pragma once
/// \file
/// torch::nn::utils: gradient clipping and parameters flattened into one vector, as LibTorch
/// 1.13's clip_grad.h and convert_parameters.h (names, defaults, messages). Packed sequences
/// (utils/rnn.h) are not provided.
///
/// \code
///   loss.backward();
///   gfy::nn::utils::clip_grad_norm_(model->parameters(), /*max_norm=*/1.0);
///   opt.step();
/// \endcode

#include <graphify/core/Tensor.h>

#include <initializer_list>
#include <source_location>
#include <vector>

namespace gfy::nn::utils {

/// Scales the gradients of `parameters` so that their joint `norm_type` norm (inf: the largest
/// magnitude) is at most `max_norm`; returns the norm before clipping. With
/// `error_if_nonfinite`, a NaN or infinite norm throws instead. The norm is read back to the host
/// (LibTorch's C++ form returns a double), so it is refused inside a captured graph.
double clip_grad_norm_(const std::vector<Tensor> &parameters, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false, std::source_location loc = std::source_location::current());
double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false, std::source_location loc = std::source_location::current());
double clip_grad_norm_(const Tensor &parameter, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false, std::source_location loc = std::source_location::current());
/// Clamps every gradient of `parameters` to [-clip_value, clip_value].
void clip_grad_value_(const std::vector<Tensor> &parameters, double clip_value);
void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value);
void clip_grad_value_(const Tensor &parameter, double clip_value);
/// The parameters flattened and concatenated (all on one device).
Tensor parameters_to_vector(const std::vector<Tensor> &parameters);
/// Copies consecutive slices of `vec` into the parameters (the inverse of parameters_to_vector).
void vector_to_parameters(const Tensor &vec, const std::vector<Tensor> &parameters);

} // namespace gfy::nn::utils
