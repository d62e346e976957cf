// Sampling ops composed from the seeded uniform draws: multinomial, bernoulli, exponential_.
// Checks and messages are LibTorch 1.13's (aten/src/ATen/native/Distributions.cpp); the numbers
// differ from LibTorch's for the same seed, as every random op here (Functions.h, randperm).
#include "OpsCommon.h"

#include <graphify/autograd/GradMode.h>
#include <graphify/core/Functions.h>

#include <cmath>

namespace gfy {
using namespace detail;

namespace {

// Draws of Exp(1): -log(1 - u) with u in [0, 1), so never infinite.
Tensor exponential_draws(IntArrayRef sizes, const TensorOptions &options) {
  return neg(log1p(neg(rand(sizes, options))));
}

// Multinomial with replacement, as LibTorch's CPU kernel: per row the normalised cumulative
// distribution (its last entry set to 1), and each uniform draw u takes the first category
// whose cumulative probability is >= u.
Tensor multinomial_with_replacement(const Tensor &rows, int64_t n_sample, SL loc) {
  Tensor p = rows.to(kDouble);
  GFY_CHECK(p.ge(0).all().item<bool>(loc), "invalid multinomial distribution (encountering probability entry < 0)");
  GFY_CHECK(isfinite(p).all().item<bool>(loc),
            "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
  Tensor total = p.sum(-1, /*keepdim=*/true);
  GFY_CHECK(total.gt(0).all().item<bool>(loc), "invalid multinomial distribution (sum of probabilities <= 0)");
  const int64_t categories = p.size(-1);
  Tensor cdf = cumsum(p, -1).div(total).narrow(-1, 0, categories - 1);
  cdf = cat({cdf, ones({p.size(0), 1}, p.options())}, -1);
  Tensor u = rand({p.size(0), n_sample}, p.options());
  return cdf.unsqueeze(1).lt(u.unsqueeze(2)).sum(-1);
}

} // namespace

// The checks read the probabilities back, as LibTorch's do: under capture the refusal names the
// caller's line (`loc`), not this file's.
Tensor multinomial(const Tensor &self, int64_t num_samples, bool replacement, SL loc) {
  check_defined(self, "self");
  GFY_CHECK(self.dim() > 0 && self.dim() <= 2, "prob_dist must be 1 or 2 dim");
  GFY_CHECK(self.is_floating_point(), "multinomial only supports floating-point dtypes for input, got: ",
            self.scalar_type());
  GFY_CHECK(num_samples > 0, "cannot sample n_sample <= 0 samples");
  const int64_t categories = self.size(-1);
  GFY_CHECK(replacement || num_samples <= categories,
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  GFY_CHECK(categories <= (int64_t(1) << 24), "number of categories cannot exceed 2^24");
  NoGradGuard no_grad;
  const bool one_row = self.dim() == 1;
  Tensor rows = one_row ? self.unsqueeze(0) : self;
  Tensor result;
  if (rows.numel() == 0) {
    result = empty({rows.size(0), num_samples}, TensorOptions(kLong).device(self.device()));
  } else if (!replacement || num_samples == 1) {
    // LibTorch's fast path (the Gumbel-max trick with exponential draws): argmax / top-k of p / q.
    GFY_CHECK((self.max().lt(INFINITY) & self.min().ge(0)).item<bool>(loc),
              "probability tensor contains either `inf`, `nan` or element < 0");
    GFY_CHECK(!rows.sum(1).eq(0).any().item<bool>(loc), "invalid multinomial distribution (sum of probabilities <= 0)");
    Tensor q = rows.div(exponential_draws(rows.sizes(), rows.options()));
    result = num_samples == 1 ? q.argmax(-1, /*keepdim=*/true) : std::get<1>(q.topk(num_samples, -1));
  } else {
    result = multinomial_with_replacement(rows, num_samples, loc);
  }
  return one_row ? result.squeeze(0) : result;
}

Tensor &Tensor::bernoulli_(double p) const {
  check_defined(*this, "self");
  GFY_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  NoGradGuard no_grad;
  return copy_(rand(sizes(), TensorOptions(kDouble).device(device())).lt(p));
}
Tensor &Tensor::bernoulli_(const Tensor &p) const {
  check_defined(*this, "self");
  check_defined(p, "p");
  NoGradGuard no_grad;
  return copy_(rand(sizes(), TensorOptions(kDouble).device(device())).lt(p.to(kDouble)));
}
Tensor bernoulli(const Tensor &p) {
  check_defined(p, "self");
  GFY_CHECK(p.is_floating_point(), "\"bernoulli_tensor_cpu_self_\" not implemented for '", p.scalar_type(), "'");
  return empty_like(p).bernoulli_(p);
}
Tensor bernoulli(const Tensor &self, double p) { return empty_like(self).bernoulli_(p); }

// torch::normal's four forms: a normal draw scaled by std and shifted by mean, broadcast as
// LibTorch (the tensor forms take the shape of their tensor arguments).
Tensor normal(const Tensor &mean, double std) {
  check_defined(mean, "mean");
  GFY_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  return randn_like(mean).mul(std).add(mean);
}
namespace {
void check_normal_std(const Tensor &std) {
  check_defined(std, "std");
  GFY_CHECK(std.ge(0).all().item<bool>(), "normal expects all elements of std >= 0.0");
}
} // namespace
Tensor normal(double mean, const Tensor &std) {
  check_normal_std(std);
  return randn_like(std).mul(std).add(mean);
}
Tensor normal(const Tensor &mean, const Tensor &std) {
  check_defined(mean, "mean");
  check_normal_std(std);
  Tensor shape = mean.add(std);  // the broadcast shape and promoted dtype
  return randn_like(shape).mul(std).add(mean);
}
Tensor normal(double mean, double std, IntArrayRef size, const TensorOptions &options) {
  GFY_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  return randn(size, options).mul(std).add(mean);
}

Tensor &Tensor::exponential_(double lambd) const {
  check_defined(*this, "self");
  GFY_CHECK(lambd >= 0.0, "exponential_ expects lambda >= 0.0, but found lambda=", lambd);
  GFY_CHECK(is_floating_point(), "\"", kernel_name("exponential", device()), "\" not implemented for '",
            scalar_type(), "'");
  NoGradGuard no_grad;
  return copy_(exponential_draws(sizes(), TensorOptions(kDouble).device(device())).div(lambd));
}

} // namespace gfy
