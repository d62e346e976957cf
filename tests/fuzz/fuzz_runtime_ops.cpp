// libFuzzer target: the runtime's op front-ends on random shapes, dtypes, indices and sizes.
// The input bytes are decoded once into a small program (inputs + a sequence of ops); the
// program runs eagerly, and, when it is capturable, again under graph capture + replay, which
// must agree with the eager result (the fusion, in-output and memory-planning passes against
// the plain CPU kernels). gfy::Error is the expected answer to bad arguments; a crash, a
// sanitizer report, another exception type or a disagreement is a bug.
#include <graphify/graphify.h>

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <vector>

using namespace gfy;

namespace {

constexpr ScalarType kDtypes[] = {kBool, kInt, kLong, kFloat, kDouble};

/// A size: mostly small, sometimes zero, negative, -1 or huge (the overflow paths).
int64_t fuzzSize(FuzzedDataProvider &P) {
  switch (P.ConsumeIntegralInRange<int>(0, 15)) {
  case 0: return 0;
  case 1: return -1;
  case 2: return P.ConsumeIntegralInRange<int64_t>(-3, -2);
  // Huge values are ones whose storage no machine has (> 1 TB): the allocator returns null and
  // the runtime must say so; sizes a machine could hold would only measure its memory.
  case 3: return int64_t(1) << 62;
  case 4: return std::numeric_limits<int64_t>::max();
  default: return P.ConsumeIntegralInRange<int64_t>(1, 4);
  }
}

std::vector<int64_t> fuzzShape(FuzzedDataProvider &P, bool Wild) {
  std::vector<int64_t> S(P.ConsumeIntegralInRange<size_t>(0, 4));
  for (int64_t &D : S)
    D = Wild ? fuzzSize(P) : P.ConsumeIntegralInRange<int64_t>(0, 4);
  return S;
}

double fuzzValue(FuzzedDataProvider &P) {
  switch (P.ConsumeIntegralInRange<int>(0, 11)) {
  case 0: return NAN;
  case 1: return INFINITY;
  case 2: return -INFINITY;
  case 3: return -0.0;
  case 4: return double(std::numeric_limits<int32_t>::min());
  case 5: return 1e30;
  default: return double(P.ConsumeIntegralInRange<int>(-8, 8));
  }
}

/// A tensor of a small shape with fuzzed values, built outside any op under test.
Tensor fuzzTensor(FuzzedDataProvider &P) {
  const ScalarType T = P.PickValueInArray(kDtypes);
  const std::vector<int64_t> Shape = fuzzShape(P, false);
  Tensor X = zeros(Shape, kDouble);
  Tensor Flat = X.view({-1});
  for (int64_t I = 0; I < Flat.numel(); ++I)
    Flat.index_put_({I}, fuzzValue(P));
  if (T == kBool)
    return X != 0;
  if (T == kInt || T == kLong) // NaN and infinities have no integer value: clamp first
    return where(isnan(X), zeros({}, kDouble), X).clamp(-1e9, 1e9).to(T);
  return X.to(T);
}

int64_t fuzzDim(FuzzedDataProvider &P) { return P.ConsumeIntegralInRange<int64_t>(-5, 4); }

/// One op on the working tensor `X` (and, for binary ops, `Y`); returns the new working tensor.
using Op = std::function<Tensor(const Tensor &X, const Tensor &Y)>;

Op decodeOp(FuzzedDataProvider &P, int &Kind) {
  Kind = P.ConsumeIntegralInRange<int>(0, 39);
  const int64_t D = fuzzDim(P), D2 = fuzzDim(P);
  const bool Flag = P.ConsumeBool();
  const std::vector<int64_t> Shape = fuzzShape(P, true);
  const double S = fuzzValue(P);
  const int64_t K = P.ConsumeIntegralInRange<int64_t>(-2, 6);
  const std::vector<int64_t> Indices = [&] {
    std::vector<int64_t> V(P.ConsumeIntegralInRange<size_t>(0, 5));
    for (int64_t &I : V)
      I = P.ConsumeBool() ? P.ConsumeIntegralInRange<int64_t>(-6, 6) : fuzzSize(P);
    return V;
  }();
  const ScalarType T = P.PickValueInArray(kDtypes);
  switch (Kind) {
  case 0: return [](const Tensor &X, const Tensor &Y) { return X + Y; };
  case 1: return [](const Tensor &X, const Tensor &Y) { return X - Y; };
  case 2: return [](const Tensor &X, const Tensor &Y) { return X * Y; };
  case 3: return [](const Tensor &X, const Tensor &Y) { return X / Y; };
  case 4: return [](const Tensor &X, const Tensor &Y) { return floor_divide(X, Y); };
  case 5: return [](const Tensor &X, const Tensor &Y) { return remainder(X, Y); };
  case 6: return [](const Tensor &X, const Tensor &Y) { return fmod(X, Y); };
  case 7: return [](const Tensor &X, const Tensor &Y) { return maximum(X, Y); };
  case 8: return [](const Tensor &X, const Tensor &Y) { return where(X > 0, X, Y); };
  case 9: return [](const Tensor &X, const Tensor &Y) { return pow(X, Y); };
  case 10: return [](const Tensor &X, const Tensor &) { return -X; };
  case 11: return [](const Tensor &X, const Tensor &) { return X.abs(); };
  case 12: return [](const Tensor &X, const Tensor &) { return X.exp(); };
  case 13: return [](const Tensor &X, const Tensor &) { return X.sigmoid(); };
  case 14: return [S](const Tensor &X, const Tensor &) { return X.clamp(S); };
  case 15: return [D, Flag](const Tensor &X, const Tensor &) { return X.sum(D, Flag); };
  case 16: return [D, Flag](const Tensor &X, const Tensor &) { return X.mean(D, Flag); };
  case 17: return [D, Flag](const Tensor &X, const Tensor &) { return std::get<0>(X.max(D, Flag)); };
  case 18: return [D](const Tensor &X, const Tensor &) { return X.argmax(D); };
  case 19: return [D](const Tensor &X, const Tensor &) { return X.cumsum(D); };
  case 20: return [Shape](const Tensor &X, const Tensor &) { return X.view(Shape); };
  case 21: return [Shape](const Tensor &X, const Tensor &) { return X.reshape(Shape); };
  case 22: return [Shape](const Tensor &X, const Tensor &) { return X.expand(Shape); };
  case 23: return [Shape](const Tensor &X, const Tensor &) { return X.permute(Shape); };
  case 24: return [D, D2](const Tensor &X, const Tensor &) { return X.transpose(D, D2); };
  case 25: return [D, K, Indices](const Tensor &X, const Tensor &) {
      return X.narrow(D, Indices.empty() ? 0 : Indices[0], K);
    };
  case 26: return [D, K](const Tensor &X, const Tensor &) { return X.select(D, K); };
  case 27: return [D](const Tensor &X, const Tensor &) { return X.unsqueeze(D); };
  case 28: return [Shape](const Tensor &X, const Tensor &) {
      std::vector<int64_t> Small = Shape;
      for (int64_t &V : Small)
        V = V <= 4 ? V : 2;
      return X.repeat(Small);
    };
  case 29: return [D](const Tensor &X, const Tensor &Y) { return cat({X, Y}, D); };
  case 30: return [D](const Tensor &X, const Tensor &Y) { return stack({X, Y}, D); };
  case 31: return [D, Indices](const Tensor &X, const Tensor &) {
      return X.index_select(D, tensor(Indices, kLong));
    };
  case 32: return [Indices](const Tensor &X, const Tensor &) { return embedding(X, tensor(Indices, kLong)); };
  case 33: return [D, Shape](const Tensor &X, const Tensor &) {
      std::vector<int64_t> Small = Shape;
      for (int64_t &V : Small)
        V = V >= 0 && V <= 4 ? V : 1;
      return X.gather(D, zeros(Small, kLong));
    };
  case 34: return [Indices](const Tensor &X, const Tensor &) {
      return X.index({tensor(Indices, kLong)});
    };
  case 35: return [D, Flag](const Tensor &X, const Tensor &) { return std::get<0>(sort(X, std::optional<bool>(Flag), D)); };
  case 36: return [D, K](const Tensor &X, const Tensor &) { return std::get<0>(X.topk(K, D)); };
  case 37: return [](const Tensor &X, const Tensor &Y) { return matmul(X, Y); };
  case 38: return [T](const Tensor &X, const Tensor &) { return X.to(T); };
  default: return [S](const Tensor &X, const Tensor &) { return masked_fill(X, X > 0, S); };
  }
}

/// Element-wise agreement: exact for integers and booleans, within rounding for floats (fused
/// kernels may contract a*b+c), NaN matching NaN.
bool agree(const Tensor &A, const Tensor &B) {
  if (A.sizes() != B.sizes() || A.scalar_type() != B.scalar_type())
    return false;
  if (A.scalar_type() == kFloat || A.scalar_type() == kDouble)
    return allclose(A, B, 1e-4, 1e-5, /*equal_nan=*/true);
  return equal(A, B);
}

struct Program {
  Tensor X, Y;
  std::vector<Op> Ops;
  std::vector<int> Kinds; ///< decodeOp's choice per op, for reports
  /// Expanded views may name up to 2^62 elements without memory; computing over them is a
  /// correct but endless loop (found as a 30 s timeout), so such programs stop there.
  static constexpr int64_t kMaxComputedElements = int64_t(1) << 22;
  Tensor run() const {
    Tensor W = X;
    for (const Op &O : Ops) {
      if (W.numel() > kMaxComputedElements)
        throw Error("fuzz: the working tensor is too large to compute on");
      W = O(W, Y);
    }
    return W;
  }
};

} // namespace

