// The post-capture fusion of sums of matrix products (src/graph/FuseLinearCombinations.cpp):
// what it fuses gives eager's values (to rounding) on every replay, and what it must not fuse —
// a product someone else reads, an operand overwritten before the sum, a sum that is the user's
// own handle — is left exactly as recorded.
#include "TestUtil.h"

#include <graphify/core/Backend.h>

#include <cstring>

using namespace gfy;

namespace {

/// Captures `fn` with and without fusion; returns the node counts (fused, unfused).
template <class F> std::pair<size_t, size_t> node_counts(F fn) {
  return {capture(fn).num_nodes(), capture(fn, CaptureOptions{.optimize = false}).num_nodes()};
}

/// The LSTM gate pre-activation: two products and a broadcast bias.
Tensor gates(const Tensor &x, const Tensor &h, const Tensor &wi, const Tensor &wh, const Tensor &b) {
  return mm(x, wi) + mm(h, wh) + b;
}

} // namespace

TEST(Fusion, GateSumBecomesAccumulatingProducts) {
  manual_seed(3);
  Tensor x = randn({8, 5}), h = randn({8, 6}), wi = randn({5, 12}), wh = randn({6, 12}), b = randn({12});
  Tensor out;
  auto fn = [&] { out = gates(x, h, wi, wh, b); };
  auto [fused, unfused] = node_counts(fn);
  // mm, mm, add, add  ->  mm(bias b), mm(accumulate)
  EXPECT_EQ(unfused, 4u);
  EXPECT_EQ(fused, 2u);
  Graph g = capture(fn);
  for (int i = 0; i < 3; ++i) {
    x.copy_(randn({8, 5}));
    h.copy_(randn({8, 6}));
    b.copy_(randn({12}));
    g.replay();
    EXPECT_TRUE(allclose(out, gates(x, h, wi, wh, b), 1e-5, 1e-5));
  }
}

TEST(Fusion, ProjectionPlusBiasAndDoubles) {
  Tensor x = randn({16, 4}, kDouble), w = randn({4, 7}, kDouble), b = randn({7}, kDouble);
  Tensor out;
  Graph g = capture([&] { out = log_softmax(matmul(x, w) + b, 1); });
  x.copy_(randn({16, 4}, kDouble));
  g.replay();
  EXPECT_TRUE(allclose(out, log_softmax(matmul(x, w) + b, 1), 1e-12, 1e-12));
}

TEST(Fusion, CoefficientsOfSubAndAlpha) {
  Tensor a = randn({3, 4}), b = randn({4, 5}), c = randn({3, 5}), d = randn({3, 4});
  Tensor out;
  auto eager = [&] { return sub(c, mm(a, b), 2.5) - add(mm(d, b), c, -0.5); };
  auto [fused, unfused] = node_counts([&] { out = eager(); });
  EXPECT_LT(fused, unfused);
  Graph g = capture([&] { out = eager(); });
  a.copy_(randn({3, 4}));
  c.copy_(randn({3, 5}));
  g.replay();
  EXPECT_TRUE(allclose(out, eager(), 1e-5, 1e-5));
}

TEST(Fusion, BatchedProducts) {
  Tensor a = randn({2, 3, 4}), b = randn({2, 4, 5}), c = randn({2, 3, 5});
  Tensor out;
  Graph g = capture([&] { out = bmm(a, b) + c; });
  EXPECT_EQ(g.num_nodes(), 1u);
  a.copy_(randn({2, 3, 4}));
  g.replay();
  EXPECT_TRUE(allclose(out, bmm(a, b) + c, 1e-5, 1e-5));
}

TEST(Fusion, InPlaceAccumulationIntoAnInput) {
  // y += a·b on every replay, as eager would: the output is its own first term.
  Tensor a = randn({3, 4}), b = randn({4, 2}), y = zeros({3, 2});
  Graph g = capture([&] { y.add_(mm(a, b)); });
  EXPECT_EQ(g.num_nodes(), 1u);
  Tensor once = mm(a, b);
  g.replay(); // the capture ran it once already
  EXPECT_TRUE(allclose(y, once * 2, 1e-5, 1e-5));
}

