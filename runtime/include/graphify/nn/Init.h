#pragma once
/// \file
/// Parameter initialisers of LibTorch's `torch::nn::init`: each fills its argument in place and
/// returns it. Deterministic ones (`constant_ zeros_ ones_ eye_`) give LibTorch's values; random
/// ones draw from the runtime's seeded generator with LibTorch's bounds and standard deviations,
/// so shapes and statistics match while the draws themselves differ (as for every random op).
///
/// \code
///   gfy::nn::init::xavier_uniform_(linear->weight);
///   gfy::nn::init::zeros_(linear->bias);
///   gfy::nn::init::kaiming_normal_(w, 0, gfy::kFanOut, gfy::kReLU);
/// \endcode
#include <graphify/core/Tensor.h>

#include <tuple>
#include <variant>

namespace gfy {

/// The tags of LibTorch's `torch::enumtype` used by the initialisers.
namespace enumtype {
struct kFanIn {};
struct kFanOut {};
struct kLinear {};
struct kConv1D {};
struct kConv2D {};
struct kConv3D {};
struct kSigmoid {};
struct kTanh {};
struct kReLU {};
struct kLeakyReLU {};
} // namespace enumtype
inline constexpr enumtype::kFanIn kFanIn{};
inline constexpr enumtype::kFanOut kFanOut{};
inline constexpr enumtype::kLinear kLinear{};
inline constexpr enumtype::kConv1D kConv1D{};
inline constexpr enumtype::kConv2D kConv2D{};
inline constexpr enumtype::kConv3D kConv3D{};
inline constexpr enumtype::kSigmoid kSigmoid{};
inline constexpr enumtype::kTanh kTanh{};
inline constexpr enumtype::kReLU kReLU{};
inline constexpr enumtype::kLeakyReLU kLeakyReLU{};

namespace nn::init {

using FanModeType = std::variant<enumtype::kFanIn, enumtype::kFanOut>;
using NonlinearityType = std::variant<enumtype::kLinear, enumtype::kConv1D, enumtype::kConv2D, enumtype::kConv3D,
                                      enumtype::kSigmoid, enumtype::kTanh, enumtype::kReLU, enumtype::kLeakyReLU>;

/// The recommended gain for a nonlinearity (LibTorch's table; `param` is leaky_relu's slope).
double calculate_gain(NonlinearityType nonlinearity, double param = 0.01);
/// (fan_in, fan_out) of a weight of at least two dims: dims 1 and 0 times the receptive field.
std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor &tensor);

Tensor constant_(Tensor tensor, Scalar value);
Tensor zeros_(Tensor tensor);
Tensor ones_(Tensor tensor);
/// A 2-d tensor becomes the identity (ones on the diagonal of its leading square).
Tensor eye_(Tensor matrix);
Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
Tensor kaiming_uniform_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                        NonlinearityType nonlinearity = kLeakyReLU);
Tensor kaiming_normal_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                       NonlinearityType nonlinearity = kLeakyReLU);
/// A (semi-)orthogonal matrix times `gain`, drawn uniformly (Q of the QR factorisation of a
/// Gaussian matrix with R's diagonal made positive); a tensor of more than 2 dims is flattened to
/// (size(0), rest). As LibTorch's, including its refusal of fewer than 2 dims.
Tensor orthogonal_(Tensor tensor, double gain = 1.0);

} // namespace nn::init
} // namespace gfy
