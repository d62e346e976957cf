// The backend-consistency suite (STYLE.md §8, ggml's test-backend-ops): every op of ops.def runs on
// every backend, on the same inputs, for every dtype the op supports, and the results must agree
// with the CPU reference. A case builds its inputs on the CPU from a fixed seed and places them
// with `on(...)`, so every run sees identical data:
//   - a device backend (CUDA): `on` moves the input to the device. Where that backend is not
//     registered (a build without it, or no device) its tests skip with "no CUDA device".
//   - the CPU backend: `on` makes a strided copy (padded first dim, not contiguous), so each CPU
//     kernel's general strided path is checked against its contiguous path on every machine.
// Random ops cannot match the CPU's generator bit for bit; they have their own rows, checked for
// range and moments on every backend. OpTable.EveryOpHasARow walks ops.def: adding a row there
// without a row here fails.
#include "TestUtil.h"

#include "core/ElementMath.h"

#include <graphify/core/Backend.h>

#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <set>

using namespace gfy;

namespace {

using Place = std::function<Tensor(const Tensor &)>;
using CaseFn = std::function<std::vector<Tensor>(ScalarType, const Place &)>;

const std::vector<ScalarType> kAll = {kBool, kByte, kChar, kShort, kInt, kLong, kFloat, kDouble};
const std::vector<ScalarType> kNum = {kByte, kChar, kShort, kInt, kLong, kFloat, kDouble};
const std::vector<ScalarType> kFlt = {kFloat, kDouble};
const std::vector<ScalarType> kIntegral = {kBool, kByte, kChar, kShort, kInt, kLong};

/// Deterministic CPU sample of `dt`: N(0,1) floats, integers in [-5, 5] ([0, 10] for uint8),
/// random bools.
Tensor sample(IntArrayRef shape, ScalarType dt) {
  if (dt == kBool) return randint(0, 2, shape, kLong) > 0;
  if (isFloatingType(dt)) return randn(shape, dtype(dt));
  if (dt == kByte) return randint(0, 11, shape, dtype(dt));
  return randint(-5, 6, shape, dtype(dt));
}
/// A sample with a NaN in it for floating dtypes (NaN rules must match too).
Tensor sample_nan(IntArrayRef shape, ScalarType dt) {
  Tensor x = sample(shape, dt);
  if (isFloatingType(dt)) x.index_put_({0}, std::numeric_limits<double>::quiet_NaN());
  return x;
}

struct OpCase {
  std::vector<OpId> ops; ///< the ops.def entries this case exercises
  std::string name;
  std::vector<ScalarType> dtypes;
  CaseFn run;
  double tol = 1e-5;
};

std::vector<OpCase> make_cases() {
  std::vector<OpCase> c;
  auto add_case = [&](std::vector<OpId> ops, std::string name, std::vector<ScalarType> dts, CaseFn fn, double tol = 1e-5) {
    c.push_back(OpCase{std::move(ops), std::move(name), std::move(dts), std::move(fn), tol});
  };
  // --- creation and copies
  add_case({OpId::copy}, "copy_convert", kAll, [](ScalarType dt, const Place &on) {
    Tensor x = on(sample({3, 4}, dt));
    return std::vector<Tensor>{x.to(kBool), x.to(kByte), x.to(kChar), x.to(kShort), x.to(kInt), x.to(kLong), x.to(kFloat), x.to(kDouble), x.t().contiguous(),
                               x.slice(1, 0, 4, 2).contiguous(), x.unsqueeze(0).expand({2, 3, 4}).contiguous()};
  });
  add_case({OpId::fill}, "fill", kAll, [](ScalarType dt, const Place &on) {
    Tensor z = on(zeros({4, 5}, dtype(dt)));
    z.slice(1, 1, 5, 2).fill_(dt == kBool ? Scalar(true) : Scalar(3));
    Tensor big = on(zeros({2}, dtype(dt)));
    if (dt == kLong) big.fill_(int64_t(1) << 60); // exact beyond 2^53
    return std::vector<Tensor>{z, big, full({3}, 2.5, TensorOptions().dtype(dt).device(z.device()))};
  });
  add_case({OpId::arange}, "arange", kNum, [](ScalarType dt, const Place &on) {
    const Device d = on(zeros({1})).device();
    return std::vector<Tensor>{arange(0, 10, TensorOptions().dtype(dt).device(d)),
                               arange(-3, 7, 2, TensorOptions().dtype(dt).device(d))};
  });
  // --- binary elementwise (with broadcasting and a transposed operand)
  auto binary = [&](OpId op, const char *name, std::vector<ScalarType> dts, std::function<Tensor(Tensor, Tensor)> f) {
    add_case({op}, name, dts, [f](ScalarType dt, const Place &on) {
      Tensor a = on(sample_nan({3, 1, 4}, dt)), b = on(sample({5, 4}, dt)), t = on(sample({4, 5}, dt)).t();
      return std::vector<Tensor>{f(a, b), f(b, t)};
    });
  };
  binary(OpId::add, "add", kAll, [](Tensor a, Tensor b) { return a.scalar_type() == kBool ? a + b : add(a, b, 2); });
  binary(OpId::sub, "sub", kNum, [](Tensor a, Tensor b) { return sub(a, b, 3); });
  binary(OpId::mul, "mul", kAll, [](Tensor a, Tensor b) { return a * b; });
  binary(OpId::div, "div", kFlt, [](Tensor a, Tensor b) { return a / b; });
  binary(OpId::eq, "eq", kAll, [](Tensor a, Tensor b) { return eq(a, b); });
  binary(OpId::ne, "ne", kAll, [](Tensor a, Tensor b) { return ne(a, b); });
  binary(OpId::lt, "lt", kAll, [](Tensor a, Tensor b) { return lt(a, b); });
  binary(OpId::le, "le", kAll, [](Tensor a, Tensor b) { return le(a, b); });
  binary(OpId::gt, "gt", kAll, [](Tensor a, Tensor b) { return gt(a, b); });
  binary(OpId::ge, "ge", kAll, [](Tensor a, Tensor b) { return ge(a, b); });
  binary(OpId::logical_and, "logical_and", kAll, [](Tensor a, Tensor b) { return logical_and(a, b); });
  binary(OpId::logical_or, "logical_or", kAll, [](Tensor a, Tensor b) { return logical_or(a, b); });
  binary(OpId::bitwise_and, "bitwise_and", kIntegral, [](Tensor a, Tensor b) { return bitwise_and(a, b); });
  binary(OpId::bitwise_or, "bitwise_or", kIntegral, [](Tensor a, Tensor b) { return bitwise_or(a, b); });
  binary(OpId::bitwise_xor, "bitwise_xor", kIntegral, [](Tensor a, Tensor b) { return a ^ b; });
  binary(OpId::maximum, "maximum", kAll, [](Tensor a, Tensor b) { return maximum(a, b); });
  binary(OpId::minimum, "minimum", kAll, [](Tensor a, Tensor b) { return minimum(a, b); });
  // Integer divisors without zeros (a zero is a reported error, checked on its own below).
  add_case({OpId::fmod, OpId::remainder, OpId::floor_divide}, "fmod_remainder_floor_divide", kNum,
           [](ScalarType dt, const Place &on) {
             Tensor d = sample({4, 5}, dt);
             Tensor a = on(sample_nan({3, 1, 5}, dt) * 3), b = on(where(d == 0, full_like(d, 2), d));
             Tensor bt = b.t().contiguous().t();
             return std::vector<Tensor>{fmod(a, b),         remainder(a, b), floor_divide(a, b),
                                        fmod(a, bt),        remainder(a, -2), floor_divide(a, 3),
                                        remainder(b.t(), b.t().contiguous())};
           });
  add_case({OpId::pow}, "pow", kNum, [](ScalarType dt, const Place &on) {
    if (isFloatingType(dt)) {
      Tensor a = on(sample({4, 5}, dt).abs() + 0.5), b = on(sample({4, 5}, dt));
      return std::vector<Tensor>{pow(a, b), pow(a, 2)};
    }
    Tensor a = on(sample({4, 5}, dt)), b = on(randint(0, 5, {4, 5}, dtype(dt)));
    return std::vector<Tensor>{pow(a, b)};
  });
  // --- unary
  auto unary = [&](OpId op, const char *name, std::vector<ScalarType> dts, std::function<Tensor(Tensor)> f,
                   double tol = 1e-5) {
    add_case({op}, name, dts, [f](ScalarType dt, const Place &on) {
      Tensor a = on(sample_nan({6, 7}, dt));
      return std::vector<Tensor>{f(a), f(a.t())};
    }, tol);
  };
  unary(OpId::neg, "neg", kNum, [](Tensor a) { return neg(a); });
  unary(OpId::abs, "abs", kNum, [](Tensor a) { return abs(a); });
  unary(OpId::exp, "exp", kFlt, [](Tensor a) { return exp(a); }, 1e-5);
  unary(OpId::log, "log", kFlt, [](Tensor a) { return log(abs(a) + 0.1); });
  unary(OpId::sqrt, "sqrt", kFlt, [](Tensor a) { return sqrt(abs(a)); });
  unary(OpId::rsqrt, "rsqrt", kFlt, [](Tensor a) { return rsqrt(abs(a) + 0.1); });
  unary(OpId::relu, "relu", kNum, [](Tensor a) { return relu(a); });
  unary(OpId::gelu, "gelu", kFlt, [](Tensor a) { return gelu(a) + gelu(a, "tanh"); }, 1e-5);
  unary(OpId::sigmoid, "sigmoid", kFlt, [](Tensor a) { return sigmoid(a); }, 1e-5);
  unary(OpId::tanh, "tanh", kFlt, [](Tensor a) { return tanh(a); }, 1e-5);
  unary(OpId::logical_not, "logical_not", kAll, [](Tensor a) { return logical_not(a); });
  unary(OpId::bitwise_not, "bitwise_not", kIntegral, [](Tensor a) { return bitwise_not(a); });
  unary(OpId::clamp, "clamp", kNum, [](Tensor a) { return clamp(a, -1, 2) + clamp_min(a, 0) + clamp_max(a, 1); });
  // --- maps (ops.def's GFY_MAP_OP rows): inputs drawn from the per-element function's sample
  // range (core/ElementMath.h), and the raw samples with a NaN, which reach outside the domain
  // (there every backend must give the same NaN or infinity), transposed and broadcast.
  auto dtypes_of = [](OpId op) {
    std::vector<ScalarType> dts;
    for (ScalarType dt : kAll)
      if (op_table_dtypes(op, dt)) dts.push_back(dt);
    return dts;
  };
  auto in_range = [](IntArrayRef shape, ScalarType dt, double lo, double hi) {
    return isFloatingType(dt) ? rand(shape, dtype(dt)) * (hi - lo) + lo : sample(shape, dt);
  };
  auto map_unary = [&](OpId op, const char *name, double lo, double hi, Tensor (*f)(const Tensor &)) {
    add_case({op}, name, dtypes_of(op), [=](ScalarType dt, const Place &on) {
      Tensor in = on(in_range({6, 7}, dt, lo, hi)), raw = on(sample_nan({6, 7}, dt));
      std::vector<Tensor> outs{f(in), f(raw), f(raw.t())};
      if (isFloatingType(dt)) { // IEEE's special values: signed zeros and infinities, NaN, a subnormal
        const double inf = std::numeric_limits<double>::infinity();
        outs.push_back(f(on(tensor({-0.0, 0.0, inf, -inf, std::nan(""), -std::nan(""), 1e-310}, dtype(dt)))));
      }
      return outs;
    });
  };
  auto map_binary = [&](OpId op, const char *name, double lo, double hi, Tensor (*f)(const Tensor &, const Tensor &)) {
    add_case({op}, name, dtypes_of(op), [=](ScalarType dt, const Place &on) {
      Tensor a = on(in_range({3, 1, 4}, dt, lo, hi)), b = on(in_range({5, 4}, dt, lo, hi));
      Tensor raw = on(sample_nan({3, 1, 4}, dt)), t = on(sample({4, 5}, dt)).t();
      return std::vector<Tensor>{f(a, b), f(raw, b), f(b, t)};
    });
  };
#define GFY_TEST_MAP_unary(name) [](const Tensor &a) { return gfy::name(a); }
#define GFY_TEST_MAP_binary(name) [](const Tensor &a, const Tensor &b) { return gfy::name(a, b); }
#define GFY_OP(name, kind, dtypes, traits)
#define GFY_MAP_OP(name, kind, dtypes, promotion, traits)                                          \
  map_##kind(OpId::name, #name, elem::name::sample_lo, elem::name::sample_hi, GFY_TEST_MAP_##kind(name));
#include <graphify/ops.def>
#undef GFY_MAP_OP
#undef GFY_OP
#undef GFY_TEST_MAP_binary
#undef GFY_TEST_MAP_unary
  // --- ternary
  add_case({OpId::where}, "where", kAll, [](ScalarType dt, const Place &on) {
    Tensor m = on(sample({3, 4}, kBool)), a = on(sample({3, 4}, dt)), b = on(sample({4}, dt));
    return std::vector<Tensor>{where(m, a, b), where(m.t().contiguous().t(), a, b)};
  });
  add_case({OpId::masked_fill}, "masked_fill", kAll, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({3, 4}, dt)), m = on(sample({4}, kBool));
    return std::vector<Tensor>{masked_fill(a, m, dt == kBool ? Scalar(true) : Scalar(7)), masked_fill(a.t(), m.unsqueeze(1).expand({4, 3}), 0)};
  });
  add_case({OpId::lerp}, "lerp", kFlt, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample_nan({3, 1, 4}, dt)), b = on(sample({5, 4}, dt)), w = on(sample({4}, dt));
    return std::vector<Tensor>{lerp(a, b, 0.3), lerp(a, b, 0.8), lerp(a, b, w), lerp(b, b.t().contiguous().t(), w)};
  });
  // --- reductions (full, one dim, several dims, keepdim, long lanes that take the block path)
  auto reduction = [&](OpId op, const char *name, std::vector<ScalarType> dts, std::function<Tensor(Tensor, int)> f) {
    add_case({op}, name, dts, [f](ScalarType dt, const Place &on) {
      Tensor a = on(sample({4, 5, 6}, dt)), big = on(sample({3, 1000}, dt));
      return std::vector<Tensor>{f(a, 0), f(a, 1), f(a, 2), f(a.transpose(0, 2), 1), f(big, 3), f(big, 1)};
    }, 1e-5);
  };
  reduction(OpId::sum, "sum", kNum, [](Tensor a, int m) {
    return m == 0 ? sum(a) : m == 1 ? sum(a, {1}) : m == 2 ? sum(a, {0, 2}, true) : sum(a, {1});
  });
  reduction(OpId::prod, "prod", kNum, [](Tensor a, int m) {
    Tensor s = a.is_floating_point() ? a * 0.01 + 1 : clamp(a, -1, 1);
    return m == 0 ? prod(s) : prod(s, m == 3 ? 1 : m % 2, m == 2);
  });
  reduction(OpId::mean, "mean", kFlt, [](Tensor a, int m) { return m == 0 ? mean(a) : mean(a, {m == 3 ? 1 : m % 2}, m == 2); });
  reduction(OpId::amax, "amax", kAll, [](Tensor a, int m) { return m == 0 ? amax(a) : amax(a, {m == 3 ? 1 : m % 2}, m == 2); });
  reduction(OpId::amin, "amin", kAll, [](Tensor a, int m) { return m == 0 ? amin(a) : amin(a, {m == 3 ? 1 : m % 2}, m == 2); });
  // Identities at each integer width: every element below zero (amax) or far above the samples
  // (amin); a sentinel of the wrong width (INT64_MIN as int8 is 0) shows here.
  add_case({OpId::amax, OpId::amin}, "amax_amin_identities", kNum, [](ScalarType dt, const Place &on) {
    Tensor low = on(full({3, 40}, dt == kByte ? 7 : -5, dtype(dt))), high = on(full({3, 40}, 100, dtype(dt)));
    return std::vector<Tensor>{amax(low), amax(low, {1}), amax(low.t(), {0}, true), amin(high), amin(high, {0})};
  });
  reduction(OpId::any, "any", kAll, [](Tensor a, int m) { return m == 0 ? any(a) : any(a > 0, m == 3 ? 1 : m % 2, m == 2); });
  reduction(OpId::all, "all", kAll, [](Tensor a, int m) { return m == 0 ? all(a) : all(a >= 0, m == 3 ? 1 : m % 2, m == 2); });
  add_case({OpId::max_dim, OpId::min_dim}, "max_min_dim", kAll, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample_nan({4, 5, 6}, dt)), big = on(sample({3, 1000}, dt)), ties = on(zeros({2, 300}, dtype(dt)));
    std::vector<Tensor> out;
    for (const Tensor &t : {a, big, ties}) {
      auto [mx, ix] = max(t, 1);
      auto [mn, in] = min(t, -1, true);
      out.insert(out.end(), {mx, ix, mn, in, argmax(t)});
    }
    return out;
  });
  add_case({OpId::cumsum}, "cumsum", kNum, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({4, 5, 6}, dt));
    return std::vector<Tensor>{cumsum(a, 0), cumsum(a, 1), cumsum(a, 2), cumsum(a.transpose(0, 2), 1)};
  });
  add_case({OpId::cumprod}, "cumprod", kNum, [](ScalarType dt, const Place &on) {
    Tensor s = sample({4, 5, 6}, dt);
    Tensor a = on(isFloatingType(dt) ? s * 0.1 + 1 : clamp(s, -2, 2)); // products stay in range
    return std::vector<Tensor>{cumprod(a, 0), cumprod(a, 1), cumprod(a, 2), cumprod(a.transpose(0, 2), 1)};
  });
  // --- linear algebra: mm, addmm (bias broadcast), bmm, transposed operands (linear's w.t())
  add_case({OpId::mm}, "mm", kNum, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({7, 5}, dt)), b = on(sample({5, 3}, dt)), w = on(sample({3, 5}, dt)), bias = on(sample({3}, dt));
    Tensor x = on(sample({4, 7, 5}, dt)), y = on(sample({4, 5, 6}, dt));
    return std::vector<Tensor>{mm(a, b), mm(a, w.t()), addmm(bias, a, b, 2, 3), mm(a.t().contiguous().t(), b), bmm(x, y),
                               bmm(x, y.transpose(1, 2).contiguous().transpose(1, 2)), matmul(a, b)};
  }, 1e-5);
  // --- indexing
  add_case({OpId::index}, "index", kAll, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({5, 6, 7}, dt));
    Tensor i = on(tensor(std::vector<int64_t>{4, 0, -1, 2})), j = on(tensor(std::vector<int64_t>{1, 5, 0, 3}));
    using namespace indexing;
    return std::vector<Tensor>{a.index({i}), a.index({Slice(), i.slice(0, 0, 3)}), a.index({i, j}), a.index({i, Slice(), j}),
                               index_select(a, 2, j), embedding(a.select(2, 0), abs(i))};
  });
  add_case({OpId::index_put}, "index_put", kAll, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({5, 6}, dt)), v = on(sample({3, 6}, dt)), w = on(sample({3}, dt));
    Tensor i = on(tensor(std::vector<int64_t>{4, 0, -2})), j = on(tensor(std::vector<int64_t>{1, 5, 2}));
    Tensor b = a.clone(), c2 = a.clone();
    b.index_put_({i}, v);
    c2.index_put_({i, j}, w);
    // index_copy / index_fill: puts of one index on a dim (index_copy takes indices in [0, size)).
    Tensor k = on(tensor(std::vector<int64_t>{4, 0, 3}));
    return std::vector<Tensor>{b, c2, a.index_copy(0, k, v), a.t().index_copy(1, k, v.t()), a.index_fill(1, j, 1),
                               a.index_fill(0, i, on(sample({}, dt)))};
  });
  add_case({OpId::gather, OpId::scatter}, "gather_scatter", kAll, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({4, 6}, dt)), src = on(sample({4, 3}, dt));
    Tensor idx = on(tensor(std::vector<int64_t>{0, 5, 2, 1, 1, 3, 4, 0, 2, 5, 5, 0}).view({4, 3}));
    // Every column a permutation of 0..3: scatter along dim 0 without duplicate targets.
    Tensor perm = on(tensor(std::vector<int64_t>{0, 3, 1, 1, 2, 3, 2, 1, 0, 3, 0, 2}).view({4, 3}));
    return std::vector<Tensor>{gather(a, 1, idx), gather(a.t(), 0, idx.t()), scatter(a, 1, idx.slice(1, 0, 1), src.slice(1, 0, 1)),
                               scatter(a.slice(1, 0, 3), 0, perm, src), scatter(a, 1, idx, 1)};
  });
  add_case({OpId::nonzero}, "nonzero", kAll, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({5, 6}, dt));
    return std::vector<Tensor>{nonzero(a), nonzero(a.t()), nonzero(on(zeros({3}, dtype(dt))))};
  });
  add_case({OpId::unique_consecutive}, "unique_consecutive", kAll, [](ScalarType dt, const Place &on) {
    Tensor a = on(tensor(std::vector<int64_t>{1, 1, 0, 0, 0, 2, 1, 1, 3}).to(dt));
    auto [v, inv, cnt] = unique_consecutive(a, true, true);
    return std::vector<Tensor>{v, inv, cnt};
  });
  add_case({OpId::sort, OpId::topk}, "sort_topk", kAll, [](ScalarType dt, const Place &on) {
    // Many ties (small integers) make stability visible; 1500 elements take the global path.
    Tensor a = on(sample_nan({4, 9}, dt)), big = on(randint(0, 7, {2, 1500}, dtype(kLong)).to(dt));
    std::vector<Tensor> out;
    for (const Tensor &t : {a, big, a.t()}) {
      auto [v, i] = sort(t, true, -1, false);
      auto [vd, id] = sort(t, true, 0, true);
      auto [tv, ti] = topk(t, 2, -1, true, true);
      auto [bv, bi] = topk(t, 1, 0, false, true);
      out.insert(out.end(), {v, i, vd, id, tv, ti, bv, bi, argsort(t, true, -1)});
      if (dt != kBool) { // median: the lower middle of a stable sort (bool has no median kernel in LibTorch)
        auto [mv, mi] = median(t, -1);
        out.insert(out.end(), {mv, mi, median(t)});
      }
    }
    return out;
  });
  // --- neural-network kernels
  add_case({OpId::softmax, OpId::log_softmax}, "softmax", kFlt, [](ScalarType dt, const Place &on) {
    Tensor a = on(sample({4, 5, 6}, dt) * 3), big = on(sample({3, 10001}, dt) * 3);
    return std::vector<Tensor>{softmax(a, -1), softmax(a, 1), log_softmax(a, 0), log_softmax(big, 1), softmax(big, 1)};
  }, 1e-5);
  add_case({OpId::layer_norm}, "layer_norm", kFlt, [](ScalarType dt, const Place &on) {
    Tensor x = on(sample({6, 256}, dt) * 2 + 1), w = on(sample({256}, dt)), b = on(sample({256}, dt));
    return std::vector<Tensor>{layer_norm(x, {256}, w, b), layer_norm(x, {256}), layer_norm(x.view({6, 16, 16}), {16, 16})};
  }, 1e-4);
  add_case({OpId::batch_norm}, "batch_norm", kFlt, [](ScalarType dt, const Place &on) {
    Tensor x = on(sample({4, 3, 5, 6}, dt) * 2 + 1), w = on(sample({3}, dt)), b = on(sample({3}, dt));
    Tensor mean = on(sample({3}, dt)), var = on(sample({3}, dt).abs() + 0.5);
    Tensor rm = on(zeros({3}, dtype(dt))), rv = on(ones({3}, dtype(dt)));
    Tensor train = batch_norm(x, w, b, rm, rv, /*training=*/true, 0.1, 1e-5, true);
    return std::vector<Tensor>{batch_norm(x, w, b, mean, var, false, 0.1, 1e-5, true),
                               batch_norm(x.view({4, 3, 30}), {}, {}, mean, var, false, 0.1, 1e-3, true), train, rm, rv};
  }, 1e-4);
  // --- image kernels (strides, padding, dilation, groups, unbatched and 1-d forms)
  add_case({OpId::conv2d}, "conv2d", kNum, [](ScalarType dt, const Place &on) {
    Tensor x = on(sample({2, 4, 9, 8}, dt)), w = on(sample({6, 4, 3, 3}, dt)), b = on(sample({6}, dt));
    Tensor wg = on(sample({6, 2, 3, 2}, dt)), w1 = on(sample({5, 4, 1, 1}, dt)), x1 = on(sample({2, 4, 11}, dt));
    Tensor k1 = on(sample({3, 4, 3}, dt));
    return std::vector<Tensor>{conv2d(x, w, b),
                               conv2d(x, w, {}, {2, 1}, {1, 2}, {1, 2}),
                               conv2d(x, wg, b, 1, 1, 1, /*groups=*/2),
                               conv2d(x, w1),
                               conv2d(x[0], w, b, 1, "same"),
                               conv1d(x1, k1, {}, 2, 1, 2)};
  }, 1e-4);
  add_case({OpId::max_pool2d}, "max_pool2d", kFlt, [](ScalarType dt, const Place &on) {
    Tensor x = on(sample_nan({2, 3, 9, 8}, dt));
    auto [v, i] = max_pool2d_with_indices(x, {3, 2}, {2, 2}, {1, 1}, {1, 2}, /*ceil_mode=*/true);
    return std::vector<Tensor>{max_pool2d(x, 2), v, i, max_pool1d(x[0], 3, 2, 1)};
  });
  add_case({OpId::avg_pool2d}, "avg_pool2d", kFlt, [](ScalarType dt, const Place &on) {
    Tensor x = on(sample({2, 3, 9, 8}, dt));
    return std::vector<Tensor>{avg_pool2d(x, 2), avg_pool2d(x, 3, 2, 1, true, false), avg_pool2d(x, {3, 2}, 1, 1, false, true, 5),
                               avg_pool1d(x[1], 3, 2, 1)};
  });
  add_case({OpId::adaptive_avg_pool2d, OpId::adaptive_max_pool2d}, "adaptive_pool2d", kFlt,
           [](ScalarType dt, const Place &on) {
             Tensor x = on(sample_nan({2, 3, 9, 7}, dt)), y = on(sample({2, 3, 9, 7}, dt));
             auto [v, i] = adaptive_max_pool2d(x, {4, 3});
             return std::vector<Tensor>{adaptive_avg_pool2d(y, {4, 3}), adaptive_avg_pool2d(y, {1, 1}), v, i,
                                        std::get<0>(adaptive_max_pool1d(x[0], 5))};
           });
  add_case({OpId::upsample_nearest2d, OpId::upsample_bilinear2d}, "upsample2d", kFlt, [](ScalarType dt, const Place &on) {
    Tensor x = on(sample({2, 3, 5, 4}, dt));
    return std::vector<Tensor>{upsample_nearest2d(x, {10, 8}), upsample_nearest2d(x, {7, 6}, 1.5, 1.5),
                               upsample_nearest2d(x, {3, 3}), upsample_bilinear2d(x, {9, 7}, false),
                               upsample_bilinear2d(x, {9, 7}, true), upsample_bilinear2d(x, {7, 6}, false, 1.5, 1.5),
                               upsample_bilinear2d(x, {2, 3}, false), upsample_nearest1d(x[0], {9}),
                               upsample_nearest1d(x[1], {7}, 1.5)};
  });
  return c;
}

