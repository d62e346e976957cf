// The derivatives of the runtime's ops, declared once (as PyTorch's derivatives.yaml): one entry
// per differentiable ops.def kernel, found by OpId (`kTable` below), then the view ops and the
// few front-ends whose kernels cannot be differentiated one launch at a time (cat, gather,
// embedding). Every formula is written with ordinary runtime ops, so a backward pass runs
// kernels like any other code: eagerly, or recorded on the tape under gfy::capture.
//
// Conventions. A kernel's inputs are what its front-end handed to detail::run, already converted
// to the compute dtype and broadcast to the output's shape (the conversion and the broadcast are
// themselves differentiable: a `copy` kernel and an `expand` view), so elementwise formulas never
// reduce or cast. A formula returns one gradient per input (undefined where `needs(i)` is false
// or the input is not differentiable); the engine casts each to its input's dtype and checks its
// shape. Formulas run with grad mode off (create_graph is not supported). An op of ops.def with
// no entry throws "the derivative for '<op>' is not implemented" when its input requires grad.
#include "Derivatives.h"

#include <graphify/core/Functions.h>

#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace gfy::autograd::detail {

namespace {

using V = variable_list;

Tensor scaled(const Tensor &g, double a) { return a == 1 ? g : g * a; }

/// The input's shape with size 1 on the dims a reduction reduced. out[0] of a reduction launch is
/// its accumulator: a view of the result with the input's shape and stride 0 on reduced dims.
std::vector<int64_t> kept_shape(const GradCtx &c) {
  const Tensor &acc = c.out(0);
  std::vector<int64_t> keep = acc.sizes().vec();
  for (size_t i = 0; i < keep.size(); ++i)
    if (acc.stride(int64_t(i)) == 0) keep[i] = 1;
  return keep;
}
std::vector<int64_t> reduced_dims(const GradCtx &c) {
  const Tensor &acc = c.out(0);
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < acc.dim(); ++i)
    if (acc.stride(i) == 0) dims.push_back(i);
  return dims;
}
/// A reduction's output gradient broadcast back over the reduced dims.
Tensor expand_reduced(const GradCtx &c, const Tensor &g) { return g.reshape(kept_shape(c)).expand(c.in_sizes(0)); }

/// Gradient of a value-selecting op along `dim` (max(dim), sort, topk): the selected positions
/// get the output's gradient, the others zero.
Tensor scatter_selected(const GradCtx &c, const Tensor &indices) {
  Tensor g = c.g(0), idx = indices;
  const int64_t nd = int64_t(c.in_sizes(0).size());
  if (nd == 0) return g.reshape({});
  const int64_t dim = c.call.dim;
  if (g.dim() < nd) { // max(dim) without keepdim
    g = g.unsqueeze(dim);
    idx = idx.unsqueeze(dim);
  }
  return zeros(c.in_sizes(0), c.in_options(0)).scatter(dim, idx, g.contiguous());
}

/// Runs the advanced-indexing kernels directly, on the index tensors a launch saved.
std::vector<Tensor> index_tensors(const GradCtx &c) {
  return std::vector<Tensor>(c.call.in.begin() + 1, c.call.in.end());
}
/// z[indices] += values, in place (index_put with accumulate).
void index_accumulate(const Tensor &z, const Tensor &values, const GradCtx &c, bool accumulate = true) {
  OpCall k;
  k.op = OpId::index_put;
  k.flag = accumulate;
  k.k = c.call.k;
  k.dim = c.call.dim;
  k.in = {values.contiguous()};
  for (const Tensor &t : index_tensors(c)) k.in.push_back(t);
  k.out = {z};
  gfy::detail::run(std::move(k), z.scalar_type());
}
/// src[indices], with the dense shape `shape`.
Tensor index_gather(const Tensor &src, IntArrayRef shape, const GradCtx &c) {
  Tensor out = gfy::detail::make_tensor(shape, src.scalar_type(), src.device());
  OpCall k;
  k.op = OpId::index;
  k.k = c.call.k;
  k.dim = c.call.dim;
  k.in = {src};
  for (const Tensor &t : index_tensors(c)) k.in.push_back(t);
  k.out = {out};
  gfy::detail::run(std::move(k), src.scalar_type());
  return out;
}

/// The product of the other elements along `dim` (exclusive prefix times exclusive suffix), so
/// that prod's gradient is right when the input holds zeros.
Tensor product_of_others(const Tensor &x, int64_t dim) {
  const int64_t n = x.size(dim);
  if (n <= 1) return ones_like(x);
  Tensor one = ones_like(x.narrow(dim, 0, 1));
  Tensor left = cat({one, x.cumprod(dim).narrow(dim, 0, n - 1)}, dim);
  Tensor xf = x.flip({dim});
  Tensor right = cat({one, xf.cumprod(dim).narrow(dim, 0, n - 1)}, dim).flip({dim});
  return left * right;
}

