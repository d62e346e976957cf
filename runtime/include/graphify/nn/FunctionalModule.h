#pragma once
/// \file
/// LibTorch's `torch::nn::Functional`: a module that applies a function to its input, so that a
/// free function can sit in a Sequential. Extra arguments are bound after the input, as
/// LibTorch does with `std::bind(f, _1, args...)`. It has no parameters and prints as
/// `torch::nn::Functional()`.
///
/// \code
///   gfy::nn::Sequential head(gfy::nn::Conv2d(64, 64, 3), gfy::nn::Functional(gfy::relu),
///                            gfy::nn::Functional(gfy::dropout, 0.5, /*train=*/false));
/// \endcode

#include <graphify/nn/Module.h>

#include <functional>
#include <type_traits>
#include <utility>

namespace gfy::nn {

class FunctionalImpl : public Module {
public:
  using Function = std::function<Tensor(Tensor)>;

  explicit FunctionalImpl(Function function) : Module("Functional"), function_(std::move(function)) {}
  /// `Functional(torch::leaky_relu, 0.2)`: the input first, then `args`.
  template <class SomeFunction, class... Args, class = std::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args &&...args)
      : FunctionalImpl(Function(std::bind(original_function, std::placeholders::_1, std::forward<Args>(args)...))) {}

  Tensor forward(Tensor input) { return function_(std::move(input)); }
  /// Calls forward, as LibTorch's does.
  Tensor operator()(Tensor input) { return forward(std::move(input)); }

private:
  Function function_;
};
GFY_MODULE(Functional);

} // namespace gfy::nn