TEST(Fusion, ProductReadElsewhereIsKept) {
  Tensor a = randn({3, 4}), b = randn({4, 2}), c = randn({3, 2});
  Tensor out, kept;
  auto [fused, unfused] = node_counts([&] {
    Tensor p = mm(a, b);
    out = p + c;
    kept = p.sum(0); // p is read twice: it must stay materialised
  });
  EXPECT_EQ(fused, unfused);
  // ... and a product the user holds a handle to is the user's, not the graph's.
  auto [fused2, unfused2] = node_counts([&] {
    kept = mm(a, b);
    out = kept + c;
  });
  EXPECT_EQ(fused2, unfused2);
}

TEST(Fusion, OperandOverwrittenBeforeTheSumIsKept) {
  // Moving the product to the sum would read the new `a`: refused, and replay keeps eager order.
  Tensor a = randn({3, 4}), b = randn({4, 2}), c = randn({3, 2});
  Tensor out;
  auto fn = [&] {
    Tensor p = mm(a, b);
    a.mul_(2);
    out = p + c;
  };
  auto [fused, unfused] = node_counts(fn);
  EXPECT_EQ(fused, unfused);
  Tensor a0 = randn({3, 4});
  a.copy_(a0);
  Graph g = capture(fn); // leaves a == 2 * a0
  a.copy_(a0);
  g.replay();
  EXPECT_TRUE(allclose(out, mm(a0, b) + c, 1e-5, 1e-5));
}

TEST(Fusion, SumHeldByTheUserStaysTheOutput) {
  // The sum's buffer is the user's: it is written in place, the data pointer does not move.
  Tensor x = randn({4, 3}), w = randn({3, 3}), b = randn({3});
  Tensor out;
  Graph g = capture([&] { out = mm(x, w) + b; });
  const void *p = out.data_ptr();
  x.copy_(randn({4, 3}));
  g.replay();
  EXPECT_EQ(out.data_ptr(), p);
  EXPECT_TRUE(allclose(out, mm(x, w) + b, 1e-5, 1e-5));
}

TEST(Fusion, IntegerSumsAreNotTouched) {
  Tensor a = randint(-3, 3, {3, 4}), b = randint(-3, 3, {4, 2}), c = randint(-3, 3, {3, 2});
  Tensor out;
  auto [fused, unfused] = node_counts([&] { out = mm(a, b) + c; });
  EXPECT_EQ(fused, unfused);
}

// --- compute_in_outputs (src/graph/ComputeInOutputs.cpp) ------------------------------------

TEST(ComputeInOutputs, LastOpRunsInPlaceInTheUsersOutput) {
  // The logits die at log_softmax, which writes `out`: they live in `out`, so the pool shrinks
  // by one buffer and replay still matches eager.
  Tensor x = randn({6, 4}), w = randn({4, 9}), b = randn({9});
  Tensor out;
  auto fn = [&] { out = log_softmax(matmul(x, w) + b, 1); };
  Graph plain = capture(fn, CaptureOptions{.optimize = false});
  Graph g = capture(fn);
  EXPECT_LT(g.pool_bytes(), plain.pool_bytes());
  const void *p = out.data_ptr();
  for (int i = 0; i < 3; ++i) {
    x.copy_(randn({6, 4}));
    g.replay();
    EXPECT_EQ(out.data_ptr(), p);
    EXPECT_TRUE(allclose(out, log_softmax(matmul(x, w) + b, 1), 1e-5, 1e-5));
  }
}

TEST(ComputeInOutputs, OutputReadBeforeTheSinkIsLeftAlone) {
  // `y` is read (into z) while the intermediate t would live in it: t must keep its own buffer.
  Tensor x = randn({5}), y = randn({5});
  Tensor z;
  auto fn = [&] {
    Tensor t = (x * 3).sigmoid(); // t's life starts here ...
    z = y + 1;                    // ... y is read here ...
    y.copy_(t);                   // ... and written, from t, only here
  };
  Tensor y0 = y.clone();
  Graph g = capture(fn);
  Tensor x1 = randn({5});
  x.copy_(x1);
  y.copy_(y0);
  g.replay();
  EXPECT_TRUE(allclose(z, y0 + 1, 1e-6, 1e-6));
  EXPECT_TRUE(allclose(y, (x1 * 3).sigmoid(), 1e-6, 1e-6));
  // Had t lived in y, z would have read t's values.
}