const std::vector<OpCase> &cases() {
  static const std::vector<OpCase> c = make_cases();
  return c;
}

/// Rows of the random ops: draws on the device given by `o` and checks the sample.
struct RandomCase {
  OpId op;
  std::string name;
  std::function<void(const TensorOptions &o)> check;
};

const std::vector<RandomCase> &random_cases() {
  static const std::vector<RandomCase> c = {
      {OpId::uniform, "uniform",
       [](const TensorOptions &o) {
         Tensor u = rand({100000}, o);
         EXPECT_GE(amin(u).item<double>(), 0.0);
         EXPECT_LT(amax(u).item<double>(), 1.0);
         EXPECT_NEAR(mean(u).item<double>(), 0.5, 0.01);
       }},
      {OpId::normal, "normal",
       [](const TensorOptions &o) {
         Tensor n = randn({100001}, o.dtype(kDouble));
         EXPECT_NEAR(mean(n).item<double>(), 0.0, 0.02);
         EXPECT_NEAR(mean(n * n).item<double>(), 1.0, 0.02);
       }},
      {OpId::randint, "randint",
       [](const TensorOptions &o) {
         Tensor r = randint(-3, 4, {100000}, o.dtype(kInt));
         EXPECT_EQ(amin(r).item<int64_t>(), -3);
         EXPECT_EQ(amax(r).item<int64_t>(), 3);
       }},
  };
  return c;
}

