// Front-ends of pooling: max and average over fixed windows, and their adaptive forms, in 2-d and
// 1-d. Every one is one kernel call on a contiguous (N, C, H, W) input: an unbatched (C, H, W)
// input gets a batch dim of one, and the 1-d forms run the 2-d kernels with H = 1 (as LibTorch's
// avg_pool1d and adaptive_*_pool1d do). Output sizes and checks follow LibTorch 1.13's
// pooling_output_shape and pool2d_shape_check, with their messages.
#include "OpsCommon.h"

#include "../autograd/AutogradMeta.h"

namespace gfy {
using namespace detail;

namespace {

/// Floor division (LibTorch's div_rtn), for output sizes whose numerator can be negative.
int64_t div_floor(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/// Output length of a pooling window sliding over `in` (LibTorch's pooling_output_shape).
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil_mode) {
  GFY_CHECK(stride != 0, "stride should not be zero");
  GFY_CHECK(pad >= 0, "pad must be non-negative, but got pad: ", pad);
  GFY_CHECK(pad <= ((k - 1) * dilation + 1) / 2, "pad should be at most half of effective kernel size, but got pad=",
            pad, ", kernel_size=", k, " and dilation=", dilation);
  int64_t out = div_floor(in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0), stride) + 1;
  // In ceil mode the last window must still start inside the image or its left padding.
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

/// The (kH, kW) / (sH, sW) / ... pair of a 2-d pooling argument: one int for both, or two.
struct Pair {
  int64_t h, w;
};
Pair pair_of(IntArrayRef v, Pair if_empty = {0, 0}) {
  if (v.empty()) return if_empty;
  return v.size() == 1 ? Pair{v[0], v[0]} : Pair{v[0], v[1]};
}

/// A 3-d (C, H, W) or 4-d (N, C, H, W) input as 4-d contiguous, and whether it had a batch dim.
std::pair<Tensor, bool> batched_4d(const Tensor &input) {
  const bool batched = input.dim() == 4;
  return {(batched ? input : input.unsqueeze(0)).contiguous(), batched};
}
Tensor unbatch(const Tensor &out, bool batched) { return batched ? out : out.squeeze(0); }

/// LibTorch's pool2d_shape_check on a 3-d or 4-d input, after its output size was computed.
void check_pool2d(const Tensor &x, Pair k, Pair s, Pair p, Pair d, int64_t oH, int64_t oW) {
  GFY_CHECK(k.w > 0 && k.h > 0, "kernel size should be greater than zero, but got kH: ", k.h, " kW: ", k.w);
  GFY_CHECK(s.w > 0 && s.h > 0, "stride should be greater than zero, but got dH: ", s.h, " dW: ", s.w);
  GFY_CHECK(d.h > 0 && d.w > 0, "dilation should be greater than zero, but got dilationH: ", d.h, " dilationW: ", d.w);
  const int64_t nd = x.dim();
  const bool spatial = x.size(nd - 1) != 0 && x.size(nd - 2) != 0;
  GFY_CHECK(spatial && x.size(nd - 3) != 0 && (nd == 4 || x.size(0) != 0),
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:", x.sizes());
  GFY_CHECK(k.w / 2 >= p.w && k.h / 2 >= p.h, "pad should be smaller than or equal to half of kernel size, but got padW = ",
            p.w, ", padH = ", p.h, ", kW = ", k.w, ", kH = ", k.h);
  GFY_CHECK(oW >= 1 && oH >= 1, "Given input size: (", x.size(nd - 3), "x", x.size(nd - 2), "x", x.size(nd - 1),
            "). Calculated output size: (", x.size(nd - 3), "x", oH, "x", oW, "). Output size is too small");
}

/// One pooling kernel call: x (N, C, H, W) contiguous into (N, C, oH, oW) [+ long indices].
std::pair<Tensor, Tensor> run_pool(OpId op, const Tensor &x, int64_t oH, int64_t oW, OpCall c, bool indices) {
  const ScalarType t = x.scalar_type();
  // Max pooling's derivative routes the gradient through the indices: compute them whenever a
  // gradient will be needed, even if the caller did not ask for them.
  if (op == OpId::max_pool2d && autograd::detail::any_requires_grad({x})) indices = true;
  Tensor out = make_tensor({x.size(0), x.size(1), oH, oW}, t, x.device());
  Tensor idx = indices ? make_tensor({x.size(0), x.size(1), oH, oW}, kLong, x.device()) : Tensor();
  c.op = op;
  c.in = {x};
  c.out = {out};
  if (indices) c.out.push_back(idx);
  run(std::move(c), t);
  return {out, idx};
}

std::pair<Tensor, Tensor> max_pool2d_impl(const char *name, const Tensor &input, IntArrayRef kernel_size,
                                          IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                                          bool indices) {
  check_defined(input, "self");
  GFY_CHECK(kernel_size.size() == 1 || kernel_size.size() == 2, name,
            ": kernel_size must either be a single int, or a tuple of two ints");
  GFY_CHECK(stride.size() <= 2, name, ": stride must either be omitted, a single int, or a tuple of two ints");
  GFY_CHECK(padding.size() == 1 || padding.size() == 2, name,
            ": padding must be either be a single int, or a tuple of two ints");
  GFY_CHECK(dilation.size() == 1 || dilation.size() == 2, name,
            ": dilation must be either a single int, or a tuple of two ints");
  GFY_CHECK(input.dim() == 3 || input.dim() == 4, "non-empty 3D or 4D (batch mode) tensor expected for input");
  const Pair k = pair_of(kernel_size), s = pair_of(stride, k), p = pair_of(padding), d = pair_of(dilation);
  GFY_CHECK(k.w > 0 && k.h > 0, "kernel size should be greater than zero, but got kH: ", k.h, " kW: ", k.w);
  GFY_CHECK(s.w > 0 && s.h > 0, "stride should be greater than zero, but got dH: ", s.h, " dW: ", s.w);
  const int64_t oH = pooled_size(input.size(-2), k.h, p.h, s.h, d.h, ceil_mode);
  const int64_t oW = pooled_size(input.size(-1), k.w, p.w, s.w, d.w, ceil_mode);
  check_pool2d(input, k, s, p, d, oH, oW);
  auto [x, batched] = batched_4d(input);
  OpCall c;
  c.ints = {k.h, k.w, s.h, s.w, p.h, p.w, d.h, d.w};
  auto [out, idx] = run_pool(OpId::max_pool2d, x, oH, oW, std::move(c), indices);
  return {unbatch(out, batched), indices ? unbatch(idx, batched) : Tensor()};
}

/// Checks of the 1-d forms, which pool (…, 1, L) with the 2-d kernels.
void check_1d_input(const char *name, const Tensor &input) {
  check_defined(input, "self");
  GFY_CHECK(input.dim() == 2 || input.dim() == 3, "Expected 2 to 3 dimensions, but got ", input.dim(),
            "-dimensional tensor for argument #1 'self' (while checking arguments for ", name, ")");
}
void check_1d_arg(const char *name, const char *arg, IntArrayRef v, bool may_be_empty = false) {
  GFY_CHECK(v.size() == 1 || (may_be_empty && v.empty()), name, "() argument '", arg, "' should contain one int (got ",
            v.size(), ")");
}

/// LibTorch's checks of adaptive pooling; `first_checked` is the first dim that must not be
/// empty (max pooling checks from dim 1, average pooling only the spatial dims).
void check_adaptive_input(const char *name, const Tensor &input, IntArrayRef output_size, int64_t first_checked) {
  check_defined(input, "self");
  GFY_CHECK(output_size.size() == 2, name, ": output_size must be 2");
  GFY_CHECK(input.dim() == 3 || input.dim() == 4, name, "(): Expected 3D or 4D tensor, but got ", input.sizes());
  for (int64_t i = first_checked < 0 ? input.dim() + first_checked : first_checked; i < input.dim(); ++i)
    GFY_CHECK(input.size(i) > 0, name,
              "(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ", input.sizes(),
              " with dimension ", i, " being empty");
  GFY_CHECK(output_size[0] >= 0 && output_size[1] >= 0, name,
            ": elements of output_size must be greater than or equal to 0 but received {", output_size[0], ", ",
            output_size[1], "}");
}

} // namespace

Tensor max_pool2d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return max_pool2d_impl("max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode, false).first;
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  auto [out, idx] = max_pool2d_impl("max_pool2d_with_indices", input, kernel_size, stride, padding, dilation, ceil_mode,
                                    true);
  return {out, idx};
}

Tensor max_pool1d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  check_defined(input, "self");
  GFY_CHECK(input.dim() == 2 || input.dim() == 3, "max_pool1d() Expected 2D or 3D input tensor, but got ", input.sizes());
  GFY_CHECK(kernel_size.size() == 1,
            "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got size ",
            kernel_size.size());
  GFY_CHECK(stride.size() <= 1, "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size ",
            stride.size());
  GFY_CHECK(padding.size() == 1, "max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size ",
            padding.size());
  GFY_CHECK(dilation.size() == 1, "max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size ",
            dilation.size());
  const int64_t k = kernel_size[0], s = stride.empty() ? k : stride[0], p = padding[0], d = dilation[0];
  GFY_CHECK(k > 0, "max_pool1d() kernel_size must be greater than zero, but got ", k);
  GFY_CHECK(s > 0, "max_pool1d() stride must be greater than zero, but got ", s);
  GFY_CHECK(p >= 0, "max_pool1d() padding must be non-negative, but got ", p);
  GFY_CHECK(p <= k / 2, "max_pool1d() padding should be at most half of kernel size, but got padding=", p,
            " and kernel_size=", k);
  GFY_CHECK(d > 0, "max_pool1d() dilation must be greater than zero, but got ", d);
  const int64_t oW = pooled_size(input.size(-1), k, p, s, d, ceil_mode);
  GFY_CHECK(oW >= 0, "max_pool1d() Invalid computed output size: ", oW);
  // (…, C, L) as (N, C, 1, L).
  Tensor x = (input.dim() == 3 ? input : input.unsqueeze(0)).unsqueeze(2).contiguous();
  OpCall c;
  c.ints = {1, k, 1, s, 0, p, 1, d};
  Tensor out = run_pool(OpId::max_pool2d, x, 1, oW, std::move(c), false).first.squeeze(2);
  return input.dim() == 3 ? out : out.squeeze(0);
}

Tensor avg_pool2d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                  bool count_include_pad, std::optional<int64_t> divisor_override) {
  check_defined(input, "self");
  GFY_CHECK(kernel_size.size() == 1 || kernel_size.size() == 2,
            "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  GFY_CHECK(stride.size() <= 2, "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
  GFY_CHECK(padding.size() == 1 || padding.size() == 2,
            "avg_pool2d: padding must either be a single int, or a tuple of two ints");
  GFY_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  GFY_CHECK(input.dim() == 3 || input.dim() == 4,
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:", input.sizes());
  const Pair k = pair_of(kernel_size), s = pair_of(stride, k), p = pair_of(padding);
  GFY_CHECK(k.w > 0 && k.h > 0, "kernel size should be greater than zero, but got kH: ", k.h, " kW: ", k.w);
  GFY_CHECK(s.w > 0 && s.h > 0, "stride should be greater than zero, but got dH: ", s.h, " dW: ", s.w);
  const int64_t oH = pooled_size(input.size(-2), k.h, p.h, s.h, 1, ceil_mode);
  const int64_t oW = pooled_size(input.size(-1), k.w, p.w, s.w, 1, ceil_mode);
  check_pool2d(input, k, s, p, Pair{1, 1}, oH, oW);
  auto [x, batched] = batched_4d(input);
  OpCall c;
  c.ints = {k.h, k.w, s.h, s.w, p.h, p.w};
  c.flag = count_include_pad;
  c.k = divisor_override.value_or(0);
  return unbatch(run_pool(OpId::avg_pool2d, x, oH, oW, std::move(c), false).first, batched);
}

Tensor avg_pool1d(const Tensor &input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                  bool count_include_pad) {
  check_1d_input("avg_pool1d", input);
  check_1d_arg("avg_pool1d", "kernel_size", kernel_size);
  check_1d_arg("avg_pool1d", "stride", stride, /*may_be_empty=*/true);
  check_1d_arg("avg_pool1d", "padding", padding);
  const int64_t s = stride.empty() ? kernel_size[0] : stride[0];
  return avg_pool2d(input.unsqueeze(-2), {1, kernel_size[0]}, {1, s}, {0, padding[0]}, ceil_mode, count_include_pad)
      .squeeze(-2);
}

Tensor adaptive_avg_pool2d(const Tensor &input, IntArrayRef output_size) {
  check_adaptive_input("adaptive_avg_pool2d", input, output_size, -2);
  auto [x, batched] = batched_4d(input);
  return unbatch(run_pool(OpId::adaptive_avg_pool2d, x, output_size[0], output_size[1], OpCall{}, false).first, batched);
}

Tensor adaptive_avg_pool1d(const Tensor &input, IntArrayRef output_size) {
  check_1d_input("adaptive_avg_pool1d", input);
  check_1d_arg("adaptive_avg_pool1d", "output_size", output_size);
  return adaptive_avg_pool2d(input.unsqueeze(-2), {1, output_size[0]}).squeeze(-2);
}

std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor &input, IntArrayRef output_size) {
  check_adaptive_input("adaptive_max_pool2d", input, output_size, 1);
  auto [x, batched] = batched_4d(input);
  auto [out, idx] = run_pool(OpId::adaptive_max_pool2d, x, output_size[0], output_size[1], OpCall{}, true);
  return {unbatch(out, batched), unbatch(idx, batched)};
}

std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor &input, IntArrayRef output_size) {
  check_1d_input("adaptive_max_pool1d", input);
  check_1d_arg("adaptive_max_pool1d", "output_size", output_size);
  auto [out, idx] = adaptive_max_pool2d(input.unsqueeze(-2), {1, output_size[0]});
  return {out.squeeze(-2), idx.squeeze(-2)};
}

} // namespace gfy
