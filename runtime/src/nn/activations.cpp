// Activations (PReLU with its slopes, the rest parameter-free) and Dropout. Each forward delegates to the functional form,
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

namespace functional {
Tensor glu(const Tensor &input, const GLUFuncOptions &options) {
  GFY_CHECK(input.defined(), "glu: input is undefined");
  GFY_CHECK(input.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t dim = options.dim() < 0 ? options.dim() + input.dim() : options.dim();
  GFY_CHECK(dim >= 0 && dim < input.dim(), "Dimension out of range (expected to be in range of [", -input.dim(), ", ",
            input.dim() - 1, "], but got ", options.dim(), ")");
  const int64_t n = input.size(dim);
  GFY_CHECK(n % 2 == 0, "Halving dimension must be even, but dimension ", dim, " is size ", n);
  return input.narrow(dim, 0, n / 2) * input.narrow(dim, n / 2, n / 2).sigmoid();
}
} // namespace functional

PReLUImpl::PReLUImpl(const PReLUOptions &o) : Module("PReLU"), options(o) { reset(); }
void PReLUImpl::reset() {
  weight = register_parameter("weight", gfy::full({options.num_parameters()}, options.init()));
}

} // namespace gfy::nn

namespace gfy {
Tensor prelu(const Tensor &input, const Tensor &weight) {
  GFY_CHECK(input.defined() && weight.defined(), "prelu: input and weight must be defined");
  GFY_CHECK(weight.dim() <= 1, "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = ", weight.dim());
  Tensor w = weight;
  const int64_t channels = input.dim() >= 2 ? input.size(1) : 1;
  if (weight.numel() != 1) {
    GFY_CHECK(input.dim() > 0, "Not allow zero-dim input tensor.");
    GFY_CHECK(weight.numel() == channels, "Mismatch of parameter numbers and input channel size. Found parameter numbers = ",
              weight.numel(), " and channel size = ", channels, ".");
    std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
    if (input.dim() >= 2) shape[1] = channels;
    else shape[0] = channels;
    w = weight.reshape(shape);  // (1, C, 1, ...)
  } else {
    w = weight.reshape({});
  }
  return where(input > 0, input, w * input);
}
} // namespace gfy