Tensor gelu_derivative(const Tensor &x, bool tanh_approx) {
  if (!tanh_approx) {
    const double k_alpha = 1.0 / std::sqrt(2.0 * std::numbers::pi);
    Tensor cdf = (gfy::erf(x * std::numbers::sqrt2 / 2) + 1) * 0.5;
    Tensor pdf = gfy::exp(x * x * -0.5) * k_alpha;
    return cdf + x * pdf;
  }
  const double k_beta = std::sqrt(2.0 / std::numbers::pi), k_kappa = 0.044715;
  Tensor x_sq = x * x;
  Tensor inner = (x + x_sq * x * k_kappa) * k_beta;
  Tensor t = gfy::tanh(inner);
  Tensor left = x * 0.5, right = t + 1;
  Tensor inner_derivative = (x_sq * (3 * k_kappa) + 1) * k_beta;
  return right * 0.5 + left * (1 - t * t) * inner_derivative;
}

/// x (N, C, L) normalised with per-channel mean and var: the gradients of x, mean, var, weight
/// and bias (batch_norm's kernel). mean and var are inputs, so in training their own gradients
/// flow on through the reductions that computed them.
V batch_norm_backward(const GradCtx &c) {
  const Tensor &x = c.in(0), &mean = c.in(1), &var = c.in(2), &w = c.in(3);
  const Tensor &g = c.g(0);
  const int64_t C = x.size(1);
  Tensor m = mean.view({1, C, 1}), rstd = gfy::rsqrt(var + c.call.alpha).view({1, C, 1});
  Tensor gw = w.defined() ? g * w.view({1, C, 1}) : g;
  V r(5);
  if (c.needs(0)) r[0] = gw * rstd;
  if (c.needs(1)) r[1] = -(gw * rstd).sum({0, 2});
  if (c.needs(2)) r[2] = (gw * (x - m)).sum({0, 2}) * (rstd * rstd * rstd).view({C}) * -0.5;
  if (c.needs(3)) r[3] = (g * ((x - m) * rstd)).sum({0, 2});
  if (c.needs(4)) r[4] = g.sum({0, 2});
  return r;
}

/// layer_norm over the last D elements: in0 x, in1 weight or undefined, in2 bias or undefined.
V layer_norm_backward(const GradCtx &c) {
  const int64_t D = c.call.k;
  Tensor x = c.in(0).reshape({-1, D}), g = c.g(0).reshape({-1, D});
  Tensor mu = x.mean({1}, true);
  Tensor xc = x - mu;
  Tensor rstd = gfy::rsqrt((xc * xc).mean({1}, true) + c.call.alpha);
  Tensor xhat = xc * rstd;
  Tensor gw = c.in(1).defined() ? g * c.in(1).reshape({1, D}) : g;
  V r(3);
  if (c.needs(0))
    r[0] = ((gw - gw.mean({1}, true) - xhat * (gw * xhat).mean({1}, true)) * rstd).view(c.in_sizes(0));
  if (c.needs(1)) r[1] = (g * xhat).sum({0}).view(c.in_sizes(1));
  if (c.needs(2)) r[2] = g.sum({0}).view(c.in_sizes(2));
  return r;
}