TEST(ComputeInOutputs, SinkReadingTheOutputItselfIsLeftAlone) {
  // out = out * t, with t dying here: computing t inside `out` would overwrite the other operand.
  Tensor a = randn({4}), out = randn({4});
  Graph g = capture([&] { out.mul_(a.exp()); });
  Tensor a1 = randn({4}), o1 = randn({4});
  a.copy_(a1);
  out.copy_(o1);
  g.replay();
  EXPECT_TRUE(allclose(out, o1 * a1.exp(), 1e-6, 1e-6));
}

TEST(ComputeInOutputs, SoftmaxAlongAnInnerDimIsLeftAlone) {
  // Along dim 0 of a (3, 4) tensor the lanes are strided: only last-dim softmax runs in place.
  Tensor x = randn({3, 4});
  Tensor out;
  auto fn = [&] { out = softmax(x * 2, 0); };
  Graph plain = capture(fn, CaptureOptions{.optimize = false});
  Graph g = capture(fn); // last: `out` is this graph's output
  EXPECT_EQ(g.pool_bytes(), plain.pool_bytes());
  x.copy_(randn({3, 4}));
  g.replay();
  EXPECT_TRUE(allclose(out, softmax(x * 2, 0), 1e-6, 1e-6));
}

// --- fuse_elementwise (src/graph/FuseElementwise.cpp, cpu/FusedElementwise.cpp) ------------

namespace {

/// An LSTM cell's pointwise part on a (B, 4H) gate buffer, as seed 001 writes it.
std::pair<Tensor, Tensor> lstm_cell(const Tensor &gates, const Tensor &c) {
  auto g4 = gates.chunk(4, 1);
  auto i = sigmoid(g4[0]), f = sigmoid(g4[1]), g = tanh(g4[2]), o = sigmoid(g4[3]);
  Tensor c2 = f * c + i * g;
  return {o * tanh(c2), c2};
}

/// Exact equality: fusion must not change a single bit.
void expect_identical(const Tensor &a, const Tensor &b) {
  ASSERT_EQ(a.sizes().vec(), b.sizes().vec());
  EXPECT_TRUE(equal(a, b)) << "max |a - b| = " << (a - b).abs().max().item<double>();
}

} // namespace

TEST(FuseElementwise, LstmCellIsOneNodeWithTheSameBits) {
  for (int64_t hidden : {3, 256, 300}) { // one partial chunk, exactly one, one and a bit
    Tensor gates = randn({5, 4 * hidden}), c = randn({5, hidden});
    Tensor h1, c1, h0, c0;
    Graph plain = capture([&] { std::tie(h0, c0) = lstm_cell(gates, c); }, CaptureOptions{.optimize = false});
    Graph g = capture([&] { std::tie(h1, c1) = lstm_cell(gates, c); });
    EXPECT_EQ(plain.num_nodes(), 9u);
    EXPECT_EQ(g.num_nodes(), 1u);
    EXPECT_EQ(g.pool_bytes(), 0u); // the seven intermediates never reach memory
    for (int i = 0; i < 2; ++i) {
      gates.copy_(randn({5, 4 * hidden}) * 3);
      c.copy_(randn({5, hidden}));
      plain.replay();
      g.replay();
      expect_identical(h1, h0);
      expect_identical(c1, c0);
    }
  }
}

TEST(FuseElementwise, LongChainsBroadcastsAndDoubles) {
  Tensor x = randn({4, 3, 70}, kDouble), b = randn({70}, kDouble), out, ref;
  auto chain = [&](Tensor &dst) {
    Tensor h = x;
    for (int i = 0; i < 6; ++i) h = (h * 0.5 + b).relu() - h.neg().exp() / (h * h + 1);
    dst = h;
  };
  Graph plain = capture([&] { chain(ref); }, CaptureOptions{.optimize = false});
  Graph g = capture([&] { chain(out); });
  EXPECT_EQ(g.num_nodes(), 1u);
  x.copy_(randn({4, 3, 70}, kDouble));
  b.copy_(randn({70}, kDouble));
  plain.replay();
  g.replay();
  expect_identical(out, ref);
}

