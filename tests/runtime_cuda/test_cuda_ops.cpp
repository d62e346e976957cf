// The backend-consistency suite (STYLE.md §8, ggml's test-backend-ops): every op of ops.def runs on
// the CUDA backend and on the CPU reference, on the same inputs, for every dtype the op supports,
// and the results must agree. A case builds its inputs on the CPU from a fixed seed and places
// them with `on(...)`, so the two runs see identical data. Random ops cannot match the CPU's
// generator bit for bit; they are checked for range, moments and reproducibility instead.
//
// OpTable.EveryOpHasACase runs without a GPU: adding an ops.def line without a case here fails.
#include "CudaTestUtil.h"

#include <graphify/core/Backend.h>

#include <functional>
#include <set>

using namespace gfy;
using gfy::cuda_testing::expect_same;

namespace {

using Place = std::function<Tensor(const Tensor &)>;
using CaseFn = std::function<std::vector<Tensor>(ScalarType, const Place &)>;

const std::vector<ScalarType> kAll = {kBool, kInt, kLong, kFloat, kDouble};
const std::vector<ScalarType> kNum = {kInt, kLong, kFloat, kDouble};
const std::vector<ScalarType> kFlt = {kFloat, kDouble};
const std::vector<ScalarType> kIntegral = {kBool, kInt, kLong};

/// Deterministic CPU sample of `dt`: N(0,1) floats, integers in [-5, 5], random bools.
Tensor sample(IntArrayRef shape, ScalarType dt) {
  if (dt == kBool) return randint(0, 2, shape, kLong) > 0;
  if (isFloatingType(dt)) return randn(shape, dtype(dt));
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
    return std::vector<Tensor>{x.to(kBool), x.to(kInt), x.to(kLong), x.to(kFloat), x.to(kDouble), x.t().contiguous(),
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
  binary(OpId::maximum, "maximum", kAll, [](Tensor a, Tensor b) { return maximum(a, b); });
  binary(OpId::minimum, "minimum", kAll, [](Tensor a, Tensor b) { return minimum(a, b); });
  binary(OpId::atan2, "atan2", kFlt, [](Tensor a, Tensor b) { return atan2(a, b); });
  binary(OpId::hypot, "hypot", kFlt, [](Tensor a, Tensor b) { return hypot(a, b); });
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
  unary(OpId::sin, "sin", kFlt, [](Tensor a) { return sin(a); });
  unary(OpId::cos, "cos", kFlt, [](Tensor a) { return cos(a); });
  unary(OpId::tan, "tan", kFlt, [](Tensor a) { return tan(a); });
  unary(OpId::asin, "asin", kFlt, [](Tensor a) { return asin(a); }); // NaN outside [-1, 1]
  unary(OpId::acos, "acos", kFlt, [](Tensor a) { return acos(a); });
  unary(OpId::atan, "atan", kFlt, [](Tensor a) { return atan(a); });
  unary(OpId::sinh, "sinh", kFlt, [](Tensor a) { return sinh(a); });
  unary(OpId::cosh, "cosh", kFlt, [](Tensor a) { return cosh(a); });
  unary(OpId::asinh, "asinh", kFlt, [](Tensor a) { return asinh(a); });
  unary(OpId::acosh, "acosh", kFlt, [](Tensor a) { return acosh(abs(a) + 1); });
  unary(OpId::atanh, "atanh", kFlt, [](Tensor a) { return atanh(a * 0.5); });
  unary(OpId::erf, "erf", kFlt, [](Tensor a) { return erf(a); });
  unary(OpId::erfc, "erfc", kFlt, [](Tensor a) { return erfc(a); });
  unary(OpId::log1p, "log1p", kFlt, [](Tensor a) { return log1p(a); });
  unary(OpId::expm1, "expm1", kFlt, [](Tensor a) { return expm1(a); });
  unary(OpId::log2, "log2", kFlt, [](Tensor a) { return log2(abs(a) + 0.1); });
  unary(OpId::log10, "log10", kFlt, [](Tensor a) { return log10(abs(a) + 0.1); });
  unary(OpId::exp2, "exp2", kFlt, [](Tensor a) { return exp2(a); });
  unary(OpId::logical_not, "logical_not", kAll, [](Tensor a) { return logical_not(a); });
  unary(OpId::bitwise_not, "bitwise_not", kIntegral, [](Tensor a) { return bitwise_not(a); });
  unary(OpId::isnan, "isnan", kAll, [](Tensor a) { return isnan(a); });
  unary(OpId::clamp, "clamp", kNum, [](Tensor a) { return clamp(a, -1, 2) + clamp_min(a, 0) + clamp_max(a, 1); });
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
    return std::vector<Tensor>{cumsum(a, 0), cumsum(a, 1), cumsum(a, 2), cumsum(a.t(), 1)};
  });
  add_case({OpId::cumprod}, "cumprod", kNum, [](ScalarType dt, const Place &on) {
    Tensor s = sample({4, 5, 6}, dt);
    Tensor a = on(isFloatingType(dt) ? s * 0.1 + 1 : clamp(s, -2, 2)); // products stay in range
    return std::vector<Tensor>{cumprod(a, 0), cumprod(a, 1), cumprod(a, 2), cumprod(a.t(), 1)};
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
    return std::vector<Tensor>{b, c2};
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
  return c;
}

const std::vector<OpCase> &cases() {
  static const std::vector<OpCase> c = make_cases();
  return c;
}

struct Param {
  size_t index;
  ScalarType dtype;
};
std::vector<Param> params() {
  std::vector<Param> out;
  for (size_t i = 0; i < cases().size(); ++i)
    for (ScalarType dt : cases()[i].dtypes) out.push_back({i, dt});
  return out;
}

// Names the case in ctest's listing instead of dumping the struct's bytes.
void PrintTo(const Param &p, std::ostream *os) { *os << cases()[p.index].name << " on " << to_string(p.dtype); }

class CudaOpConsistency : public ::testing::TestWithParam<Param> {};

TEST_P(CudaOpConsistency, MatchesCpuReference) {
  GFY_REQUIRE_CUDA();
  const OpCase &c = cases()[GetParam().index];
  const ScalarType dt = GetParam().dtype;
  manual_seed(1234);
  const std::vector<Tensor> ref = c.run(dt, [](const Tensor &t) { return t; });
  manual_seed(1234);
  const std::vector<Tensor> got = c.run(dt, [](const Tensor &t) { return t.to(kCUDA); });
  ASSERT_EQ(ref.size(), got.size());
  gfy::cuda::synchronize();
  const double tol = dt == kFloat ? c.tol : dt == kDouble ? 1e-10 : 0;
  for (size_t i = 0; i < ref.size(); ++i) expect_same(ref[i], got[i], tol, c.name + " result " + std::to_string(i));
}

INSTANTIATE_TEST_SUITE_P(OpTable, CudaOpConsistency, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param> &info) {
                           return cases()[info.param.index].name + "_" + to_string(info.param.dtype);
                         });

// Runs everywhere: the table above covers every ops.def line (random ops by the tests below).
TEST(OpTable, EveryOpHasACase) {
  std::set<int> covered = {int(OpId::uniform), int(OpId::normal), int(OpId::randint)};
  for (const OpCase &c : cases())
    for (OpId op : c.ops) covered.insert(int(op));
  for (int i = 0; i < kNumOps; ++i)
    EXPECT_TRUE(covered.count(i)) << "ops.def op '" << op_name(OpId(i)) << "' has no CUDA consistency case";
}

TEST(CudaBackend, SupportsMirrorsCpu) {
  GFY_REQUIRE_CUDA();
  Backend &cpu = backend_for(kCPU), &cuda = backend_for(kCUDA);
  for (int i = 0; i < kNumOps; ++i)
    for (ScalarType dt : kAll)
      EXPECT_EQ(cpu.supports(OpId(i), dt), cuda.supports(OpId(i), dt)) << op_name(OpId(i)) << " " << to_string(dt);
}

TEST(CudaRandom, RangesMomentsAndSeeds) {
  GFY_REQUIRE_CUDA();
  const TensorOptions o = TensorOptions().device(kCUDA);
  gfy::cuda::manual_seed(7);
  Tensor u = rand({100000}, o), n = randn({100001}, o.dtype(kDouble)), r = randint(-3, 4, {100000}, o.dtype(kInt));
  EXPECT_GE(amin(u).item<double>(), 0.0);
  EXPECT_LT(amax(u).item<double>(), 1.0);
  EXPECT_NEAR(mean(u).item<double>(), 0.5, 0.01);
  EXPECT_NEAR(mean(n).item<double>(), 0.0, 0.02);
  EXPECT_NEAR(mean(n * n).item<double>(), 1.0, 0.02);
  EXPECT_GE(amin(r).item<int64_t>(), -3);
  EXPECT_LE(amax(r).item<int64_t>(), 3);
  // Same seed, same numbers; the next draw differs.
  gfy::cuda::manual_seed(7);
  Tensor u2 = rand({100000}, o), u3 = rand({100000}, o);
  EXPECT_TRUE(equal(u.cpu(), u2.cpu()));
  EXPECT_FALSE(equal(u2.cpu(), u3.cpu()));
}

TEST(CudaBackend, IndexOutOfRangeIsAnError) {
  GFY_REQUIRE_CUDA();
  Tensor a = zeros({3, 4}, TensorOptions().device(kCUDA));
  Tensor bad = tensor(std::vector<int64_t>{0, 7}).to(kCUDA);
  // The kernel cannot throw: the error surfaces at the next synchronisation, with the CPU's text.
  try {
    Tensor r = a.index({bad});
    gfy::cuda::synchronize();
    FAIL() << "expected gfy::Error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("index 7 is out of bounds for dimension 0 with size 3"), std::string::npos) << e.what();
  }
  // The record is cleared: the backend stays usable.
  EXPECT_NO_THROW(gfy::cuda::synchronize());
}

TEST(CudaBackend, CpuScalarJoinsCudaOp) {
  GFY_REQUIRE_CUDA();
  Tensor a = ones({4}, TensorOptions().device(kCUDA));
  Tensor s = scalar_tensor(2.5); // 0-d CPU tensor: LibTorch lets it join a CUDA op
  expect_same(ones({4}) * 3.5, a + s, 0, "a + cpu scalar");
}

TEST(CudaAllocator, CachesFreedMemory) {
  GFY_REQUIRE_CUDA();
  { Tensor warm = empty({1 << 20}, TensorOptions().device(kCUDA)); }
  gfy::cuda::synchronize();
  const AllocatorStats before = allocator_stats(kCUDA);
  for (int i = 0; i < 10; ++i) Tensor t = empty({1 << 20}, TensorOptions().device(kCUDA));
  const AllocatorStats after = allocator_stats(kCUDA);
  EXPECT_EQ(after.allocations - before.allocations, 10u);
  EXPECT_EQ(after.cache_misses, before.cache_misses) << "the pool should serve steady-state allocations";
  empty_cache(kCUDA);
}

} // namespace
