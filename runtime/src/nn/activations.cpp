// Parameter-free modules: activations and Dropout. Each forward delegates to the functional form,
// so a module and its F:: counterpart can never disagree.
#include <graphify/nn/Activations.h>
#include <graphify/nn/Dropout.h>

namespace gfy::nn {

namespace F = functional;

Tensor ReLUImpl::forward(Tensor input) { return F::relu(std::move(input), options); }
Tensor LeakyReLUImpl::forward(Tensor input) { return F::leaky_relu(std::move(input), options); }
Tensor GELUImpl::forward(const Tensor &input) { return F::gelu(input, options); }
Tensor SiLUImpl::forward(const Tensor &input) { return F::silu(input); }
Tensor ELUImpl::forward(Tensor input) { return F::elu(std::move(input), options); }
Tensor SoftplusImpl::forward(const Tensor &input) { return F::softplus(input, options); }
Tensor MishImpl::forward(const Tensor &input) { return F::mish(input); }
Tensor SigmoidImpl::forward(const Tensor &input) { return gfy::sigmoid(input); }
Tensor TanhImpl::forward(const Tensor &input) { return gfy::tanh(input); }
Tensor SoftmaxImpl::forward(const Tensor &input) { return gfy::softmax(input, options.dim()); }
Tensor LogSoftmaxImpl::forward(const Tensor &input) { return gfy::log_softmax(input, options.dim()); }

DropoutImpl::DropoutImpl(const DropoutOptions &o) : Module("Dropout"), options(o) { reset(); }
void DropoutImpl::reset() {
  GFY_CHECK(options.p() >= 0. && options.p() <= 1., "dropout probability has to be between 0 and 1, but got ",
            options.p());
}
Tensor DropoutImpl::forward(Tensor input) {
  return F::dropout(std::move(input),
                    F::DropoutFuncOptions().p(options.p()).training(is_training()).inplace(options.inplace()));
}

Dropout2dImpl::Dropout2dImpl(const Dropout2dOptions &o) : Module("Dropout2d"), options(o) { reset(); }
void Dropout2dImpl::reset() {
  GFY_CHECK(options.p() >= 0. && options.p() <= 1., "dropout probability has to be between 0 and 1, but got ",
            options.p());
}
Tensor Dropout2dImpl::forward(Tensor input) {
  return F::dropout2d(std::move(input),
                      F::Dropout2dFuncOptions().p(options.p()).training(is_training()).inplace(options.inplace()));
}

} // namespace gfy::nn
