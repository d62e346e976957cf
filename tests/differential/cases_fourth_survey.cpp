// Differential cases for the names the fourth compat survey found missing (issue #34,
// docs/compat.md "Fourth survey"): the export and attribute macros user code puts on its own
// classes, LibTorch's aliases (clip, not_equal, argwhere, concatenate, numel), kron, the matrix
// inverse, index_add, nan_to_num, torch::normal, torch::special, the RMSprop optimizer and
// torch::nn::utils' gradient clipping and parameter vectors. Random draws differ between
// libraries, so torch::normal's cases return what must hold for any draw.
#include "dump_main.h"
#include "model_inputs.h"

#include <cmath>
#include <limits>
#include <vector>

namespace {

using diff::Out;
using diff::S;
using diff::flag;
using diff::model_inputs::fix_model;
using diff::model_inputs::wave;
namespace nn = torch::nn;

/// A well-conditioned matrix (or batch): a wave plus n on the diagonal.
torch::Tensor conditioned(std::vector<int64_t> shape, torch::Dtype dtype = torch::kFloat) {
  const int64_t n = shape.back();
  return (wave(shape, 1.0, 0.3) + n * torch::eye(n)).to(dtype);
}

/// A module declared as real code declares it: exported, with an alias marked unused.
class TORCH_API ScaleImpl : public nn::Module {
public:
  using Self TORCH_UNUSED_EXCEPT_CUDA = ScaleImpl;
  explicit ScaleImpl(double s) : s_(s) {}
  torch::Tensor forward(const torch::Tensor& x) { return x * s_; }

private:
  double s_;
};
TORCH_MODULE(Scale);

/// Gradients on a small linear model, the same on both sides.
nn::Linear linear_with_grads() {
  nn::Linear lin(3, 2);
  fix_model(*lin);
  torch::sigmoid(lin(wave({4, 3}, 2.0, 0.2))).sum().backward();
  return lin;
}

/// Steps of RMSprop with `options` on a fixed linear model; its parameters after them.
Out rmsprop_steps(const torch::optim::RMSpropOptions& options) {
  nn::Linear lin(3, 2);
  fix_model(*lin);
  torch::optim::RMSprop opt(lin->parameters(), options);
  for (int i = 0; i < 4; ++i) {
    opt.zero_grad();
    torch::sigmoid(lin(wave({4, 3}, 2.0, 0.2 * i))).sum().backward();
    opt.step();
  }
  return {lin->weight, lin->bias};
}

}  // namespace

// --- macros and aliases -------------------------------------------------------------------------
DIFF_CASE(survey4_export_macros) {
  Scale s(2.5);
  return s(wave({3}, 1.0, 0.1));
}
DIFF_CASE(survey4_aliases) {
  auto x = wave({3, 4}, 2.0, 0.4);
  auto y = x.round();
  return {torch::clip(x, -0.5, 0.5), x.clip(-1.0), torch::not_equal(y, 0), torch::not_equal(x, y), y.not_equal(1),
          torch::argwhere(y > 0), (y < 0).argwhere(), torch::concatenate({x, y}, 1), torch::concatenate({x, y}),
          S{static_cast<double>(torch::numel(x))}};
}

// --- kron ---------------------------------------------------------------------------------------
DIFF_CASE(survey4_kron) {
  auto a = wave({2, 3}, 1.0, 0.1), b = wave({2, 2}, 1.0, 0.5);
  auto i = torch::arange(4).reshape({2, 2});
  return {torch::kron(a, b), torch::kron(wave({3}, 1.0, 0.2), b), torch::kron(wave({2, 1, 2}, 1.0, 0.3), b),
          a.kron(wave({2}, 1.0, 0.7)), torch::kron(i, i), torch::kron(torch::eye(2), torch::ones({2, 2}))};
}

// --- cross products ------------------------------------------------------------------------------
DIFF_CASE(survey4_cross) {
  auto a = wave({4, 3}, 1.0, 0.1), b = wave({4, 3}, 1.0, 0.8);
  auto c = wave({3, 2}, 1.0, 0.4), d = wave({3, 2}, 1.0, 0.6);
  return {torch::cross(a, b, -1), torch::linalg_cross(a, b), torch::linalg_cross(a, wave({1, 3}, 1.0, 0.5)),
          a.cross(b, 1), torch::cross(c, d), torch::cross(torch::tensor({1, 0, 0}), torch::tensor({0, 1, 0}))};
}
DIFF_CASE(survey4_cross_length_errors) { return torch::linalg_cross(torch::ones({2, 2}), torch::ones({2, 2})); }
DIFF_CASE(survey4_cross_no_size_3_errors) { return torch::cross(torch::ones({2, 2}), torch::ones({2, 2})); }

