#pragma once
/// \file
/// The Dropout and Dropout2d modules of LibTorch 1.13: identity after `eval()`; in training mode
/// each element (Dropout) or each whole channel of an (N, C, H, W) or (C, H, W) input
/// (Dropout2d) is zeroed with probability p and the rest scaled by 1 / (1 - p), from the
/// runtime's generator (so the mask differs from LibTorch's, as any two generators' do).
///
/// \code
///   gfy::nn::Dropout drop(0.1);          // or Dropout(DropoutOptions().p(0.1).inplace(true))
///   model->eval();                        // dropout is now the identity
/// \endcode

#include <graphify/nn/Module.h>
#include <graphify/nn/Options.h>

namespace gfy::nn {

struct DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5) : p_(p) {}
  GFY_ARG(double, p);
  GFY_ARG(bool, inplace) = false;
};

class DropoutImpl : public Module {
public:
  DropoutImpl(double p) : DropoutImpl(DropoutOptions().p(p)) {}
  /// Throws unless 0 <= p <= 1.
  explicit DropoutImpl(const DropoutOptions &options = {});
  Tensor forward(Tensor input);
  void reset();
  DropoutOptions options;
};
GFY_MODULE(Dropout);

using Dropout2dOptions = DropoutOptions;

class Dropout2dImpl : public Module {
public:
  Dropout2dImpl(double p) : Dropout2dImpl(Dropout2dOptions().p(p)) {}
  /// Throws unless 0 <= p <= 1.
  explicit Dropout2dImpl(const Dropout2dOptions &options = {});
  Tensor forward(Tensor input);
  void reset();
  Dropout2dOptions options;
};
GFY_MODULE(Dropout2d);

} // namespace gfy::nn
