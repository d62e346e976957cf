// Every derivative of the table (src/autograd/Derivatives.cpp) against a numerical gradient:
// central differences in double precision through the same function, each output weighted by a
// fixed random tensor so that every output element counts. One row per op (or per form of an
// op); adding a derivative is adding a row here.
#include "TestUtil.h"
#include "core/ElementMath.h"

#include <graphify/core/Backend.h>

#include <cmath>
#include <functional>
#include <string>

namespace {

using gfy::Tensor;
using Fn = std::function<Tensor(const std::vector<Tensor> &)>;

struct GradCase {
  std::string name;
  std::function<std::vector<Tensor>()> inputs; ///< double tensors; floating ones are differentiated
  Fn f;
};

std::ostream &operator<<(std::ostream &os, const GradCase &c) { return os << c.name; }

Tensor weighted(const Fn &f, const std::vector<Tensor> &in, const Tensor &w) { return (f(in) * w).sum(); }

/// Compares autograd's gradient of sum(f(inputs) * w) with central differences.
void gradcheck(const GradCase &c) {
  gfy::manual_seed(1234);
  std::vector<Tensor> in = c.inputs();
  std::vector<Tensor> diff;
  for (Tensor &t : in)
    if (t.is_floating_point()) diff.push_back(t.requires_grad_());
  Tensor out = c.f(in);
  ASSERT_TRUE(out.requires_grad()) << "the output does not require grad";
  Tensor w = gfy::randn(out.sizes(), gfy::kDouble);
  auto grads = gfy::autograd::grad({(out * w).sum()}, diff, {}, std::nullopt, false, /*allow_unused=*/true);
  gfy::NoGradGuard no_grad;
  const double eps = 1e-6;
  for (size_t i = 0; i < diff.size(); ++i) {
    Tensor x = diff[i];
    ASSERT_TRUE(x.is_contiguous());
    double *p = x.data_ptr<double>();
    Tensor analytic = grads[i].defined() ? grads[i] : gfy::zeros_like(x);
    ASSERT_EQ(analytic.sizes(), x.sizes()) << "input " << i;
    auto a = gfy::testing::values(analytic);
    for (int64_t k = 0; k < x.numel(); ++k) {
      const double orig = p[k];
      p[k] = orig + eps;
      const double lp = weighted(c.f, in, w).item<double>();
      p[k] = orig - eps;
      const double lm = weighted(c.f, in, w).item<double>();
      p[k] = orig;
      const double num = (lp - lm) / (2 * eps);
      EXPECT_NEAR(a[size_t(k)], num, 1e-5 + 1e-4 * std::abs(num)) << "input " << i << " element " << k;
    }
  }
}

Tensor rnd(gfy::IntArrayRef s) { return gfy::randn(s, gfy::kDouble); }
/// Values in [lo, hi).
Tensor uni(gfy::IntArrayRef s, double lo, double hi) { return gfy::rand(s, gfy::kDouble) * (hi - lo) + lo; }
Tensor idx(std::vector<int64_t> v) { return gfy::tensor(v); }

#define IN(...) [] { return std::vector<Tensor>{__VA_ARGS__}; }
#define F(expr) [](const std::vector<Tensor> &x) -> Tensor { return expr; }

std::vector<GradCase> cases() {
  using namespace gfy;
  namespace F_ = gfy::nn::functional;
  std::vector<GradCase> c = {
      // binary elementwise, with broadcasting and scalars
      {"add", IN(rnd({2, 3}), rnd({3})), F(x[0] + x[1])},
      {"add_alpha", IN(rnd({2, 3}), rnd({2, 1})), F(gfy::add(x[0], x[1], 2.5))},
      {"add_scalar", IN(rnd({4})), F(x[0] + 3.0)},
      {"sub", IN(rnd({2, 3}), rnd({2, 3})), F(gfy::sub(x[0], x[1], 0.5))},
      {"rsub_scalar", IN(rnd({4})), F(2.0 - x[0])},
      {"mul", IN(rnd({2, 3}), rnd({1, 3})), F(x[0] * x[1])},
      {"div", IN(rnd({2, 3}), uni({2, 3}, 0.5, 2)), F(x[0] / x[1])},
      {"div_scalar_left", IN(uni({3}, 0.5, 2)), F(1.0 / x[0])},
      {"pow", IN(uni({2, 3}, 0.5, 2), rnd({2, 3})), F(x[0].pow(x[1]))},
      {"pow_scalar", IN(rnd({5})), F(x[0].pow(3))},
      {"pow_scalar_base", IN(rnd({5})), F(gfy::pow(2.0, x[0]))},
      {"square", IN(rnd({5})), F(x[0].square())},
      {"maximum", IN(rnd({6}), rnd({6})), F(gfy::maximum(x[0], x[1]))},
      {"minimum", IN(rnd({6}), rnd({6})), F(gfy::minimum(x[0], x[1]))},
      {"fmod", IN(uni({5}, 0.1, 5), uni({5}, 1.3, 1.7)), F(gfy::fmod(x[0], x[1]))},
      {"remainder", IN(uni({5}, -5, 5), uni({5}, 1.3, 1.7)), F(gfy::remainder(x[0], x[1]))},
      // unary
      {"neg", IN(rnd({4})), F(-x[0])},
      {"abs", IN(uni({4}, 0.2, 1) * gfy::tensor({1., -1., 1., -1.}, kDouble)), F(x[0].abs())},
      {"exp", IN(rnd({4})), F(x[0].exp())},
      {"log", IN(uni({4}, 0.5, 3)), F(x[0].log())},
      {"sqrt", IN(uni({4}, 0.5, 3)), F(x[0].sqrt())},
      {"rsqrt", IN(uni({4}, 0.5, 3)), F(x[0].rsqrt())},
      {"relu", IN(uni({6}, 0.1, 1) * gfy::tensor({1., -1., 1., -1., 1., -1.}, kDouble)), F(x[0].relu())},
      {"gelu", IN(rnd({6})), F(gfy::gelu(x[0]))},
      {"gelu_tanh", IN(rnd({6})), F(gfy::gelu(x[0], "tanh"))},
      {"sigmoid", IN(rnd({6})), F(x[0].sigmoid())},
      {"tanh", IN(rnd({6})), F(x[0].tanh())},
      {"clamp", IN(rnd({8})), F(x[0].clamp(-0.5, 0.5))},
      {"clamp_min", IN(rnd({8})), F(x[0].clamp_min(0.1))},
      {"reciprocal", IN(uni({4}, 0.5, 2)), F(x[0].reciprocal())},
      {"floor_is_flat", IN(uni({4}, 0.1, 0.9) + gfy::arange(4, kDouble)), F(x[0].floor() + x[0])},
      // ternary
      {"where", IN(rnd({5}), rnd({5})), F(gfy::where(x[0] > 0, x[0], x[1]))},
      {"where_scalar", IN(rnd({5})), F(gfy::where(x[0] > 0, x[0] * 2, 0.0))},
      {"masked_fill", IN(rnd({2, 3})), F(x[0].masked_fill(gfy::tensor({true, false, true}), 1.5))},
      {"masked_fill_tensor", IN(rnd({2, 3}), rnd({})), F(x[0].masked_fill(gfy::tensor({true, false, true}), x[1]))},
      {"lerp", IN(rnd({4}), rnd({4})), F(gfy::lerp(x[0], x[1], 0.3))},
      {"lerp_tensor", IN(rnd({4}), rnd({4}), rnd({4})), F(gfy::lerp(x[0], x[1], x[2]))},
      // reductions
      {"sum", IN(rnd({2, 3})), F(x[0].sum())},
      {"sum_dim", IN(rnd({2, 3, 4})), F(x[0].sum({0, 2}))},
      {"sum_keepdim", IN(rnd({2, 3})), F(x[0].sum({1}, true))},
      {"mean", IN(rnd({2, 3})), F(x[0].mean())},
      {"mean_dim", IN(rnd({2, 3, 4})), F(x[0].mean({1}))},
      {"prod", IN(rnd({2, 3})), F(x[0].prod())},
      {"prod_dim_with_zero", IN(rnd({3, 4}) * gfy::tensor({1., 0., 1., 1.}, kDouble)), F(x[0].prod(1))},
      {"amax", IN(rnd({3, 4})), F(x[0].amax({1}))},
      {"amin_keepdim", IN(rnd({3, 4})), F(x[0].amin({0}, true))},
      {"max_all", IN(rnd({3, 4})), F(x[0].max())},
      {"max_dim", IN(rnd({3, 4})), F(std::get<0>(x[0].max(1)))},
      {"min_dim_keepdim", IN(rnd({3, 4})), F(std::get<0>(x[0].min(0, true)))},
      {"cumsum", IN(rnd({3, 4})), F(x[0].cumsum(1))},
      {"cumprod", IN(rnd({3, 4})), F(x[0].cumprod(1))},
      {"cumprod_with_zeros", IN(rnd({2, 5}) * gfy::tensor({1., 0., 1., 0., 1.}, kDouble)), F(x[0].cumprod(1))},
      {"cumprod_dim0", IN(rnd({4, 2})), F(x[0].cumprod(0))},
      {"cumprod_0d", IN(rnd({})), F(x[0].cumprod(0))},
      {"var", IN(rnd({3, 4})), F(x[0].var({1}))},
      {"std", IN(rnd({3, 4})), F(x[0].std())},
      {"norm", IN(rnd({3, 4})), F(x[0].norm())},
      {"logsumexp", IN(rnd({3, 4})), F(x[0].logsumexp({1}))},
      // linear algebra
      {"mm", IN(rnd({2, 3}), rnd({3, 4})), F(x[0].mm(x[1]))},
      {"mm_transposed", IN(rnd({3, 2}), rnd({4, 3})), F(x[0].t().mm(x[1].t()))},
      {"addmm", IN(rnd({4}), rnd({2, 3}), rnd({3, 4})), F(gfy::addmm(x[0], x[1], x[2], 0.5, 2.0))},
      {"bmm", IN(rnd({2, 2, 3}), rnd({2, 3, 4})), F(x[0].bmm(x[1]))},
      {"matmul_batched_broadcast", IN(rnd({2, 2, 3}), rnd({3, 4})), F(gfy::matmul(x[0], x[1]))},
      {"matmul_vec", IN(rnd({3}), rnd({3})), F(gfy::matmul(x[0], x[1]))},
      {"linear", IN(rnd({5, 3}), rnd({2, 3}), rnd({2})), F(gfy::linear(x[0], x[1], x[2]))},
      {"linear_3d", IN(rnd({2, 5, 3}), rnd({2, 3})), F(gfy::linear(x[0], x[1]))},
      // views and joins
      {"view", IN(rnd({2, 6})), F(x[0].view({3, 4}) * gfy::arange(4, kDouble))},
      {"reshape_copy", IN(rnd({3, 4})), F(x[0].t().reshape({12}))},
      {"transpose", IN(rnd({2, 3, 4})), F(x[0].transpose(0, 2))},
      {"permute", IN(rnd({2, 3, 4})), F(x[0].permute({1, 2, 0}))},
      {"expand", IN(rnd({3, 1})), F(x[0].expand({2, 3, 4}))},
      {"slice", IN(rnd({5, 3})), F(x[0].slice(0, 1, 5, 2))},
      {"narrow", IN(rnd({5, 3})), F(x[0].narrow(1, 1, 2))},
      {"select", IN(rnd({5, 3})), F(x[0].select(0, -2))},
      {"index_basic", IN(rnd({4, 3})), F(x[0].index({gfy::indexing::Slice(1, gfy::indexing::None), 0}))},
      {"squeeze_unsqueeze", IN(rnd({3, 1, 2})), F(x[0].squeeze(1).unsqueeze(0))},
      {"flatten", IN(rnd({2, 3, 2})), F(x[0].flatten(1))},
      {"chunk", IN(rnd({4, 6})), F(x[0].chunk(3, 1)[1] * x[0].chunk(3, 1)[2])},
      {"split_unbind", IN(rnd({3, 4})), F(x[0].split(2, 1)[1] + x[0].unbind(1)[0].unsqueeze(1))},
      {"cat", IN(rnd({2, 3}), rnd({1, 3})), F(gfy::cat({x[0], x[1], x[0]}, 0))},
      {"stack", IN(rnd({2, 3}), rnd({2, 3})), F(gfy::stack({x[0], x[1]}, 1))},
      {"clone_contiguous", IN(rnd({3, 4})), F(x[0].t().contiguous().clone())},
      {"repeat", IN(rnd({2, 3})), F(x[0].repeat({2, 1, 2}))},
      {"flip", IN(rnd({2, 3})), F(x[0].flip({1}))},
      {"roll", IN(rnd({2, 3})), F(x[0].roll({1}, {1}))},
      {"tril", IN(rnd({3, 3})), F(x[0].tril())},
      // indexing
      {"index_long", IN(rnd({4, 3})), F(x[0].index({idx({3, 0, 3})}))},
      {"index_two_dims", IN(rnd({4, 3})), F(x[0].index({idx({1, 2, 1}), idx({0, 2, 0})}))},
      {"index_select", IN(rnd({4, 3})), F(x[0].index_select(1, idx({2, 2, 0})))},
      {"gather", IN(rnd({3, 4})), F(x[0].gather(1, gfy::tensor({0, 3, 3, 1, 2, 2}).view({3, 2})))},
      {"embedding", IN(rnd({5, 3})), F(gfy::embedding(x[0], gfy::tensor({4, 0, 4, 2}).view({2, 2})))},
      {"embedding_padding", IN(rnd({5, 3})), F(gfy::nn::functional::embedding(gfy::tensor({4, 0, 1}), x[0],
                                                gfy::nn::functional::EmbeddingFuncOptions().padding_idx(0)))},
      {"scatter", IN(rnd({3, 4}), rnd({2, 3})),
       F(x[0].scatter(1, gfy::tensor({3, 0, 1, 2, 1, 0}).view({2, 3}), x[1]))},
      {"scatter_value", IN(rnd({3, 4})), F(x[0].scatter(0, gfy::tensor({2, 0, 1, 1}).view({1, 4}), 0.5))},
      {"scatter_in_place", IN(rnd({4}), rnd({2})), F((x[0] * 2).scatter_(0, idx({3, 1}), x[1]))},
      {"scatter_0d", IN(rnd({}), rnd({})), F(x[0].scatter(0, gfy::tensor(int64_t(0)), x[1]))},
      {"index_put", IN(rnd({4, 3}), rnd({2, 3})), F(x[0].clone().index_put_({idx({3, 1})}, x[1]))},
      {"index_put_accumulate", IN(rnd({4, 3}), rnd({2, 3})), F(x[0].clone().index_put_({idx({1, 1})}, x[1], true))},
      {"sort", IN(rnd({3, 4})), F(std::get<0>(x[0].sort(1)))},
      {"topk", IN(rnd({3, 5})), F(std::get<0>(x[0].topk(2, 1)))},
      // neural-network functions
      {"softmax", IN(rnd({3, 4})), F(x[0].softmax(1))},
      {"softmax_dim0", IN(rnd({3, 4})), F(x[0].softmax(0))},
      {"log_softmax", IN(rnd({3, 4})), F(x[0].log_softmax(1))},
      {"layer_norm", IN(rnd({3, 4}), rnd({4}), rnd({4})), F(gfy::layer_norm(x[0], {4}, x[1], x[2]))},
      {"layer_norm_2d", IN(rnd({2, 3, 4})), F(gfy::layer_norm(x[0], {3, 4}))},
      {"batch_norm_train", IN(rnd({4, 3, 2}), rnd({3}), rnd({3})),
       F(gfy::batch_norm(x[0], x[1], x[2], {}, {}, true, 0.1, 1e-5, false))},
      {"batch_norm_eval", IN(rnd({4, 3}), rnd({3}), rnd({3})),
       F(gfy::batch_norm(x[0], x[1], x[2], gfy::zeros({3}, kDouble), gfy::ones({3}, kDouble), false, 0.1, 1e-5, false))},
      {"conv2d", IN(rnd({2, 3, 5, 5}), rnd({4, 3, 3, 3}), rnd({4})), F(gfy::conv2d(x[0], x[1], x[2]))},
      {"conv2d_stride_padding", IN(rnd({1, 2, 6, 5}), rnd({3, 2, 3, 2})), F(gfy::conv2d(x[0], x[1], {}, {2, 3}, {1, 2}))},
      {"conv2d_dilation", IN(rnd({1, 2, 7, 7}), rnd({2, 2, 3, 3})), F(gfy::conv2d(x[0], x[1], {}, 2, 1, 2))},
      {"conv2d_groups", IN(rnd({2, 4, 5, 5}), rnd({6, 2, 3, 3}), rnd({6})), F(gfy::conv2d(x[0], x[1], x[2], 1, 1, 1, 2))},
      {"conv2d_same_even_kernel", IN(rnd({1, 2, 5, 5}), rnd({2, 2, 2, 4})), F(gfy::conv2d(x[0], x[1], {}, 1, "same"))},
      {"conv_transpose2d_stride", IN(rnd({1, 2, 3, 4}), rnd({2, 3, 3, 2}), rnd({3})),
       F(gfy::conv_transpose2d(x[0], x[1], x[2], {2, 3}, {1, 0}, {1, 0}))},
      {"conv1d", IN(rnd({2, 3, 7}), rnd({2, 3, 3}), rnd({2})), F(gfy::conv1d(x[0], x[1], x[2], 2, 1))},
      {"max_pool2d", IN(rnd({2, 2, 5, 6})), F(gfy::max_pool2d(x[0], {2, 3}, {1, 2}, {1, 1}))},
      {"max_pool2d_dilation_ceil", IN(rnd({1, 2, 7, 7})), F(gfy::max_pool2d(x[0], 2, 2, 0, 2, true))},
      {"max_pool1d", IN(rnd({2, 3, 8})), F(gfy::max_pool1d(x[0], 3, 2))},
      {"adaptive_max_pool2d", IN(rnd({2, 2, 5, 7})), F(std::get<0>(gfy::adaptive_max_pool2d(x[0], {2, 3})))},
      {"avg_pool2d", IN(rnd({2, 2, 5, 6})), F(gfy::avg_pool2d(x[0], {2, 3}, {2, 2}, {1, 1}))},
      {"avg_pool2d_no_pad_count_ceil", IN(rnd({1, 2, 7, 6})), F(gfy::avg_pool2d(x[0], 3, 2, 1, true, false))},
      {"avg_pool2d_divisor", IN(rnd({1, 1, 4, 4})), F(gfy::avg_pool2d(x[0], 2, 1, 0, false, true, 3))},
      {"avg_pool1d", IN(rnd({2, 3, 7})), F(gfy::avg_pool1d(x[0], 3, 2, 1))},
      {"adaptive_avg_pool2d", IN(rnd({2, 2, 5, 7})), F(gfy::adaptive_avg_pool2d(x[0], {3, 2}))},
      {"adaptive_avg_pool2d_global", IN(rnd({2, 3, 4, 4})), F(gfy::adaptive_avg_pool2d(x[0], {1, 1}))},
      {"upsample_nearest2d", IN(rnd({1, 2, 3, 4})), F(gfy::upsample_nearest2d(x[0], {7, 8}))},
      {"upsample_nearest2d_scale", IN(rnd({1, 2, 3, 4})), F(gfy::upsample_nearest2d(x[0], {4, 6}, 1.5, 1.5))},
      {"upsample_bilinear2d", IN(rnd({1, 2, 3, 4})), F(gfy::upsample_bilinear2d(x[0], {5, 7}, false))},
      {"upsample_bilinear2d_align", IN(rnd({1, 2, 3, 4})), F(gfy::upsample_bilinear2d(x[0], {6, 5}, true))},
      {"constant_pad", IN(rnd({2, 3, 4})), F(gfy::constant_pad_nd(x[0], {1, 2, 0, 1}, 0.5))},
      {"constant_pad_crop", IN(rnd({2, 3, 4})), F(gfy::constant_pad_nd(x[0], {-1, 2, 1, -1}))},
      {"reflection_pad2d", IN(rnd({1, 2, 3, 4})), F(gfy::pad(x[0], {1, 2, 2, 1}, "reflect"))},
      {"silu", IN(rnd({5})), F(gfy::silu(x[0]))},
      {"softplus", IN(rnd({5})), F(gfy::softplus(x[0]))},
      {"elu", IN(rnd({5})), F(gfy::elu(x[0]))},
      {"leaky_relu", IN(uni({4}, 0.2, 1) * gfy::tensor({1., -1., 1., -1.}, kDouble)), F(gfy::leaky_relu(x[0]))},
      {"mish", IN(rnd({5})), F(gfy::mish(x[0]))},
      {"mse_loss", IN(rnd({3, 2}), rnd({3, 2})), F(F_::mse_loss(x[0], x[1]))},
      {"nll_loss", IN(rnd({4, 3})), F(F_::nll_loss(x[0].log_softmax(1), gfy::tensor({0, 2, 1, 2})))},
      {"cross_entropy", IN(rnd({4, 3})), F(F_::cross_entropy(x[0], gfy::tensor({0, 2, 1, 2})))},
      {"cross_entropy_smoothing", IN(rnd({4, 3})),
       F(F_::cross_entropy(x[0], gfy::tensor({0, 2, 1, 2}), F_::CrossEntropyFuncOptions().label_smoothing(0.1)))},
      // in-place ops on non-leaves rebase their history
      {"inplace_chain", IN(rnd({4}), rnd({4})), F(((x[0] * 2).mul_(x[1]).add_(x[1], 0.5).sigmoid_()))},
      {"inplace_copy_into_result", IN(rnd({4}), rnd({4})), F((x[0] * 1).copy_(x[1] * 3))},
      {"inplace_add_into_lone_view", IN(rnd({2, 3}), rnd({3})), F([&] {
         Tensor y = (x[0] * x[0]).view({6}); // the product is gone: y alone holds the storage
         return y.add_(x[1].repeat({2}));
       }())},
  };
  // The maps of ops.def (GFY_MAP_OP rows) with a derivative formula: inputs drawn from the
  // per-element function's sample range (core/ElementMath.h).
#define GFY_AUTOGRAD_MAP_unary(name, lo, hi) {#name, IN(uni({5}, lo, hi)), F(gfy::name(x[0]))}
#define GFY_AUTOGRAD_MAP_binary(name, lo, hi) {#name, IN(uni({5}, lo, hi), uni({5}, lo, hi)), F(gfy::name(x[0], x[1]))}
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits)                                          \
  if (op_derivative(OpId::name) == OpDerivative::formula)                                          \
    c.push_back(GFY_AUTOGRAD_MAP_##kind(name, elem::name::sample_lo, elem::name::sample_hi));
#include <graphify/ops.def>
#undef GFY_MAP_OP
#undef GFY_OP
#undef GFY_AUTOGRAD_MAP_binary
#undef GFY_AUTOGRAD_MAP_unary
  return c;
}

#undef IN
#undef F

class GradCheck : public ::testing::TestWithParam<GradCase> {};
TEST_P(GradCheck, MatchesFiniteDifferences) { gradcheck(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Autograd, GradCheck, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<GradCase> &i) { return i.param.name; });

} // namespace
