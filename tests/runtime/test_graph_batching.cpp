// The post-capture batching of products that share a weight (src/graph/BatchSharedWeightProducts.cpp):
// the input projections of a recurrence become one GEMM with the bits of the per-step products,
// and products whose operands change between them, or that read each other's results, are left as
// recorded.
#include "TestUtil.h"

#include <algorithm>

using namespace gfy;

namespace {

CaptureOptions without(std::string pass) { return CaptureOptions{.optimize = true, .skip_passes = {std::move(pass)}}; }

void expect_identical(const Tensor &a, const Tensor &b) {
  ASSERT_EQ(a.sizes().vec(), b.sizes().vec());
  EXPECT_TRUE(equal(a, b)) << "max |a - b| = " << (a - b).abs().max().item<double>();
}

/// One recurrent layer written as seed 001 writes it: the step's input is `x.select(1, t)` of a
/// (B, T, E) tensor, its projection shares `wi` with every other step, and the hidden state feeds
/// the next step through `wh`.
Tensor recurrent_layer(const Tensor &x, const Tensor &wi, const Tensor &wh, const Tensor &b) {
  const int64_t B = x.size(0), T = x.size(1), H = wh.size(0);
  Tensor h = zeros({B, H}, x.options());
  std::vector<Tensor> hs;
  for (int64_t t = 0; t < T; ++t) {
    Tensor gates = mm(x.select(1, t), wi) + mm(h, wh) + b;
    h = tanh(gates);
    hs.push_back(h);
  }
  return stack(hs, 1);
}

} // namespace

TEST(BatchSharedWeightProducts, InputProjectionsOfARecurrenceAreOneGemmWithTheSameBits) {
  manual_seed(11);
  for (ScalarType dtype : {kFloat, kDouble}) {
    Tensor x = randn({6, 7, 5}, dtype), wi = randn({5, 4}, dtype), wh = randn({4, 4}, dtype), b = randn({4}, dtype);
    Tensor out, ref;
    Graph batched = capture([&] { out = recurrent_layer(x, wi, wh, b); });
    Graph plain = capture([&] { ref = recurrent_layer(x, wi, wh, b); }, without("batched-products"));
    // Seven products become one GEMM; their buffers move into its rows, so their nodes go and each
    // step's recurrent product accumulates straight into the step's rows.
    EXPECT_EQ(batched.num_nodes(), plain.num_nodes() + 1 - 7);
    for (int i = 0; i < 3; ++i) {
      x.copy_(randn({6, 7, 5}, dtype));
      b.copy_(randn({4}, dtype));
      batched.replay();
      plain.replay();
      expect_identical(out, ref);
      EXPECT_TRUE(allclose(out, recurrent_layer(x, wi, wh, b), 1e-5, 1e-5));
    }
  }
}

TEST(BatchSharedWeightProducts, ConsecutiveBlocksOfRowsAndAProductWithoutBias) {
  // `narrow(0, t·M, M)`: each step reads its own block of a (T·M, K) matrix.
  Tensor x = randn({12, 3}), w = randn({3, 5}), h = ones({4, 5}), out, ref;
  auto fn = [&](Tensor &dst) {
    Tensor acc = h;
    for (int64_t t = 0; t < 3; ++t) acc = acc * sigmoid(mm(x.narrow(0, 4 * t, 4), w));
    dst = acc;
  };
  Graph batched = capture([&] { fn(out); });
  Graph plain = capture([&] { fn(ref); }, without("batched-products"));
  EXPECT_LT(batched.num_nodes(), plain.num_nodes());
  x.copy_(randn({12, 3}));
  batched.replay();
  plain.replay();
  expect_identical(out, ref);
}

TEST(BatchSharedWeightProducts, ProductsTheUserHoldsAreFilledFromTheBatchedRows) {
  // The user keeps every step's projection: their buffers stay, each filled by a copy of its rows.
  Tensor x = randn({4, 5, 3}), w = randn({3, 6}), b = randn({6});
  std::vector<Tensor> ys(5), refs(5);
  auto fn = [&](std::vector<Tensor> &dst) {
    for (int64_t t = 0; t < 5; ++t) dst[size_t(t)] = mm(x.select(1, t), w) + b;
  };
  Graph batched = capture([&] { fn(ys); });
  Graph plain = capture([&] { fn(refs); }, without("batched-products"));
  EXPECT_EQ(batched.num_nodes(), plain.num_nodes() + 1);
  for (int i = 0; i < 2; ++i) {
    x.copy_(randn({4, 5, 3}));
    batched.replay();
    plain.replay();
    for (size_t t = 0; t < 5; ++t) expect_identical(ys[t], refs[t]);
  }
}