/// "cpu" / "cuda": the device type's spelling, as in test names.
std::string device_name(DeviceType t) { return Device(t).str(); }

/// `t`'s values in a CPU tensor whose first dim has twice the contiguous stride; the padding
/// holds a value no case produces, so a kernel that reads it gives a different result.
Tensor strided_copy(const Tensor &t) {
  if (t.dim() == 0) return t.clone();
  std::vector<int64_t> padded = t.sizes().vec();
  padded[0] *= 2;
  Tensor buffer = full(padded, t.scalar_type() == kBool ? Scalar(true) : Scalar(77), t.options());
  Tensor view = buffer.slice(0, 0, padded[0], 2);
  view.copy_(t);
  return view;
}

/// How a case places its inputs for `device`: see the file comment.
Place placement(DeviceType device) {
  if (device == kCPU) return strided_copy;
  return [device](const Tensor &t) { return t.to(device); };
}

/// EXPECTs that `got` (the backend's result) equals `ref` (the CPU reference on contiguous
/// inputs) within `tol` (relative to the magnitude, absolute near zero); integer and bool results
/// must match exactly (tol 0), NaN matches NaN and an infinity the same infinity.
void expect_same(const Tensor &ref, const Tensor &got, DeviceType device, double tol, const std::string &what) {
  ASSERT_TRUE(ref.defined() && got.defined()) << what;
  EXPECT_EQ(got.device().type(), device) << what << ": result is on " << got.device().str();
  ASSERT_EQ(ref.sizes().vec(), got.sizes().vec()) << what;
  ASSERT_EQ(ref.scalar_type(), got.scalar_type()) << what;
  const std::vector<double> a = gfy::testing::values(ref.cpu()), b = gfy::testing::values(got.cpu());
  const bool exact = !isFloatingType(ref.scalar_type());
  int reported = 0;
  for (size_t i = 0; i < a.size() && reported < 5; ++i) {
    const bool both_nan = std::isnan(a[i]) && std::isnan(b[i]);
    // Equal values first: infinities of the same sign are equal, their difference is NaN.
    const bool ok = both_nan || a[i] == b[i] || (!exact && std::fabs(a[i] - b[i]) <= tol * (1.0 + std::fabs(a[i])));
    if (!ok) {
      ADD_FAILURE() << what << ": element " << i << " is " << b[i] << " on " << device_name(device) << ", " << a[i]
                    << " on the CPU reference";
      ++reported;
    }
  }
}