/// conv2d: in0 x (N, C, H, W), in1 w (O, C / G, kH, kW), in2 bias; ints {sH, sW, pH, pW, dH, dW},
/// k groups. Both gradients are convolutions themselves (run by the same kernel): the weight's
/// correlates the input with the output gradient (stride and dilation swap roles), the input's
/// is the transposed convolution: the output gradient spread out by the stride, correlated with
/// the flipped kernel over its full extent, then cut to the input's window.
V conv2d_backward(const GradCtx &c) {
  const Tensor &x = c.in(0), &w = c.in(1), &g = c.g(0);
  const std::vector<int64_t> &q = c.call.ints;
  const int64_t sH = q[0], sW = q[1], pH = q[2], pW = q[3], dH = q[4], dW = q[5], G = c.call.k;
  const int64_t N = g.size(0), O = g.size(1), oH = g.size(2), oW = g.size(3);
  const int64_t C = c.in_sizes(0)[1], H = c.in_sizes(0)[2], W = c.in_sizes(0)[3];
  const int64_t kH = c.in_sizes(1)[2], kW = c.in_sizes(1)[3], Og = O / G, Cg = C / G;
  V r(3);
  if (c.needs(0)) {
    Tensor spread = g; // g with (stride - 1) zeros between its rows and columns
    if (sH > 1 || sW > 1) {
      spread = zeros({N, O, (oH - 1) * sH + 1, (oW - 1) * sW + 1}, g.options());
      spread.slice(2, 0, std::nullopt, sH).slice(3, 0, std::nullopt, sW).copy_(g);
    }
    Tensor wt = w.view({G, Og, Cg, kH, kW}).transpose(1, 2).reshape({C, Og, kH, kW}).flip({2, 3});
    Tensor full = conv2d(spread, wt, {}, 1, {dH * (kH - 1), dW * (kW - 1)}, {dH, dW}, G); // padded-input coords
    // Rows/columns of the padded input that no output window reached get zeros.
    const int64_t lackH = pH + H - full.size(2), lackW = pW + W - full.size(3);
    if (lackH > 0) full = cat({full, zeros({N, C, lackH, full.size(3)}, g.options())}, 2);
    if (lackW > 0) full = cat({full, zeros({N, C, full.size(2), lackW}, g.options())}, 3);
    r[0] = full.narrow(2, pH, H).narrow(3, pW, W);
  }
  if (c.needs(1)) {
    std::vector<Tensor> parts;
    for (int64_t gi = 0; gi < G; ++gi) {
      Tensor xg = x.narrow(1, gi * Cg, Cg).transpose(0, 1);  // (Cg, N, H, W)
      Tensor gg = g.narrow(1, gi * Og, Og).transpose(0, 1);  // (Og, N, oH, oW)
      Tensor corr = conv2d(xg, gg, {}, {dH, dW}, {pH, pW}, {sH, sW}); // (Cg, Og, >= kH, >= kW)
      parts.push_back(corr.narrow(2, 0, kH).narrow(3, 0, kW).transpose(0, 1));
    }
    r[1] = G == 1 ? parts[0].contiguous() : cat(parts, 0);
  }
  if (c.call.in.size() > 2 && c.needs(2)) r[2] = g.sum({0, 2, 3});
  return r;
}

/// Max pooling (plain and adaptive): out1 holds each maximum's position ih * W + iw in its
/// (H, W) plane; the gradient goes there, summed where windows overlap.
V max_pool2d_backward(const GradCtx &c) {
  const Tensor &idx = c.out(1);
  GFY_CHECK(idx.defined(), "internal error: max pooling recorded without indices");
  IntArrayRef s = c.in_sizes(0);
  const int64_t N = s[0], C = s[1], L = idx.size(2) * idx.size(3);
  const TensorOptions longs = TensorOptions().dtype(kLong).device(idx.device());
  Tensor z = zeros({N, C, s[2] * s[3]}, c.in_options(0));
  z.index_put_({arange(N, longs).view({N, 1, 1}), arange(C, longs).view({1, C, 1}), idx.reshape({N, C, L})},
               c.g(0).reshape({N, C, L}), /*accumulate=*/true);
  return {z.view(s)};
}

// --- average pooling and upsampling: separable linear maps ---------------------------------------
// Each output element is a weighted sum over a rectangle of its plane whose weights factor into a
// row weight and a column weight, y = A_h · x · A_w^T per plane; the gradient is A_h^T · g · A_w.
// The matrices are built on the host from sizes alone (constants of the graph under capture),
// with the kernels' own window and tap formulas (cpu/PoolKernels.cpp, cpu/UpsampleKernels.cpp);
// the numerical gradient tests run against those kernels, so the two cannot drift apart.

/// A (rows, cols) matrix of `dtype` from row-major host values.
Tensor host_matrix(const std::vector<double> &v, int64_t rows, int64_t cols, const TensorOptions &o) {
  return tensor(v, TensorOptions().dtype(kDouble)).to(o.dtype().toScalarType()).view({rows, cols}).to(o);
}

Tensor separable_backward(const Tensor &g, const Tensor &a_h, const Tensor &a_w) {
  Tensor t = matmul(g, a_w);                                      // (N, C, oH, W)
  return matmul(t.transpose(-1, -2), a_h).transpose(-1, -2).contiguous(); // (N, C, H, W)
}

/// avg_pool2d along one axis: rows of 1 / extent over the window clipped to the image (divisor
/// from the padded or the clipped extent; an override divides once, on the row axis).
Tensor avg_pool_matrix(int64_t in, int64_t out, int64_t k, int64_t s, int64_t p, bool include_pad, int64_t override_div,
                       bool row_axis, const TensorOptions &o) {
  std::vector<double> a(size_t(out * in), 0.0);
  for (int64_t i = 0; i < out; ++i) {
    int64_t a0 = i * s - p, a1 = std::min(a0 + k, in + p);
    const int64_t padded = a1 - a0;
    a0 = std::max<int64_t>(a0, 0), a1 = std::min(a1, in);
    if (a0 >= a1) continue;
    double w = 1.0 / double(include_pad ? padded : a1 - a0);
    if (override_div) w = row_axis ? 1.0 / double(override_div) : 1.0;
    for (int64_t j = a0; j < a1; ++j) a[size_t(i * in + j)] = w;
  }
  return host_matrix(a, out, in, o);
}