TEST(BatchSharedWeightProducts, AnInputWrittenBetweenTheProductsIsLeftAlone) {
  // Eagerly step t reads x after t in-place updates; one GEMM up front would read the first x.
  Tensor x = randn({6, 3, 5}), wi = randn({5, 4}), out, ref;
  auto fn = [&](Tensor &dst) {
    std::vector<Tensor> ys;
    for (int64_t t = 0; t < 3; ++t) {
      ys.push_back(mm(x.select(1, t), wi));
      x.mul_(2);
    }
    dst = stack(ys, 0);
  };
  Tensor x0 = randn({6, 3, 5});
  x.copy_(x0);
  Graph batched = capture([&] { fn(out); });
  x.copy_(x0);
  Graph plain = capture([&] { fn(ref); }, without("batched-products"));
  EXPECT_EQ(batched.num_nodes(), plain.num_nodes());
  x.copy_(x0);
  batched.replay();
  x.copy_(x0);
  plain.replay();
  expect_identical(out, ref);
}

TEST(BatchSharedWeightProducts, AWeightUpdatedBetweenTheProductsIsLeftAlone) {
  Tensor x = randn({6, 3, 5}), w = randn({5, 4}), out, ref;
  auto fn = [&](Tensor &dst) {
    std::vector<Tensor> ys;
    for (int64_t t = 0; t < 3; ++t) {
      ys.push_back(mm(x.select(1, t), w));
      w.add_(1);
    }
    dst = stack(ys, 0);
  };
  Graph batched = capture([&] { fn(out); });
  Graph plain = capture([&] { fn(ref); }, without("batched-products"));
  EXPECT_EQ(batched.num_nodes(), plain.num_nodes());
}

TEST(BatchSharedWeightProducts, ARecurrenceThroughOneBufferIsNotBatched) {
  // h·U with h updated in place: every product reads the same rows, each after the previous one's
  // result was written there.
  Tensor h = randn({4, 4}), u = randn({4, 4}) * 0.5, out, ref;
  auto fn = [&](Tensor &dst) {
    for (int t = 0; t < 3; ++t) h.copy_(tanh(mm(h, u)));
    dst = h.clone();
  };
  Tensor h0 = h.clone();
  Graph batched = capture([&] { fn(out); });
  h.copy_(h0);
  Graph plain = capture([&] { fn(ref); }, without("batched-products"));
  EXPECT_EQ(batched.num_nodes(), plain.num_nodes());
}

TEST(BatchSharedWeightProducts, OverlappingRowsAreNotBatched) {
  // Sliding windows share rows: no single matrix holds them once each.
  Tensor x = randn({8, 3}), w = randn({3, 2}), out, ref;
  auto fn = [&](Tensor &dst) {
    std::vector<Tensor> ys;
    for (int64_t t = 0; t < 3; ++t) ys.push_back(mm(x.narrow(0, t, 4), w));
    dst = cat(ys, 0);
  };
  Graph batched = capture([&] { fn(out); });
  Graph plain = capture([&] { fn(ref); }, without("batched-products"));
  EXPECT_EQ(batched.num_nodes(), plain.num_nodes());
}

TEST(CaptureOptions, PassesAreListedAndAnUnknownNameIsAnError) {
  const std::vector<std::string> &passes = optimization_passes();
  EXPECT_EQ(passes, (std::vector<std::string>{"linear-combinations", "batched-products", "conv-epilogues",
                                              "compute-in-outputs", "elementwise"}));
  Tensor x = randn({2, 2});
  try {
    capture([&] { (void)(x + 1); }, without("batching"));
    FAIL() << "expected an error";
  } catch (const Error &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown pass 'batching'"), std::string::npos) << what;
    EXPECT_NE(what.find("batched-products"), std::string::npos) << what;
  }
}