TEST(FuseElementwise, InPlaceUpdatesOfInputsAreStored) {
  // c is a graph input updated in place: its new value must reach memory every replay.
  Tensor c = randn({2, 8}), f = randn({2, 8}), u = randn({2, 8});
  Graph g = capture([&] { c.mul_(f.sigmoid()).add_(u); });
  EXPECT_EQ(g.num_nodes(), 1u);
  Tensor c0 = c.clone();
  g.replay();
  expect_identical(c, c0 * f.sigmoid() + u);
}

TEST(FuseElementwise, WrittenBufferSeenThroughAnotherViewEndsTheRun) {
  // t is written, then read transposed: chunk order would read elements not computed yet, so
  // the run must stop before the transposed read.
  Tensor x = randn({6, 6}), out, ref;
  auto fn = [&](Tensor &dst) {
    Tensor t = x.exp() + 1;
    dst = (t.t() * t).sigmoid();
  };
  Graph plain = capture([&] { fn(ref); }, CaptureOptions{.optimize = false});
  Graph g = capture([&] { fn(out); });
  EXPECT_GT(g.num_nodes(), 1u);
  x.copy_(randn({6, 6}));
  plain.replay();
  g.replay();
  expect_identical(out, ref);
}

TEST(FuseElementwise, ValuesReadAfterTheRunAreStored) {
  // s is read by the reduction after the run: it is stored; the rest stays in registers.
  Tensor x = randn({3, 5}), total, last;
  Graph g = capture([&] {
    Tensor s = x.sigmoid() * 2;
    last = (s + 1).tanh();
    total = s.sum();
  });
  x.copy_(randn({3, 5}));
  g.replay();
  Tensor s = x.sigmoid() * 2;
  expect_identical(last, (s + 1).tanh());
  EXPECT_TRUE(allclose(total, s.sum(), 1e-6, 1e-6));
}

// ops.def alone says which ops fuse. Each fusable op runs through the fused executor and through
// its own kernel, and must give the same bits: an op marked fusable without a step in
// cpu/FusedElementwise.cpp throws at replay, and a step that drifts from the kernel differs here.
TEST(FuseElementwise, EveryFusableOpGivesItsKernelsBits) {
  int fusable = 0;
  for (int i = 0; i < kNumOps; ++i) {
    const OpId op = OpId(i);
    if (!op_is_fusable(op)) continue;
    ++fusable;
    for (ScalarType dt : {kFloat, kDouble}) {
      SCOPED_TRACE(std::string(op_name(op)) + " on " + to_string(dt));
      Tensor x = randn({3, 300}, dt), y = randn({3, 300}, dt).abs() + 0.5, out, ref;
      // Three calls of the op on one shape, built as a front-end builds them (one OpCall through
      // detail::run), so that no front-end list of ops stands between ops.def and the executor.
      auto chain = [&](Tensor &dst) {
        Tensor h = x;
        for (double alpha : {1.0, 0.5, -2.0}) {
          Tensor o = detail::make_tensor(h.sizes(), dt);
          OpCall c;
          c.op = op;
          c.in = op_kind(op) == OpKind::binary ? std::vector<Tensor>{h, y} : std::vector<Tensor>{h};
          c.out = {o};
          c.alpha = alpha;
          detail::run(std::move(c), dt);
          h = o;
        }
        dst = h;
      };
      Graph plain = capture([&] { chain(ref); }, CaptureOptions{.optimize = false});
      Graph fused = capture([&] { chain(out); });
      EXPECT_EQ(plain.num_nodes(), 3u);
      EXPECT_EQ(fused.num_nodes(), 1u);
      x.copy_(randn({3, 300}, dt) * 2);
      plain.replay();
      fused.replay();
      ASSERT_EQ(out.sizes().vec(), ref.sizes().vec());
      EXPECT_EQ(std::memcmp(out.data_ptr(), ref.data_ptr(), size_t(ref.nbytes())), 0) << "fused and unfused bits differ";
    }
  }
  EXPECT_GT(fusable, 0);
}

