// F::pad: PadFuncOptions to gfy::pad. LibTorch 1.13 checks the input rank against the number of
// padded dims for the non-constant modes (2 dims padded need a 3-d or 4-d input, ...); gfy::pad
// does the same, so this file only maps the mode tag to its name.
#include <graphify/nn/Padding.h>

namespace gfy::nn::functional {

Tensor pad(const Tensor &input, const PadFuncOptions &options) {
  const char *mode = std::visit(
      [](auto m) -> const char * {
        using M = decltype(m);
        if constexpr (std::is_same_v<M, enumtype::kConstant>) return "constant";
        else if constexpr (std::is_same_v<M, enumtype::kReflect>) return "reflect";
        else if constexpr (std::is_same_v<M, enumtype::kReplicate>) return "replicate";
        else return "circular";
      },
      options.mode());
  // A value of 0 counts as "no value" (LibTorch passes nullopt then), so only a non-zero value
  // with a non-constant mode is an error.
  return gfy::pad(input, options.pad(), mode,
                  options.value() != 0 ? std::optional<double>(options.value()) : std::nullopt);
}

} // namespace gfy::nn::functional
