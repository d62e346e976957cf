#pragma once
/// \file
/// Activation modules of LibTorch 1.13 (`ReLU`, `LeakyReLU`, `GELU`, `SiLU`, `ELU`, `Softplus`,
/// `Mish`, `Sigmoid`, `Tanh`, `Softmax`, `LogSoftmax`, `GLU`, `PReLU`), with their `*Options` and
/// holders, so that they can be stacked in a Sequential. Each forwards to the function of the same
/// name; PReLU alone has a parameter (its slopes).
///
/// \code
///   gfy::nn::Sequential mlp(gfy::nn::Linear(4, 8), gfy::nn::GELU(), gfy::nn::Linear(8, 3),
///                           gfy::nn::LogSoftmax(1));
///   gfy::nn::ReLU relu(gfy::nn::ReLUOptions().inplace(true));
/// \endcode

#include <graphify/nn/Functional.h>
#include <graphify/nn/Module.h>

namespace gfy {
/// max(x, 0) + weight * min(x, 0), the weight holding one slope or one per channel (dim 1).
Tensor prelu(const Tensor &input, const Tensor &weight);
} // namespace gfy

namespace gfy::nn {

struct GLUOptions {
  /* implicit */ GLUOptions(int64_t dim = -1) : dim_(dim) {}
  GFY_ARG(int64_t, dim);
};

struct PReLUOptions {
  GFY_ARG(int64_t, num_parameters) = 1;
  GFY_ARG(double, init) = 0.25;
};

namespace functional {
using GLUFuncOptions = GLUOptions;
/// First half of `dim` times the sigmoid of the second half; the size of `dim` must be even.
Tensor glu(const Tensor &input, const GLUFuncOptions &options = {});
inline Tensor prelu(const Tensor &input, const Tensor &weight) { return gfy::prelu(input, weight); }
} // namespace functional

struct SoftmaxOptions {
  /* implicit */ SoftmaxOptions(int64_t dim) : dim_(dim) {}
  GFY_ARG(int64_t, dim);
};

struct LogSoftmaxOptions {
  /* implicit */ LogSoftmaxOptions(int64_t dim) : dim_(dim) {}
  GFY_ARG(int64_t, dim);
};

/// max(x, 0); with `inplace(true)` the input itself is overwritten and returned.
class ReLUImpl : public Module {
public:
  explicit ReLUImpl(const ReLUOptions &options = {}) : Module("ReLU"), options(options) {}
  Tensor forward(Tensor input);
  ReLUOptions options;
};
GFY_MODULE(ReLU);

class LeakyReLUImpl : public Module {
public:
  explicit LeakyReLUImpl(const LeakyReLUOptions &options = {}) : Module("LeakyReLU"), options(options) {}
  Tensor forward(Tensor input);
  LeakyReLUOptions options;
};
GFY_MODULE(LeakyReLU);

class GELUImpl : public Module {
public:
  explicit GELUImpl(GELUOptions options = {}) : Module("GELU"), options(std::move(options)) {}
  Tensor forward(const Tensor &input);
  GELUOptions options;
};
GFY_MODULE(GELU);

/// x * sigmoid(x).
class SiLUImpl : public Module {
public:
  SiLUImpl() : Module("SiLU") {}
  Tensor forward(const Tensor &input);
};
GFY_MODULE(SiLU);

/// x for x > 0, else alpha * (exp(x) - 1); with `inplace(true)` the input is overwritten.
class ELUImpl : public Module {
public:
  explicit ELUImpl(const ELUOptions &options = {}) : Module("ELU"), options(options) {}
  Tensor forward(Tensor input);
  ELUOptions options;
};
GFY_MODULE(ELU);

/// log(1 + exp(beta * x)) / beta, linear above `threshold`.
class SoftplusImpl : public Module {
public:
  explicit SoftplusImpl(const SoftplusOptions &options = {}) : Module("Softplus"), options(options) {}
  Tensor forward(const Tensor &input);
  SoftplusOptions options;
};
GFY_MODULE(Softplus);

/// x * tanh(softplus(x)).
class MishImpl : public Module {
public:
  MishImpl() : Module("Mish") {}
  Tensor forward(const Tensor &input);
};
GFY_MODULE(Mish);

class SigmoidImpl : public Module {
public:
  SigmoidImpl() : Module("Sigmoid") {}
  Tensor forward(const Tensor &input);
};
GFY_MODULE(Sigmoid);

class TanhImpl : public Module {
public:
  TanhImpl() : Module("Tanh") {}
  Tensor forward(const Tensor &input);
};
GFY_MODULE(Tanh);

/// Softmax over `options.dim()` (no default dim, as LibTorch's C++ API).
class SoftmaxImpl : public Module {
public:
  explicit SoftmaxImpl(int64_t dim) : SoftmaxImpl(SoftmaxOptions(dim)) {}
  explicit SoftmaxImpl(const SoftmaxOptions &options) : Module("Softmax"), options(options) {}
  Tensor forward(const Tensor &input);
  SoftmaxOptions options;
};
GFY_MODULE(Softmax);

class LogSoftmaxImpl : public Module {
public:
  explicit LogSoftmaxImpl(int64_t dim) : LogSoftmaxImpl(LogSoftmaxOptions(dim)) {}
  explicit LogSoftmaxImpl(const LogSoftmaxOptions &options) : Module("LogSoftmax"), options(options) {}
  Tensor forward(const Tensor &input);
  LogSoftmaxOptions options;
};
GFY_MODULE(LogSoftmax);

class GLUImpl : public Module {
public:
  explicit GLUImpl(const GLUOptions &options = {}) : Module("GLU"), options(options) {}
  Tensor forward(const Tensor &input) { return functional::glu(input, options); }
  GLUOptions options;
};
GFY_MODULE(GLU);

/// Parametric ReLU; `weight` (num_parameters) starts at `init`.
class PReLUImpl : public Module {
public:
  explicit PReLUImpl(const PReLUOptions &options = {});
  Tensor forward(const Tensor &input) { return gfy::prelu(input, weight); }
  void reset();
  PReLUOptions options;
  Tensor weight;
};
GFY_MODULE(PReLU);

} // namespace gfy::nn