V avg_pool2d_backward(const GradCtx &c) {
  const std::vector<int64_t> &v = c.call.ints; // {kH, kW, sH, sW, pH, pW}
  IntArrayRef s = c.in_sizes(0);
  const Tensor &g = c.g(0);
  const TensorOptions o = c.in_options(0);
  Tensor a_h = avg_pool_matrix(s[2], g.size(2), v[0], v[2], v[4], c.call.flag, c.call.k, true, o);
  Tensor a_w = avg_pool_matrix(s[3], g.size(3), v[1], v[3], v[5], c.call.flag, c.call.k, false, o);
  return {separable_backward(g, a_h, a_w)};
}

Tensor adaptive_matrix(int64_t in, int64_t out, const TensorOptions &o) {
  std::vector<double> a(size_t(out * in), 0.0);
  for (int64_t i = 0; i < out; ++i) {
    const int64_t a0 = (i * in) / out, a1 = ((i + 1) * in + out - 1) / out; // floor, ceil
    for (int64_t j = a0; j < a1; ++j) a[size_t(i * in + j)] = 1.0 / double(a1 - a0);
  }
  return host_matrix(a, out, in, o);
}

V adaptive_avg_pool2d_backward(const GradCtx &c) {
  IntArrayRef s = c.in_sizes(0);
  const Tensor &g = c.g(0);
  return {separable_backward(g, adaptive_matrix(s[2], g.size(2), c.in_options(0)),
                             adaptive_matrix(s[3], g.size(3), c.in_options(0)))};
}

/// The source row of output row `o` (cpu/UpsampleKernels.cpp's nearest_index, in float as there).
Tensor nearest_matrix(int64_t in, int64_t out, double scale, const TensorOptions &o) {
  std::vector<double> a(size_t(out * in), 0.0);
  const float step = scale > 0 ? static_cast<float>(1.0 / scale) : static_cast<float>(in) / static_cast<float>(out);
  for (int64_t i = 0; i < out; ++i) {
    int64_t src = i;
    if (out == 2 * in) src = i >> 1;
    else if (out != in) src = std::min(static_cast<int64_t>(std::floor(float(i) * step)), in - 1);
    a[size_t(i * in + src)] = 1.0;
  }
  return host_matrix(a, out, in, o);
}

/// Two taps per output row (cpu/UpsampleKernels.cpp's linear_taps, in the tensor's precision).
template <class T> Tensor linear_matrix(int64_t in, int64_t out, bool align_corners, double scale, const TensorOptions &o) {
  std::vector<double> a(size_t(out * in), 0.0);
  T step;
  if (align_corners) step = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  else step = scale > 0 ? static_cast<T>(1.0 / scale) : static_cast<T>(in) / static_cast<T>(out);
  for (int64_t i = 0; i < out; ++i) {
    T src = align_corners ? step * T(i) : step * (T(i) + T(0.5)) - T(0.5);
    if (src < T(0)) src = T(0);
    const int64_t i0 = static_cast<int64_t>(src);
    const T w1 = std::min(std::max(src - T(i0), T(0)), T(1));
    a[size_t(i * in + i0)] += double(T(1) - w1);
    a[size_t(i * in + i0 + (i0 < in - 1 ? 1 : 0))] += double(w1);
  }
  return host_matrix(a, out, in, o);
}

V upsample_backward(const GradCtx &c, bool bilinear) {
  IntArrayRef s = c.in_sizes(0);
  const Tensor &g = c.g(0);
  const TensorOptions o = c.in_options(0);
  if (!bilinear)
    return {separable_backward(g, nearest_matrix(s[2], g.size(2), c.call.alpha, o),
                               nearest_matrix(s[3], g.size(3), c.call.beta, o))};
  const bool ac = c.call.flag;
  if (o.dtype() == kFloat)
    return {separable_backward(g, linear_matrix<float>(s[2], g.size(2), ac, c.call.alpha, o),
                               linear_matrix<float>(s[3], g.size(3), ac, c.call.beta, o))};
  return {separable_backward(g, linear_matrix<double>(s[2], g.size(2), ac, c.call.alpha, o),
                             linear_matrix<double>(s[3], g.size(3), ac, c.call.beta, o))};
}