// --- the matrix inverse -------------------------------------------------------------------------
DIFF_CASE(survey4_linalg_inv) {
  auto a = conditioned({3, 3});
  auto batch = conditioned({2, 4, 4}, torch::kDouble);
  auto pivoting = torch::tensor({{0.0, 1.0, 2.0}, {1.0, 0.0, 3.0}, {4.0, -3.0, 8.0}});  // needs row swaps
  return {torch::linalg_inv(a), torch::linalg::inv(batch), a.inverse(), torch::inverse(pivoting),
          torch::linalg_inv(a).mm(a), torch::linalg_inv(torch::ones({0, 0}))};
}
DIFF_CASE(survey4_linalg_inv_singular_errors) {
  return torch::linalg_inv(torch::tensor({{1.0f, 2.0f}, {2.0f, 4.0f}}));
}
DIFF_CASE(survey4_linalg_inv_batch_singular_errors) {
  auto m = torch::stack({torch::eye(2), torch::zeros({2, 2})});
  return torch::linalg_inv(m);
}
DIFF_CASE(survey4_linalg_inv_not_square_errors) { return torch::linalg_inv(torch::ones({2, 3})); }
DIFF_CASE(survey4_linalg_inv_integer_errors) { return torch::linalg_inv(torch::eye(2, torch::kLong)); }

// --- index_add ----------------------------------------------------------------------------------
DIFF_CASE(survey4_index_add) {
  auto self = wave({4, 3}, 1.0, 0.1);
  auto rows = torch::tensor({0, 2, 0}, torch::kLong);  // row 0 twice: the additions add up
  auto cols = torch::tensor({2, 0}, torch::kInt);
  auto src_rows = wave({3, 3}, 1.0, 0.6), src_cols = wave({4, 2}, 1.0, 0.9);
  auto inplace = self.clone();
  inplace.index_add_(0, rows, src_rows);
  return {inplace, self.index_add(1, cols, src_cols, 2.5), torch::index_add(self, -1, cols, src_cols),
          torch::zeros({5}, torch::kLong).index_add_(0, torch::tensor({1, 1, 4}), torch::tensor({1, 2, 3}))};
}
DIFF_CASE(survey4_index_add_count_errors) {
  return torch::zeros({4, 3}).index_add_(0, torch::tensor({0, 1}), torch::ones({3, 3}));
}
DIFF_CASE(survey4_index_add_dtype_errors) {
  return torch::zeros({4, 3}).index_add_(0, torch::tensor({0, 1}), torch::ones({2, 3}, torch::kDouble));
}
DIFF_CASE(survey4_index_add_float_index_errors) {
  return torch::zeros({4, 3}).index_add_(0, torch::tensor({0.0f, 1.0f}), torch::ones({2, 3}));
}

// --- nan_to_num, special ------------------------------------------------------------------------
DIFF_CASE(survey4_nan_to_num) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  auto x = torch::tensor({1.5f, nan, inf, -inf, -2.0f});
  return {torch::nan_to_num(x), x.nan_to_num(0.5, 10.0, -10.0), x.to(torch::kDouble).nan_to_num(),
          torch::nan_to_num(torch::arange(3))};
}
DIFF_CASE(survey4_special) {
  auto x = wave({6}, 3.0, 0.2);
  return {torch::special::ndtr(x), torch::special::expit(x), torch::special::erf(x), torch::special::erfc(x),
          torch::special::expm1(x), torch::special::log1p(x.abs())};
}

// --- torch::normal (the tensor forms are at::normal: torch::normal names only the factory) -------
DIFF_CASE(survey4_normal) {
  torch::manual_seed(0);
  auto draws = torch::normal(1.0, 2.0, {4000});
  auto mean = wave({2, 3}, 1.0, 0.4);
  const double m = draws.mean().item<double>(), sd = draws.std().item<double>();
  return {torch::tensor(draws.sizes().vec()), flag(draws.scalar_type() == torch::kFloat), flag(std::abs(m - 1.0) < 0.15),
          flag(std::abs(sd - 2.0) < 0.15), at::normal(mean, 0.0), at::normal(0.5, torch::zeros({3})),
          at::normal(mean, torch::zeros({3})), torch::tensor(at::normal(mean, 1.0).sizes().vec())};
}
DIFF_CASE(survey4_normal_negative_std_errors) { return torch::normal(0.0, -1.0, {3}); }