/// Every device type; the tests of one whose backend is not registered skip.
std::vector<DeviceType> device_types() {
  std::vector<DeviceType> out;
  for (int t = 0; t < kNumDeviceTypes; ++t) out.push_back(DeviceType(t));
  return out;
}

#define GFY_REQUIRE_BACKEND(device)                                                                \
  do {                                                                                             \
    if (!has_backend(device)) {                                                                    \
      std::string upper = device_name(device);                                                     \
      for (char &ch : upper) ch = char(std::toupper(static_cast<unsigned char>(ch)));             \
      GTEST_SKIP() << "no " << upper << " device";                                                 \
    }                                                                                              \
  } while (0)

// --- the consistency table, on every backend ------------------------------------------------------

struct Param {
  DeviceType device;
  size_t index;
  ScalarType dtype;
};
std::vector<Param> params() {
  std::vector<Param> out;
  for (DeviceType d : device_types())
    for (size_t i = 0; i < cases().size(); ++i)
      for (ScalarType dt : cases()[i].dtypes) out.push_back({d, i, dt});
  return out;
}

// Names the case in ctest's listing instead of dumping the struct's bytes.
void PrintTo(const Param &p, std::ostream *os) {
  *os << cases()[p.index].name << " on " << device_name(p.device) << " for " << to_string(p.dtype);
}