V mm_backward(const GradCtx &c) {
  const Tensor &a = c.in(0), &b = c.in(1), &g = c.g(0);
  const bool batched = g.dim() == 3;
  V r(c.call.in.size());
  if (c.needs(0)) r[0] = scaled(batched ? g.bmm(b.transpose(1, 2)) : g.mm(b.t()), c.call.alpha);
  if (c.needs(1)) r[1] = scaled(batched ? a.transpose(1, 2).bmm(g) : a.t().mm(g), c.call.alpha);
  if (r.size() > 2 && c.needs(2)) r[2] = scaled(g, c.call.beta);
  return r;
}

V pow_backward(const GradCtx &c) {
  const Tensor &self = c.in(0), &e = c.in(1), &g = c.g(0);
  V r(2);
  if (c.needs(0)) r[0] = where(e == 0, 0.0, g * e * self.pow(e - 1));
  if (c.needs(1)) r[1] = g * where((self == 0).logical_and(e >= 0), 0.0, c.out(0) * self.log());
  return r;
}

/// maximum / minimum: ties share the gradient, as LibTorch's.
V extremum_backward(const GradCtx &c, bool is_max) {
  const Tensor &a = c.in(0), &b = c.in(1), &g = c.g(0);
  Tensor shared = where(a == b, g / 2, g);
  return {c.needs(0) ? shared.masked_fill(is_max ? a < b : a > b, 0) : Tensor(),
          c.needs(1) ? shared.masked_fill(is_max ? a > b : a < b, 0) : Tensor()};
}

V amax_backward(const GradCtx &c) {
  Tensor mask = (c.in(0) == expand_reduced(c, c.out(1))).to(c.in(0).scalar_type());
  Tensor count = mask.sum(reduced_dims(c), true);
  return {expand_reduced(c, c.g(1)) * mask / count};
}

V prod_backward(const GradCtx &c) {
  const Tensor &x = c.in(0);
  const std::vector<int64_t> dims = reduced_dims(c);
  if (x.dim() == 0) return {c.g(1).reshape({})};
  if (dims.size() == 1) return {product_of_others(x, dims[0]) * expand_reduced(c, c.g(1))};
  Tensor flat = x.reshape({-1});
  return {(product_of_others(flat, 0) * c.g(1).reshape({})).view(c.in_sizes(0))};
}

/// A unary op whose derivative is f'(x) (or f'(result)) times the gradient.

using KD = KernelDerivative;
struct Entry {
  OpId op;
  KD d;
};
KD entry(unsigned saves, Formula f, unsigned shapes = 0, unsigned outputs = OUT(0)) {
  return KD{true, saves, shapes, 0, outputs, false, false, f};
}
V no_inputs(const GradCtx &) { return {}; }
KD saved_for_others(KD d, unsigned inputs) {
  d.for_others = inputs;
  return d;
}
KD overwrite(Formula f) {
  KD d = entry(0, f);
  d.overwrites = true;
  return d;
}

/// cumprod along `dim`: out[j] = x[0] * ... * x[j], so dx[k] = out[k - 1] * S[k] with
/// S[k] = sum over j >= k of g[j] * x[k + 1] * ... * x[j], that is S[k] = g[k] + x[k + 1] * S[k + 1]:
/// exact when x has zeros (LibTorch's reverse_cumsum(g * out) / x is not, and falls back to a
/// quadratic form there), at one step per position along `dim`.
V cumprod_backward(const GradCtx &c) {
  const Tensor &g = c.g(0);
  if (g.dim() == 0) return {g};
  const int64_t d = c.call.dim, n = g.size(d);
  if (n == 0) return {g};
  const Tensor &x = c.in(0), &out = c.out(0);
  Tensor s = g.clone();
  for (int64_t k = n - 2; k >= 0; --k) s.select(d, k).add_(x.select(d, k + 1) * s.select(d, k + 1));
  if (n == 1) return {s};
  Tensor before = cat({ones_like(out.narrow(d, 0, 1)), out.narrow(d, 0, n - 1)}, d);
  return {before * s};
}