// --- RMSprop ------------------------------------------------------------------------------------
DIFF_CASE(survey4_rmsprop_default_steps) { return rmsprop_steps(torch::optim::RMSpropOptions(0.01)); }
DIFF_CASE(survey4_rmsprop_momentum_centered_decay_steps) {
  return rmsprop_steps(torch::optim::RMSpropOptions(0.02).alpha(0.9).momentum(0.5).centered(true).weight_decay(0.1));
}
DIFF_CASE(survey4_rmsprop_momentum_steps) { return rmsprop_steps(torch::optim::RMSpropOptions(0.01).momentum(0.9).eps(1e-6)); }
DIFF_CASE(survey4_rmsprop_negative_alpha_errors) {
  nn::Linear lin(3, 2);
  torch::optim::RMSprop opt(lin->parameters(), torch::optim::RMSpropOptions(0.01).alpha(-0.5));
  return lin->weight;
}

// --- torch::nn::utils ---------------------------------------------------------------------------
DIFF_CASE(survey4_clip_grad_norm) {
  auto lin = linear_with_grads();
  const double norm = nn::utils::clip_grad_norm_(lin->parameters(), 0.1);
  auto lin_inf = linear_with_grads();
  const double inf_norm = nn::utils::clip_grad_norm_(lin_inf->parameters(), 0.05, std::numeric_limits<double>::infinity());
  auto lin_one = linear_with_grads();
  const double one_norm = nn::utils::clip_grad_norm_(lin_one->weight, 10.0, 1.0);  // above the norm: unchanged
  return {S{norm}, lin->weight.grad(), lin->bias.grad(), S{inf_norm}, lin_inf->weight.grad(), S{one_norm},
          lin_one->weight.grad()};
}
DIFF_CASE(survey4_clip_grad_value_and_vectors) {
  auto lin = linear_with_grads();
  nn::utils::clip_grad_value_(lin->parameters(), 0.05);
  auto flat = nn::utils::parameters_to_vector(lin->parameters());
  {
    torch::NoGradGuard no_grad;
    nn::utils::vector_to_parameters(flat * 2, lin->parameters());
  }
  return {lin->weight.grad(), lin->bias.grad(), flat, lin->weight, lin->bias};
}
DIFF_CASE(survey4_clip_grad_nonfinite_errors) {
  auto lin = linear_with_grads();
  {
    torch::NoGradGuard no_grad;
    torch::Tensor grad = lin->weight.grad();
    grad.fill_(std::numeric_limits<float>::infinity());
  }
  nn::utils::clip_grad_norm_(lin->parameters(), 1.0, 2.0, /*error_if_nonfinite=*/true);
  return lin->weight.grad();
}

// In-place methods are const in LibTorch: training code writes through the const reference
// grad() returns and through const handles; the shape-changing ones change the shared tensor.
DIFF_CASE(survey4_inplace_through_const_handles) {
  auto lin = linear_with_grads();
  for (const auto& p : lin->parameters()) p.grad().mul_(2).add_(1);
  lin->weight.grad().clamp_(0.5, 1.5);
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor& bias = lin->bias;
    bias.sub_(0.25).div_(2);
  }
  const torch::Tensor x = torch::arange(6, torch::kFloat) - 2;
  x.relu_().sin_().unsqueeze_(0);
  const torch::Tensor y = torch::ones({2, 1, 3});
  y.squeeze_(1).index_fill_(1, torch::tensor({0, 2}), -1.0).masked_fill_(y > 0, 5);
  const torch::Tensor z = torch::zeros({4});
  z.copy_(torch::arange(4)).fill_(z.sum());
  return {lin->weight.grad(), lin->bias.grad(), lin->bias.detach(), x, y, z};
}
DIFF_CASE(survey4_inplace_through_const_leaf_errors) {
  auto lin = linear_with_grads();
  const torch::Tensor& weight = lin->weight;
  return weight.add_(1);
}

namespace {
/// A helper taking LibTorch's TensorList, as user code declares one.
torch::Tensor concat_all(at::TensorList parts) { return torch::cat(parts, 0); }
}  // namespace
DIFF_CASE(survey4_tensor_list) {
  std::vector<torch::Tensor> v = {torch::ones({2}), torch::arange(2, torch::kFloat)};
  torch::TensorList l = v;
  return {concat_all(v), concat_all({torch::ones({1}), v[1]}), torch::stack(l), torch::cat(l, 0),
          S(double(l.size())), l[0] + l.back()};
}
