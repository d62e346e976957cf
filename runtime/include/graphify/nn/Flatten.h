#pragma once
/// \file
/// The shape-only modules of LibTorch 1.13's linear.h: `Identity` (returns its input) and
/// `Flatten` (flattens dims start_dim..end_dim, by default all but the batch dim), which model
/// code uses as placeholders and glue inside a Sequential.
///
/// \code
///   gfy::nn::Sequential head(gfy::nn::Flatten(), gfy::nn::Linear(3 * 4, 10));   // (N, 3, 4) -> (N, 10)
///   gfy::nn::Flatten all(gfy::nn::FlattenOptions().start_dim(0));
/// \endcode

#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

namespace gfy::nn {

/// Returns its input (the same tensor, not a copy), as LibTorch's Identity.
class IdentityImpl : public Module {
public:
  IdentityImpl() : Module("Identity") {}
  Tensor forward(const Tensor &input) { return input; }
};
GFY_MODULE(Identity);

struct FlattenOptions {
  GFY_ARG(int64_t, start_dim) = 1;
  GFY_ARG(int64_t, end_dim) = -1;
};

class FlattenImpl : public Module {
public:
  explicit FlattenImpl(const FlattenOptions &options = {}) : Module("Flatten"), options(options) {}
  Tensor forward(const Tensor &input) { return input.flatten(options.start_dim(), options.end_dim()); }
  FlattenOptions options;
};
GFY_MODULE(Flatten);

} // namespace gfy::nn