class BackendOps : public ::testing::TestWithParam<Param> {};

TEST_P(BackendOps, MatchesCpuReference) {
  const DeviceType device = GetParam().device;
  GFY_REQUIRE_BACKEND(device);
  const OpCase &c = cases()[GetParam().index];
  const ScalarType dt = GetParam().dtype;
  manual_seed(1234);
  const std::vector<Tensor> ref = c.run(dt, [](const Tensor &t) { return t; });
  manual_seed(1234);
  const std::vector<Tensor> got = c.run(dt, placement(device));
  ASSERT_EQ(ref.size(), got.size());
  const double tol = dt == kFloat ? c.tol : dt == kDouble ? 1e-10 : 0;
  for (size_t i = 0; i < ref.size(); ++i) expect_same(ref[i], got[i], device, tol, c.name + " result " + std::to_string(i));
}

INSTANTIATE_TEST_SUITE_P(OpTable, BackendOps, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param> &info) {
                           return device_name(info.param.device) + "_" + cases()[info.param.index].name + "_" +
                                  to_string(info.param.dtype);
                         });

// --- random ops, on every backend -------------------------------------------------------------------

struct RandomParam {
  DeviceType device;
  size_t index;
};
std::vector<RandomParam> random_params() {
  std::vector<RandomParam> out;
  for (DeviceType d : device_types())
    for (size_t i = 0; i < random_cases().size(); ++i) out.push_back({d, i});
  return out;
}
void PrintTo(const RandomParam &p, std::ostream *os) {
  *os << random_cases()[p.index].name << " on " << device_name(p.device);
}

