// scalar-read-to-device: a local initialised with a read and used only as the scalar operand of
// tensor arithmetic (a scale, a norm kept in a named variable) becomes the 0-d tensor, in the
// local's own type. A local used any other way is not this rule's.
#include "mock_torch.h"

#include <vector>

// Used twice, in both operand positions.
torch::Tensor normalise(torch::Tensor x) {
  auto y = x.abs();
  auto peak = y.max().to(torch::kFloat);
  return (y - peak) / peak + peak * y;
}

// The local's type converts the read as the initialisation does: a double read kept in a float.
torch::Tensor rescale(torch::Tensor x) {
  auto s = x.abs().sum().to(torch::kFloat);
  return x / s;
}

// Spelled through the Scalar that item() returns, with auto.
torch::Tensor shift(torch::Tensor x) {
  auto m = x.mean().to(torch::kFloat);
  return x - m;
}

// An integer local truncates on the host; tensor arithmetic would not.
torch::Tensor count_scale(torch::Tensor x) {
  int n = x.sum().item<int>(); // EXPECT-NO-FIX: converts to an integer on the host
  return x * n;
}

// Beside host work: `a` feeds tensor math only and stays on the device.
torch::Tensor logged(torch::Tensor x, std::vector<float> &log) {
  auto a = x.max().to(torch::kFloat);
  log.push_back(1.0f);
  return x * a;
}

// `b` is updated on the host and `c` is added to a host value: not this rule's.
float host_uses(torch::Tensor x) {
  float b = x.min().item<float>();
  b *= 2;
  auto z = x * b;
  float c = x.sum().item<float>();
  return z.sum().item<float>() + c;
}

// A double kept in a double: a float64 0-d tensor beside tensors proven floating-point (through a
// local, an exp, a conversion to float) computes as the host number did.
torch::Tensor spread(torch::Tensor x) {
  auto m = x.abs().max().to(torch::kDouble);
  auto e = x.exp();
  return e * m + x.to(torch::kFloat) / m;
}

// Beside a parameter of unknown dtype: an integer 'x' would compute in float64, not float32.
torch::Tensor widen(torch::Tensor x) {
  double m = x.abs().max().item<double>(); // EXPECT-NO-FIX: 'm' is a double and 'x' is not known to be floating-point
  return x * m;
}
