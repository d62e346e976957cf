#pragma once
/// \file
/// `F::interpolate` with `InterpolateFuncOptions` and the `Upsample` module with
/// `UpsampleOptions`, as LibTorch 1.13: a target `size` or a `scale_factor` (one per spatial dim),
/// a `mode`, and `align_corners` for the linear modes. Supported: `kNearest` on 3-d and 4-d
/// inputs, `kLinear` on 3-d, `kBilinear` on 4-d, `kArea` (adaptive average pooling) on 3-d and
/// 4-d; the other modes (`kBicubic`, `kTrilinear`, `kNearestExact`) and 5-d inputs throw. As in
/// LibTorch, a scale factor (unless `recompute_scale_factor(true)`) is what maps output to input
/// positions, and the output size is floor(size * scale).
///
/// \code
///   namespace F = gfy::nn::functional;
///   auto up = F::interpolate(x, F::InterpolateFuncOptions()
///                                   .scale_factor(std::vector<double>{2, 2})
///                                   .mode(gfy::kBilinear)
///                                   .align_corners(false));
///   gfy::nn::Upsample upsample(gfy::nn::UpsampleOptions().size(std::vector<int64_t>{32, 32}));
/// \endcode

#include <graphify/nn/Init.h>
#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

#include <optional>
#include <variant>
#include <vector>

namespace gfy {

/// The interpolation modes of LibTorch's `torch::enumtype` (kLinear is shared with nn::init).
namespace enumtype {
struct kNearest {};
struct kBilinear {};
struct kBicubic {};
struct kTrilinear {};
struct kArea {};
struct kNearestExact {};
} // namespace enumtype
inline constexpr enumtype::kNearest kNearest{};
inline constexpr enumtype::kBilinear kBilinear{};
inline constexpr enumtype::kBicubic kBicubic{};
inline constexpr enumtype::kTrilinear kTrilinear{};
inline constexpr enumtype::kArea kArea{};
inline constexpr enumtype::kNearestExact kNearestExact{};

namespace nn {

struct UpsampleOptions {
  using mode_t = std::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear, enumtype::kBicubic,
                              enumtype::kTrilinear>;
  GFY_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  GFY_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  GFY_ARG(mode_t, mode) = kNearest;
  GFY_ARG(std::optional<bool>, align_corners) = std::nullopt;
};

namespace functional {

struct InterpolateFuncOptions {
  using mode_t = std::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear, enumtype::kBicubic,
                              enumtype::kTrilinear, enumtype::kArea, enumtype::kNearestExact>;
  GFY_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  GFY_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  GFY_ARG(mode_t, mode) = kNearest;
  /// Only for the linear modes; unset means false.
  GFY_ARG(std::optional<bool>, align_corners) = std::nullopt;
  /// true: map positions through the rounded output size instead of the scale factor.
  GFY_ARG(std::optional<bool>, recompute_scale_factor) = std::nullopt;
  /// Not supported (throws when set).
  GFY_ARG(bool, antialias) = false;
};

Tensor interpolate(const Tensor &input, const InterpolateFuncOptions &options = {});

} // namespace functional

/// F::interpolate with the module's options.
class UpsampleImpl : public Module {
public:
  explicit UpsampleImpl(const UpsampleOptions &options = {}) : Module("Upsample"), options(options) {}
  Tensor forward(const Tensor &input);
  UpsampleOptions options;
};
GFY_MODULE(Upsample);

} // namespace nn
} // namespace gfy