// clang-format off
const Entry kEntries[] = {
  // creation and copies: written over a tensor in place, they cut its history (zeros flow back)
  {OpId::copy,      overwrite([](const GradCtx &c) -> V { return {c.g(0)}; })},
  {OpId::fill,      overwrite(no_inputs)},
  {OpId::arange,    overwrite(no_inputs)},
  {OpId::uniform,   overwrite(no_inputs)},
  {OpId::normal,    overwrite(no_inputs)},
  {OpId::randint,   overwrite(no_inputs)},
  // binary elementwise (inputs broadcast and converted by the front-end)
  {OpId::add,       entry(0, [](const GradCtx &c) -> V { return {c.g(0), scaled(c.g(0), c.call.alpha)}; })},
  {OpId::sub,       entry(0, [](const GradCtx &c) -> V { return {c.g(0), scaled(c.g(0), -c.call.alpha)}; })},
  {OpId::mul,       saved_for_others(entry(IN(0) | IN(1), [](const GradCtx &c) -> V {
                      return {c.needs(0) ? c.g(0) * c.in(1) : Tensor(), c.needs(1) ? c.g(0) * c.in(0) : Tensor()}; }),
                      IN(0) | IN(1))},
  {OpId::div,       saved_for_others(entry(IN(0) | IN(1), [](const GradCtx &c) -> V {
                      return {c.needs(0) ? c.g(0) / c.in(1) : Tensor(),
                              c.needs(1) ? -c.g(0) * c.in(0) / (c.in(1) * c.in(1)) : Tensor()}; }),
                      IN(0))},
  {OpId::pow,       entry(IN(0) | IN(1) | OUT(0), pow_backward)},
  {OpId::maximum,   entry(IN(0) | IN(1), [](const GradCtx &c) { return extremum_backward(c, true); })},
  {OpId::minimum,   entry(IN(0) | IN(1), [](const GradCtx &c) { return extremum_backward(c, false); })},
  {OpId::fmod,      entry(IN(0) | IN(1), [](const GradCtx &c) -> V {
                      return {c.g(0), c.needs(1) ? -c.g(0) * trunc(c.in(0) / c.in(1)) : Tensor()}; })},
  {OpId::remainder, entry(IN(0) | IN(1), [](const GradCtx &c) -> V {
                      return {c.g(0), c.needs(1) ? -c.g(0) * floor(c.in(0) / c.in(1)) : Tensor()}; })},
  // elementwise ops whose derivative is one expression per input: ops.def's GFY_DERIVATIVE rows
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_DERIVATIVE(name, saves, ...)                                                           \
  {OpId::name, entry(saves, [](const GradCtx &c) -> V {                                           \
     const Tensor &g = c.g(0);                                                                     \
     (void)g;                                                                                      \
     return {__VA_ARGS__};                                                                         \
   })},
#include <graphify/ops.def>
#undef GFY_DERIVATIVE
#undef GFY_OP
  {OpId::gelu,      entry(IN(0), [](const GradCtx &c) -> V { return {c.g(0) * gelu_derivative(c.in(0), c.call.flag)}; })},
  {OpId::clamp,     entry(IN(0), [](const GradCtx &c) -> V {
                      // min = alpha when flag, max = beta when flag2; NaN inputs get no gradient
                      Tensor in_range = c.call.flag ? c.in(0) >= c.call.alpha : c.in(0) == c.in(0);
                      if (c.call.flag2) in_range = in_range.logical_and(c.in(0) <= c.call.beta);
                      return {where(in_range, c.g(0), 0.0)}; })},
  // ternary
  {OpId::where,     entry(IN(0), [](const GradCtx &c) -> V {
                      return {Tensor(), c.needs(1) ? where(c.in(0), c.g(0), 0.0) : Tensor(),
                              c.needs(2) ? where(c.in(0), 0.0, c.g(0)) : Tensor()}; })},
  {OpId::masked_fill, entry(IN(1), [](const GradCtx &c) -> V {
                      return {c.needs(0) ? c.g(0).masked_fill(c.in(1), 0) : Tensor(), Tensor(),
                              c.needs(2) ? where(c.in(1), c.g(0), 0.0).sum() : Tensor()}; })},
  {OpId::lerp,      entry(IN(0) | IN(1) | IN(2), [](const GradCtx &c) -> V {
                      const Tensor &g = c.g(0);
                      if (!c.call.flag) return {g * (1 - c.call.alpha), g * c.call.alpha};
                      return {g * (1 - c.in(2)), g * c.in(2), c.needs(2) ? g * (c.in(1) - c.in(0)) : Tensor()}; })},
  // reductions: out0 is the accumulator view (its strides say which dims were reduced), out1 the result
  {OpId::sum,       entry(0, [](const GradCtx &c) -> V { return {expand_reduced(c, c.g(1))}; }, OUT(0), OUT(1))},
  {OpId::mean,      entry(0, [](const GradCtx &c) -> V { return {expand_reduced(c, c.g(1) / c.call.alpha)}; }, OUT(0), OUT(1))},
  {OpId::prod,      entry(IN(0), prod_backward, OUT(0), OUT(1))},
  {OpId::amax,      entry(IN(0) | OUT(1), amax_backward, OUT(0), OUT(1))},
  {OpId::amin,      entry(IN(0) | OUT(1), amax_backward, OUT(0), OUT(1))},
  {OpId::max_dim,   entry(OUT(1), [](const GradCtx &c) -> V { return {scatter_selected(c, c.out(1))}; })},
  {OpId::min_dim,   entry(OUT(1), [](const GradCtx &c) -> V { return {scatter_selected(c, c.out(1))}; })},
  {OpId::cumsum,    entry(0, [](const GradCtx &c) -> V {
                      if (c.g(0).dim() == 0) return {c.g(0)};
                      const int64_t d = c.call.dim;
                      return {c.g(0).flip({d}).cumsum(d).flip({d})}; })},
  {OpId::cumprod,   entry(IN(0) | OUT(0), cumprod_backward)},
  // linear algebra
  {OpId::mm,        entry(IN(0) | IN(1), mm_backward)},
  // indexing: in0 the source (index) or the values (index_put), in1.. the index tensors
  {OpId::index,     entry(ALL_IN_FROM_1, [](const GradCtx &c) -> V {
                      Tensor z = zeros(c.in_sizes(0), c.in_options(0));
                      index_accumulate(z, c.g(0), c);
                      return {z}; })},
  {OpId::sort,      entry(OUT(1), [](const GradCtx &c) -> V { return {scatter_selected(c, c.out(1))}; })},
  {OpId::topk,      entry(OUT(1), [](const GradCtx &c) -> V { return {scatter_selected(c, c.out(1))}; })},
  // neural-network kernels
  {OpId::softmax,   entry(OUT(0), [](const GradCtx &c) -> V {
                      const Tensor &y = c.out(0);
                      return {y * (c.g(0) - (c.g(0) * y).sum({c.call.dim}, true))}; })},
  {OpId::log_softmax, entry(OUT(0), [](const GradCtx &c) -> V {
                      return {c.g(0) - gfy::exp(c.out(0)) * c.g(0).sum({c.call.dim}, true)}; })},
  {OpId::layer_norm, entry(IN(0) | IN(1), layer_norm_backward)},
  {OpId::batch_norm, entry(IN(0) | IN(1) | IN(2) | IN(3), batch_norm_backward)},
  {OpId::conv2d,    entry(IN(0) | IN(1), conv2d_backward)},
  {OpId::max_pool2d, entry(OUT(1), max_pool2d_backward)},
  {OpId::avg_pool2d, entry(0, avg_pool2d_backward)},
  {OpId::adaptive_avg_pool2d, entry(0, adaptive_avg_pool2d_backward)},
  {OpId::upsample_nearest2d, entry(0, [](const GradCtx &c) { return upsample_backward(c, false); })},
  {OpId::upsample_bilinear2d, entry(0, [](const GradCtx &c) { return upsample_backward(c, true); })},
  {OpId::adaptive_max_pool2d, entry(OUT(1), max_pool2d_backward)},
};
// clang-format on