// A request for more memory than exists must come back as a null pointer (and a gfy::Error), as
// it does without ASan, rather than as ASan's fatal "allocation size too big".
extern "C" const char *__asan_default_options() { return "allocator_may_return_null=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider P(Data, Size);
  Program Prog;
  Prog.X = fuzzTensor(P);
  Prog.Y = fuzzTensor(P);
  for (size_t N = P.ConsumeIntegralInRange<size_t>(1, 6); N-- > 0 && P.remaining_bytes() > 0;)
    Prog.Ops.push_back(decodeOp(P, Prog.Kinds.emplace_back()));

  Tensor Eager;
  try {
    Eager = Prog.run();
  } catch (const Error &) {
    return 0; // a refusal with a message is a correct answer to bad arguments
  }
  // Graph mode must compute the same values (or refuse to capture: host reads, dynamic shapes).
  Tensor Captured;
  try {
    Graph G = capture([&] { Captured = Prog.run(); });
    G.replay();
  } catch (const Error &) {
    return 0;
  }
  // Comparing allocates: a result that is a huge expanded view may not fit (a gfy::Error, which is
  // the right answer; found by the first 10-minute run, where it escaped the harness).
  bool Agree = true;
  try {
    Agree = agree(Eager, Captured);
  } catch (const Error &) {
    return 0;
  }
  if (!Agree) {
    std::cerr << "graph replay disagrees with eager execution\ninputs:\n"
              << Prog.X << "\n" << Prog.Y << "\nops:";
    for (int K : Prog.Kinds)
      std::cerr << " " << K;
    std::cerr << "\neager:\n" << Eager << "\nreplayed:\n" << Captured << "\n";
    std::abort();
  }
  return 0;
}
