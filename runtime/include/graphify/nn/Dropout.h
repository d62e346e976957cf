#pragma once
/// \file
/// The Dropout module of LibTorch 1.13: identity after `eval()`; in training mode each element is
/// zeroed with probability p and the rest scaled by 1 / (1 - p), from the runtime's generator
/// (so the mask differs from LibTorch's, as any two generators' do).
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

} // namespace gfy::nn