KD index_put_derivative() {
  KD d = entry(ALL_IN_FROM_1, [](const GradCtx &c) -> V {
    const Tensor &g = c.g(0);
    V r(c.edges.size());
    if (c.needs(0)) r[0] = index_gather(g, c.in_sizes(0), c);
    if (c.has_old_out() && c.needs(c.num_in)) {
      // Accumulated: every old value is still in the sum. Overwritten: the written positions
      // receive nothing.
      if (c.call.flag) r[c.num_in] = g;
      else {
        Tensor kept = g.clone();
        index_accumulate(kept, zeros(c.in_sizes(0), c.meta[c.num_in].dtype), c, /*accumulate=*/false);
        r[c.num_in] = kept;
      }
    }
    return r;
  });
  d.grads_old_out = true;
  return d;
}

std::array<KD, kNumOps> make_table() {
  std::array<KD, kNumOps> t{};
  auto add = [&t](OpId op, const KD &d) {
    // Two formulas for one op (a GFY_DERIVATIVE row and a table entry) would leave one unused.
    if (t[size_t(op)].defined) throw std::logic_error("two derivatives for '" + std::string(op_name(op)) + "'");
    t[size_t(op)] = d;
  };
  for (const Entry &e : kEntries) add(e.op, e.d);
  add(OpId::index_put, index_put_derivative());
  return t;
}

} // namespace

const KernelDerivative &kernel_derivative(OpId op) {
  static const std::array<KD, kNumOps> table = make_table();
  return table[size_t(op)];
}

// --- view ops ---------------------------------------------------------------------------------------

void record_reshape(const Tensor &view, const Tensor &base) {
  set_view_history(view, base, "ViewBackward0",
                   [sizes = base.sizes().vec()](const Tensor &g) { return g.reshape(sizes); });
}

void record_transpose(const Tensor &view, const Tensor &base, int64_t d0, int64_t d1) {
  set_view_history(view, base, "TransposeBackward0", [d0, d1](const Tensor &g) { return g.transpose(d0, d1); });
}

