#pragma once
/// \file
/// Activation modules of LibTorch 1.13 (`ReLU`, `LeakyReLU`, `GELU`, `SiLU`, `ELU`, `Softplus`,
/// `Mish`, `Sigmoid`, `Tanh`, `Softmax`, `LogSoftmax`), with their `*Options` and holders, so that they can be stacked in a
/// Sequential. Parameter-free: each forwards to the function of the same name.
///
/// \code
///   gfy::nn::Sequential mlp(gfy::nn::Linear(4, 8), gfy::nn::GELU(), gfy::nn::Linear(8, 3),
///                           gfy::nn::LogSoftmax(1));
///   gfy::nn::ReLU relu(gfy::nn::ReLUOptions().inplace(true));
/// \endcode

#include <graphify/nn/Functional.h>
#include <graphify/nn/Module.h>

namespace gfy::nn {

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

} // namespace gfy::nn
