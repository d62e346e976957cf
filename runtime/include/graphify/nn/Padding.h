#pragma once
/// \file
/// Padding of LibTorch 1.13: `F::pad` with `PadFuncOptions(pad).mode(...).value(v)` (modes
/// `kConstant`, `kReflect`, `kReplicate`, `kCircular`; pairs from the last dim backwards,
/// negative amounts crop), and the modules `ReflectionPad1d ReflectionPad2d ReplicationPad1d
/// ReplicationPad2d ZeroPad2d ConstantPad1d ConstantPad2d` with their options.
///
/// \code
///   namespace F = gfy::nn::functional;
///   auto y = F::pad(x, F::PadFuncOptions({1, 1, 2, 2}).mode(gfy::kReflect));   // W += 2, H += 4
///   gfy::nn::ReflectionPad2d pad(1);
/// \endcode

#include <graphify/nn/Conv.h>

#include <variant>
#include <vector>

namespace gfy {
namespace enumtype {
struct kConstant {};
} // namespace enumtype
inline constexpr enumtype::kConstant kConstant{};
} // namespace gfy

namespace gfy::nn {

namespace functional {
struct PadFuncOptions {
  using mode_t = std::variant<enumtype::kConstant, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;
  /* implicit */ PadFuncOptions(std::vector<int64_t> pad) : pad_(std::move(pad)) {}
  GFY_ARG(std::vector<int64_t>, pad);
  GFY_ARG(mode_t, mode) = kConstant;
  GFY_ARG(double, value) = 0;
};
Tensor pad(const Tensor &input, const PadFuncOptions &options);
} // namespace functional

/// Options of the padding modules: `D` spatial dims, 2 * D amounts (left, right, top, bottom).
template <size_t D> struct PadOptions {
  /* implicit */ PadOptions(ExpandingArray<D * 2> padding) : padding_(padding) {}
  GFY_ARG(ExpandingArray<D * 2>, padding);
};
template <size_t D> struct ConstantPadOptions {
  ConstantPadOptions(ExpandingArray<D * 2> padding, double value) : padding_(padding), value_(value) {}
  GFY_ARG(ExpandingArray<D * 2>, padding);
  GFY_ARG(double, value);
};
using ReflectionPad1dOptions = PadOptions<1>;
using ReflectionPad2dOptions = PadOptions<2>;
using ReplicationPad1dOptions = PadOptions<1>;
using ReplicationPad2dOptions = PadOptions<2>;
using ZeroPad2dOptions = PadOptions<2>;
using ConstantPad1dOptions = ConstantPadOptions<1>;
using ConstantPad2dOptions = ConstantPadOptions<2>;

/// One padding module: the options' amounts in mode `Mode` (enumtype::kConstant uses `value`).
template <size_t D, class Mode, class Options> class PadImpl : public Module {
public:
  explicit PadImpl(const Options &options, const char *name = "Pad") : Module(name), options(options) {}
  Tensor forward(const Tensor &input) {
    std::vector<int64_t> amounts(options.padding()->begin(), options.padding()->end());
    functional::PadFuncOptions o(amounts);
    o.mode(Mode{});
    if constexpr (requires { options.value(); }) o.value(options.value());
    return functional::pad(input, o);
  }
  void reset() {}
  Options options;
};

#define GFY_PAD_MODULE(Name, D, Mode, Opts)                                                        \
  class Name##Impl : public PadImpl<D, Mode, Opts> {                                               \
  public:                                                                                          \
    explicit Name##Impl(ExpandingArray<D * 2> padding) : Name##Impl(Opts(padding)) {}              \
    explicit Name##Impl(const Opts &options) : PadImpl<D, Mode, Opts>(options, #Name) {}           \
  };                                                                                               \
  GFY_MODULE(Name)
#define GFY_CONSTANT_PAD_MODULE(Name, D)                                                           \
  class Name##Impl : public PadImpl<D, enumtype::kConstant, Name##Options> {                       \
  public:                                                                                          \
    Name##Impl(ExpandingArray<D * 2> padding, double value) : Name##Impl(Name##Options(padding, value)) {} \
    explicit Name##Impl(const Name##Options &options)                                              \
        : PadImpl<D, enumtype::kConstant, Name##Options>(options, #Name) {}                        \
  };                                                                                               \
  GFY_MODULE(Name)
GFY_PAD_MODULE(ReflectionPad1d, 1, enumtype::kReflect, ReflectionPad1dOptions);
GFY_PAD_MODULE(ReflectionPad2d, 2, enumtype::kReflect, ReflectionPad2dOptions);
GFY_PAD_MODULE(ReplicationPad1d, 1, enumtype::kReplicate, ReplicationPad1dOptions);
GFY_PAD_MODULE(ReplicationPad2d, 2, enumtype::kReplicate, ReplicationPad2dOptions);
GFY_PAD_MODULE(ZeroPad2d, 2, enumtype::kConstant, ZeroPad2dOptions);
GFY_CONSTANT_PAD_MODULE(ConstantPad1d, 1);
GFY_CONSTANT_PAD_MODULE(ConstantPad2d, 2);
#undef GFY_CONSTANT_PAD_MODULE
#undef GFY_PAD_MODULE

} // namespace gfy::nn