// A conv2d followed by an eval-mode batch_norm (and a relu) becomes one convolution applying the
// batch norm's map as it stores (src/graph/FuseConvEpilogues.cpp): the same bits as the three
// kernels, with the batch norm's tensors read on every replay; nothing is fused where an
// intermediate is seen elsewhere, in training mode, or for a depthwise convolution.
namespace {
struct ConvBn {
  Tensor x, w, mean, var, gamma, beta;
  explicit ConvBn(ScalarType dt, int64_t C = 5, int64_t O = 12, int64_t groups = 1)
      : x(randn({2, C, 9, 21}, dt)), w(randn({O, C / groups, 3, 3}, dt)), mean(randn({O}, dt)),
        var(rand({O}, dtype(dt)) + 0.5), gamma(randn({O}, dt)), beta(randn({O}, dt)) {}
  Tensor conv(int64_t groups = 1) const { return conv2d(x, w, {}, 1, 1, 1, groups); }
  Tensor bn(const Tensor &y, bool training = false) const {
    return batch_norm(y, gamma, beta, mean, var, training, 0.1, 1e-5, true);
  }
};
} // namespace

TEST(FuseConvEpilogues, ConvBatchNormReluGivesTheKernelsBits) {
  for (ScalarType dt : {kFloat, kDouble})
    for (bool with_relu : {true, false}) {
      SCOPED_TRACE(std::string(to_string(dt)) + (with_relu ? " with relu" : " without relu"));
      manual_seed(21);
      ConvBn m(dt);
      Tensor out, ref;
      auto fn = [&](Tensor &dst) {
        Tensor y = m.bn(m.conv());
        dst = with_relu ? relu(y) : y;
      };
      Graph plain = capture([&] { fn(ref); }, CaptureOptions{.optimize = false});
      Graph fused = capture([&] { fn(out); });
      EXPECT_EQ(plain.num_nodes(), with_relu ? 3u : 2u);
      EXPECT_EQ(fused.num_nodes(), 1u);
      for (int i = 0; i < 2; ++i) { // new inputs and new statistics on each replay
        m.x.copy_(randn(m.x.sizes().vec(), dt));
        m.mean.copy_(randn({12}, dt));
        m.gamma.copy_(randn({12}, dt));
        plain.replay();
        fused.replay();
        expect_identical(out, ref);
      }
    }
}

TEST(FuseConvEpilogues, LeavesWhatOthersSee) {
  manual_seed(22);
  ConvBn m(kFloat);
  Tensor out, conv_out, kept;
  // The convolution's output is read again after the batch norm.
  auto reread = [&] {
    Tensor y = m.conv();
    out = relu(m.bn(y)) + y;
  };
  EXPECT_EQ(capture(reread, CaptureOptions{.optimize = false}).num_nodes(), capture(reread).num_nodes() + 1);
  // The convolution's output is the user's: both stay, the relu (an elementwise pair) may fuse.
  Graph user = capture([&] {
    conv_out = m.conv();
    out = m.bn(conv_out);
  });
  EXPECT_EQ(user.num_nodes(), 2u);
  // The batch norm's output is kept by the user: conv and batch norm fuse, the relu stays.
  Graph bn_kept = capture([&] {
    kept = m.bn(m.conv());
    out = relu(kept);
  });
  EXPECT_EQ(bn_kept.num_nodes(), 2u);
  m.x.copy_(randn(m.x.sizes().vec()));
  bn_kept.replay();
  expect_identical(kept, m.bn(m.conv()));
  expect_identical(out, relu(kept));
}

TEST(FuseConvEpilogues, NotInTrainingModeNorDepthwise) {
  manual_seed(23);
  ConvBn m(kFloat);
  Tensor out, ref;
  // Training normalises by the batch's statistics, which read the convolution's output: fused by
  // mistake, the running statistics would take their place and the values would differ.
  auto training = [&](Tensor &dst) { dst = relu(m.bn(m.conv(), /*training=*/true)); };
  Graph plain = capture([&] { training(ref); }, CaptureOptions{.optimize = false});
  Graph fused = capture([&] { training(out); });
  m.x.copy_(randn(m.x.sizes().vec()));
  plain.replay();
  fused.replay();
  expect_identical(out, ref);
  ConvBn dw(kFloat, 6, 6, 6);
  auto depthwise = [&] { out = relu(dw.bn(dw.conv(6))); };
  auto [dw_fused, dw_unfused] = node_counts(depthwise);
  EXPECT_EQ(dw_fused, dw_unfused);
}