class BackendRandomOps : public ::testing::TestWithParam<RandomParam> {};

TEST_P(BackendRandomOps, RangeAndMoments) {
  const DeviceType device = GetParam().device;
  GFY_REQUIRE_BACKEND(device);
  manual_seed(7);
  random_cases()[GetParam().index].check(TensorOptions().device(device));
}

INSTANTIATE_TEST_SUITE_P(OpTable, BackendRandomOps, ::testing::ValuesIn(random_params()),
                         [](const ::testing::TestParamInfo<RandomParam> &info) {
                           return device_name(info.param.device) + "_" + random_cases()[info.param.index].name;
                         });

// --- every backend implements the whole table -------------------------------------------------------

class BackendTable : public ::testing::TestWithParam<DeviceType> {};

TEST_P(BackendTable, SupportsWhatTheCpuReferenceSupports) {
  const DeviceType device = GetParam();
  GFY_REQUIRE_BACKEND(device);
  Backend &cpu = backend_for(kCPU), &be = backend_for(device);
  for (int i = 0; i < kNumOps; ++i)
    for (ScalarType dt : kAll)
      EXPECT_EQ(cpu.supports(OpId(i), dt), be.supports(OpId(i), dt)) << op_name(OpId(i)) << " " << to_string(dt);
}

