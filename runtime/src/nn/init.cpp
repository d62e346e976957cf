// torch::nn::init. Bounds and standard deviations follow LibTorch 1.13 (torch/csrc/api/src/nn/
// init.cpp is the spec): Glorot for xavier_*, He for kaiming_*, with `calculate_gain`'s table.
#include <graphify/nn/Init.h>

#include <graphify/core/Functions.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gfy::nn::init {

double calculate_gain(NonlinearityType nonlinearity, double param) {
  if (std::holds_alternative<enumtype::kTanh>(nonlinearity)) return 5.0 / 3.0;
  if (std::holds_alternative<enumtype::kReLU>(nonlinearity)) return std::sqrt(2.0);
  if (std::holds_alternative<enumtype::kLeakyReLU>(nonlinearity)) return std::sqrt(2.0 / (1 + param * param));
  return 1.0; // linear, convolutions, sigmoid
}

std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor &tensor) {
  GFY_CHECK(tensor.defined(), "nn::init: undefined tensor");
  GFY_CHECK(tensor.dim() >= 2, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  int64_t receptive = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d) receptive *= tensor.size(d);
  return {tensor.size(1) * receptive, tensor.size(0) * receptive};
}

// Every initialiser runs under NoGradGuard, as LibTorch's: parameters are leaves that require
// grad, and writing them in place is only allowed outside autograd.
Tensor constant_(Tensor tensor, Scalar value) {
  NoGradGuard no_grad;
  tensor.fill_(value);
  return tensor;
}
Tensor zeros_(Tensor tensor) { return constant_(tensor, 0); }
Tensor ones_(Tensor tensor) { return constant_(tensor, 1); }

Tensor eye_(Tensor matrix) {
  GFY_CHECK(matrix.defined() && matrix.dim() == 2, "Only tensors with 2 dimensions are supported");
  NoGradGuard no_grad;
  matrix.zero_();
  const int64_t n = std::min(matrix.size(0), matrix.size(1));
  for (int64_t i = 0; i < n; ++i) matrix.select(0, i).select(0, i).fill_(1);
  return matrix;
}

Tensor uniform_(Tensor tensor, double low, double high) {
  NoGradGuard no_grad;
  tensor.uniform_(low, high);
  return tensor;
}
Tensor normal_(Tensor tensor, double mean, double std) {
  NoGradGuard no_grad;
  tensor.normal_(mean, std);
  return tensor;
}

Tensor xavier_uniform_(Tensor tensor, double gain) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const double std = gain * std::sqrt(2.0 / double(fan_in + fan_out));
  const double a = std::sqrt(3.0) * std;
  return uniform_(tensor, -a, a);
}
Tensor xavier_normal_(Tensor tensor, double gain) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  return normal_(tensor, 0, gain * std::sqrt(2.0 / double(fan_in + fan_out)));
}

namespace {
/// He et al.'s standard deviation: gain / sqrt(fan), the fan chosen by `mode`.
double kaiming_std(const Tensor &tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const int64_t fan = std::holds_alternative<enumtype::kFanIn>(mode) ? fan_in : fan_out;
  GFY_CHECK(fan > 0, "Initializing zero-element tensors is a no-op");
  return calculate_gain(nonlinearity, a) / std::sqrt(double(fan));
}
} // namespace

Tensor kaiming_uniform_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  const double bound = std::sqrt(3.0) * kaiming_std(tensor, a, mode, nonlinearity);
  return uniform_(tensor, -bound, bound);
}
Tensor kaiming_normal_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  return normal_(tensor, 0, kaiming_std(tensor, a, mode, nonlinearity));
}

namespace {

// The Q of a tall m x n matrix (m >= n, column-major in `a`) by modified Gram-Schmidt in double:
// R's diagonal comes out positive, which is the sign LibTorch's orthogonal_ normalises Q to.
void orthonormalise_columns(std::vector<double> &a, int64_t m, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    double *col = &a[size_t(j * m)];
    for (int64_t k = 0; k < j; ++k) {
      const double *q = &a[size_t(k * m)];
      double dot = 0;
      for (int64_t i = 0; i < m; ++i) dot += q[i] * col[i];
      for (int64_t i = 0; i < m; ++i) col[i] -= dot * q[i];
    }
    double norm = 0;
    for (int64_t i = 0; i < m; ++i) norm += col[i] * col[i];
    norm = std::sqrt(norm);
    GFY_CHECK(norm > 0, "orthogonal_: the random matrix drawn is rank-deficient");
    for (int64_t i = 0; i < m; ++i) col[i] /= norm;
  }
}

} // namespace

Tensor orthogonal_(Tensor tensor, double gain) {
  NoGradGuard no_grad;
  GFY_CHECK(tensor.defined(), "nn::init: undefined tensor");
  GFY_CHECK(tensor.dim() >= 2, "Only tensors with 2 or more dimensions are supported");
  const int64_t rows = tensor.size(0), columns = tensor.numel() / std::max<int64_t>(rows, 1);
  if (tensor.numel() == 0) return tensor;
  // Orthonormal columns of a tall Gaussian matrix: the rows of the result when it is wide.
  const int64_t m = std::max(rows, columns), n = std::min(rows, columns);
  Tensor gaussian = randn({n, m}, kDouble).contiguous();  // column j of the tall matrix is row j
  std::vector<double> a(gaussian.data_ptr<double>(), gaussian.data_ptr<double>() + m * n);
  orthonormalise_columns(a, m, n);
  Tensor q = from_blob(a.data(), {n, m}, kDouble).clone();  // Q transposed: n x m
  if (rows >= columns) q = q.t();                           // rows x columns either way
  tensor.view({rows, columns}).copy_(q.mul(gain));
  return tensor;
}

} // namespace gfy::nn::init