void record_permute(const Tensor &view, const Tensor &base, IntArrayRef dims) {
  std::vector<int64_t> inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i] < 0 ? dims[i] + int64_t(dims.size()) : dims[i];
    inverse[size_t(d)] = int64_t(i);
  }
  set_view_history(view, base, "PermuteBackward0", [inverse](const Tensor &g) { return g.permute(inverse); });
}

void record_expand(const Tensor &view, const Tensor &base) {
  set_view_history(view, base, "ExpandBackward0", [sizes = base.sizes().vec()](const Tensor &g) {
    // Sum over the broadcast dims: the leading ones added by expand, then the size-1 ones.
    const int64_t lead = g.dim() - int64_t(sizes.size());
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < g.dim(); ++i)
      if (i < lead || (sizes[size_t(i - lead)] == 1 && g.size(i) != 1)) dims.push_back(i);
    if (dims.empty()) return g;
    return g.sum(dims, true).reshape(sizes);
  });
}

void record_slice(const Tensor &view, const Tensor &base, int64_t dim, int64_t start, int64_t end, int64_t step) {
  set_view_history(view, base, "SliceBackward0",
                   [sizes = base.sizes().vec(), options = base.options(), dim, start, end, step](const Tensor &g) {
                     Tensor z = zeros(sizes, options);
                     z.slice(dim, start, end, step).copy_(g);
                     return z;
                   });
}

void record_select(const Tensor &view, const Tensor &base, int64_t dim, int64_t index) {
  set_view_history(view, base, "SelectBackward0",
                   [sizes = base.sizes().vec(), options = base.options(), dim, index](const Tensor &g) {
                     Tensor z = zeros(sizes, options);
                     z.select(dim, index).copy_(g);
                     return z;
                   });
}

// --- front-ends with their own derivative ----------------------------------------------------------

void record_cat(const Tensor &out, const std::vector<Tensor> &inputs, int64_t dim) {
  std::vector<int64_t> lengths;
  for (const Tensor &t : inputs) lengths.push_back(t.dim() == 1 && t.size(0) == 0 ? -1 : t.size(dim));
  record_function("CatBackward0", inputs, {out}, [lengths, dim](const V &g) {
    V r(lengths.size());
    int64_t off = 0;
    for (size_t i = 0; i < lengths.size(); ++i) {
      if (lengths[i] < 0) continue; // a legacy empty input took no part
      r[i] = g[0].narrow(dim, off, lengths[i]);
      off += lengths[i];
    }
    return r;
  });
}

namespace {
/// Index lists addressing every element of `index` in a tensor of its rank: arange along each
/// dim, `index` itself along `dim` (so that z.index_put_(positions, v, true) is scatter_add).
std::vector<indexing::TensorIndex> scatter_positions(const Tensor &index, int64_t dim) {
  std::vector<indexing::TensorIndex> pos;
  for (int64_t d = 0; d < index.dim(); ++d) {
    if (d == dim) {
      pos.emplace_back(index);
      continue;
    }
    std::vector<int64_t> shape(size_t(index.dim()), 1);
    shape[size_t(d)] = index.size(d);
    pos.emplace_back(arange(index.size(d), TensorOptions().dtype(kLong).device(index.device())).view(shape));
  }
  return pos;
}
} // namespace

void record_gather(const Tensor &out, const Tensor &self, int64_t dim, const Tensor &index) {
  record_function("GatherBackward0", {self}, {out},
                  [sizes = self.sizes().vec(), options = self.options(), dim, index](const V &g) -> V {
                    Tensor z = zeros(sizes, options);
                    if (index.dim() == 0) z.view({-1}).index_put_({index.view({1})}, g[0].view({1}), true);
                    else z.index_put_(scatter_positions(index, dim), g[0], true);
                    return {z};
                  });
}

void record_embedding(const Tensor &out, const Tensor &weight, const Tensor &indices, int64_t padding_idx) {
  record_function("EmbeddingBackward0", {weight}, {out},
                  [sizes = weight.sizes().vec(), options = weight.options(), indices, padding_idx](const V &g) -> V {
                    Tensor z = zeros(sizes, options);
                    Tensor flat = indices.reshape({-1}).to(kLong);
                    Tensor rows = g[0].reshape({flat.numel(), sizes[1]});
                    if (padding_idx >= 0) rows = rows.masked_fill((flat == padding_idx).unsqueeze(1), 0);
                    z.index_put_({flat}, rows, true);
                    return {z};
                  });
}

void record_zero_derivative(const Tensor &out, const Tensor &input, const char *name) {
  record_function(name, {input}, {out}, [sizes = input.sizes().vec(), options = input.options()](const V &) -> V {
    return {zeros(sizes, options)};
  });
}

} // namespace gfy::autograd::detail