INSTANTIATE_TEST_SUITE_P(OpTable, BackendTable, ::testing::ValuesIn(device_types()),
                         [](const ::testing::TestParamInfo<DeviceType> &info) { return device_name(info.param); });

// --- the table covers ops.def ------------------------------------------------------------------------

/// Every row of ops.def, walked through the X-macro itself.
const std::vector<OpId> kOpsDef = {
#define GFY_OP(name, kind, dtypes, traits) OpId::name,
#include <graphify/ops.def>
#undef GFY_OP
};

TEST(OpTable, EveryOpHasARow) {
  ASSERT_EQ(kOpsDef.size(), size_t(kNumOps));
  std::set<OpId> covered;
  for (const OpCase &c : cases()) covered.insert(c.ops.begin(), c.ops.end());
  for (const RandomCase &c : random_cases()) covered.insert(c.op);
  for (OpId op : kOpsDef)
    EXPECT_TRUE(covered.count(op)) << "ops.def op '" << op_name(op) << "' has no row in the backend-consistency table";
}

// Each dtype an op supports is compared on every backend, and no row runs an op on a dtype the
// op does not support (random ops draw one dtype each: their rows check the generator).
TEST(OpTable, EveryRowRunsEveryDtypeOfItsOps) {
  std::set<std::pair<OpId, ScalarType>> covered;
  for (const OpCase &c : cases())
    for (OpId op : c.ops)
      for (ScalarType dt : c.dtypes) {
        EXPECT_TRUE(op_table_dtypes(op, dt)) << c.name << " runs " << op_name(op) << " on " << to_string(dt)
                                             << ", which ops.def does not list";
        covered.insert({op, dt});
      }
  for (OpId op : kOpsDef) {
    if (op_kind(op) == OpKind::random) continue;
    for (ScalarType dt : kAll) {
      if (op_table_dtypes(op, dt)) {
        EXPECT_TRUE(covered.count({op, dt})) << "no row runs " << op_name(op) << " on " << to_string(dt);
      }
    }
  }
}

} // namespace
