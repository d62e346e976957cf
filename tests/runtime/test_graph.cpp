// Graph capture and replay: static buffers, no allocation on replay, located CaptureErrors,
// trace's silent divergence (seed 002) versus the where() form, and cond / while_loop.
#include "TestUtil.h"

#include <functional>

using namespace gfy;
using namespace gfy::testing;
using namespace gfy::indexing;

namespace {

Tensor mlp(const Tensor &x, const Tensor &w, const Tensor &b) { return relu(linear(x, w, b)).softmax(-1); }

/// Runs `fn` under capture, expecting a CaptureError for `op` located at this file, `line`.
template <class F> void expect_capture_error(F fn, const std::string &op, unsigned line) {
  try {
    capture(fn);
    ADD_FAILURE() << "capture did not throw for " << op;
  } catch (const CaptureError &e) {
    EXPECT_EQ(e.op(), op);
    EXPECT_NE(e.file().find("test_graph.cpp"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), line) << e.what();
    const std::string where = "test_graph.cpp:" + std::to_string(line) + ":";
    EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
  }
}

} // namespace

TEST(Capture, ReplaySeesNewInputsInTheSameOutputBuffer) {
  manual_seed(1);
  Tensor x = randn({4, 8}), w = randn({16, 8}), b = randn({16});
  Tensor out;
  Graph g = capture([&] { out = mlp(x, w, b); });
  EXPECT_GT(g.num_nodes(), 0u);
  EXPECT_TRUE(allclose(out, mlp(x, w, b)));
  const void *buffer = out.data_ptr();
  for (int i = 0; i < 3; ++i) {
    Tensor fresh = randn({4, 8});
    x.copy_(fresh);
    g.replay();
    EXPECT_EQ(out.data_ptr(), buffer);
    EXPECT_TRUE(allclose(out, mlp(fresh, w, b), 1e-5, 1e-6));
  }
  // Writing through a view of a captured input is seen too.
  x.select(0, 0).fill_(0);
  g.replay();
  EXPECT_TRUE(allclose(out, mlp(x, w, b)));
}

TEST(Capture, HalfOpsReplayTheirWideningAndRounding) {
  // Half ops run in float inside detail::run; each step (widen, op, round) is recorded, so replay
  // reads the half inputs again and writes the same half output buffer.
  manual_seed(2);
  Tensor x = randn({4, 8}).to(kHalf), w = randn({8, 3}).to(kHalf);
  Tensor out;
  Graph g = capture([&] { out = relu(mm(x, w) * 2).sum(0); });
  EXPECT_EQ(out.scalar_type(), kHalf);
  const void *buffer = out.data_ptr();
  for (int i = 0; i < 2; ++i) {
    x.copy_(randn({4, 8}));
    g.replay();
    EXPECT_EQ(out.data_ptr(), buffer);
    EXPECT_TRUE(equal(out, relu(mm(x, w) * 2).sum(0)));
  }
}

TEST(Capture, BidirectionalLstmReplaysBothDirections) {
  // The reverse direction walks the steps backwards through the same ops, so it records and
  // replays like the forward one; the projection (proj_size) is one more GEMM per step.
  manual_seed(3);
  nn::LSTM lstm(nn::LSTMOptions(4, 6).num_layers(2).bidirectional(true).proj_size(3).batch_first(true));
  Tensor x = randn({2, 5, 4});
  Tensor out;
  Graph g = capture([&] { out = std::get<0>(lstm(x)); });
  for (int i = 0; i < 2; ++i) {
    x.copy_(randn({2, 5, 4}));
    g.replay();
    const Tensor eager = std::get<0>(lstm(x));
    EXPECT_EQ(out.sizes(), IntArrayRef({2, 5, 6}));
    EXPECT_TRUE(allclose(out, eager, 1e-6, 1e-6));
  }
}

TEST(Capture, ReplayDoesNotAllocate) {
  Tensor x = randn({32, 16}), w = randn({16, 16});
  Tensor out;
  Graph g = capture([&] {
    Tensor h = x;
    for (int i = 0; i < 4; ++i) h = tanh(mm(h, w) + 1) * 0.5;
    out = h.sum(0);
  });
  const auto before = allocator_stats();
  for (int i = 0; i < 10; ++i) g.replay();
  const auto after = allocator_stats();
  EXPECT_EQ(after.allocations, before.allocations);
  EXPECT_EQ(after.cache_misses, before.cache_misses);
}

TEST(Capture, IntermediatesShareTheGraphPool) {
  Tensor x = randn({64, 64}), out;
  // Unoptimized: elementwise fusion would keep these intermediates out of memory altogether.
  Graph g = capture([&] {
    Tensor h = x;
    for (int i = 0; i < 20; ++i) h = sigmoid(h * 0.5 + 1);
    out = h;
  }, CaptureOptions{.optimize = false});
  // 60 intermediates of 16 KiB each, but at most a few are alive at once.
  EXPECT_GT(g.pool_bytes(), 0u);
  EXPECT_LE(g.pool_bytes(), 4u * 64 * 64 * 4);
  Tensor expect = x;
  for (int i = 0; i < 20; ++i) expect = sigmoid(expect * 0.5 + 1);
  x.copy_(randn({64, 64}));
  g.replay();
  Tensor fresh = x;
  for (int i = 0; i < 20; ++i) fresh = sigmoid(fresh * 0.5 + 1);
  EXPECT_TRUE(allclose(out, fresh));
}

TEST(Capture, EagerLoopsReuseTheCache) {
  Tensor x = randn({64, 64});
  for (int i = 0; i < 3; ++i) (void)(x * 2 + 1).sum();
  const auto before = allocator_stats();
  for (int i = 0; i < 10; ++i) (void)(x * 2 + 1).sum();
  EXPECT_EQ(allocator_stats().cache_misses, before.cache_misses);
}

TEST(Capture, InPlaceOpsAndConstants) {
  Tensor x = zeros({3});
  Tensor acc = zeros({3});
  Graph g = capture([&] { acc.add_(x * 2); });
  x.fill_(1);
  g.replay();
  g.replay();
  EXPECT_VALUES(acc, {4, 4, 4});
}

TEST(Capture, HostReadsAreLocatedErrors) {
  Tensor x = ones({3});
  expect_capture_error([&] { (void)x.sum().item<float>(); }, "item()", __LINE__);
  expect_capture_error([&] { (void)x.sum().item(); }, "item()", __LINE__);
  expect_capture_error([&] { (void)(x.sum() > 0).is_nonzero(); }, "is_nonzero()", __LINE__);
  expect_capture_error([&] { (void)x.nonzero(); }, "nonzero()", __LINE__);
  expect_capture_error([&] { (void)nonzero(x); }, "nonzero()", __LINE__);
  expect_capture_error([&] { (void)x.index({x > 0}); }, "index() with a boolean mask", __LINE__);
  expect_capture_error([&] { x.index_put_({x > 0}, 1.0); }, "index_put_() with a boolean mask", __LINE__);
  expect_capture_error([&] { (void)masked_select(x, x > 0); }, "masked_select()", __LINE__);
  expect_capture_error([&] { (void)unique_consecutive(x); }, "unique_consecutive()", __LINE__);
  expect_capture_error([&] { (void)where(x > 0); }, "where(condition)", __LINE__);
  expect_capture_error([&] { (void)x.data_ptr<float>(); }, "data_ptr()", __LINE__);
  expect_capture_error([&] { (void)equal(x, x); }, "equal()", __LINE__);
  expect_capture_error([&] { (void)x.allclose(x); }, "allclose()", __LINE__);
  expect_capture_error([&] { print(std::cout, x); }, "printing a tensor", __LINE__);
  expect_capture_error([&] { (void)x.cpu(); }, "cpu()", __LINE__);
  // Refused even though x is already on the CPU: capture models a CUDA graph.
  expect_capture_error([&] { (void)x.to(Device(kCPU), kFloat); }, "to(kCPU)", __LINE__);
  // Fixed-size forms are fine: long-tensor indexing, masks, stable argsort.
  Tensor y;
  Graph g = capture([&] {
    Tensor m = x <= 0;
    y = x.index({argsort(m.to(kInt), /*stable=*/true, 0)});
    y.masked_fill_(y == 0, 1e-4);
  });
  x.copy_(tensor({0.f, -1.f, 2.f}));
  g.replay();
  EXPECT_VALUES(y, {2, 1e-4f, -1});
}

// A factory given no device inside the region builds in pageable host memory (the CPU stands in
// for the device of a CUDA graph): copying that to a tensor's device synchronises with the host on
// a GPU, so capture refuses it; created on the device, or copied to the host, it is fine.
TEST(Capture, HostToDeviceCopiesOfRegionFactoriesAreLocatedErrors) {
  Tensor x = ones({2, 3});
  expect_capture_error([&] { (void)ones({3}).to(x.device()); }, "to(device)", __LINE__);
  auto mask = [&] { (void)triu(ones({3, 3}, kInt), 1).unsqueeze(0).to(kBool).to(x); };
  expect_capture_error(mask, "to(device)", __LINE__ - 1);
  expect_capture_error([&] { (void)arange(3).to(x.options()); }, "to(device)", __LINE__);
  Tensor y, z;
  Graph g = capture([&] {
    Tensor mask = triu(ones({3, 3}, TensorOptions(kInt).device(x.device())), 1).to(kBool).to(x.device());
    y = x.masked_fill(mask.narrow(0, 0, 2), 0) + arange(3, device(x.device())).to(x);
    // Host memory copied to the host moves nothing; read on the host it is not the device's.
    z = ones({3}).to(Device(kCPU)).cpu();
  });
  x.fill_(2);
  g.replay();
  EXPECT_VALUES(y, {2, 1, 2, 2, 3, 2});
  // Outside a region a factory's tensor is an ordinary input, and a copy of it is no error.
  EXPECT_VALUES(ones({2}).to(x.device()), {1, 1});
}

// One number a factory made in host memory (gfy::tensor(0.5)) is host memory too: copied to the
// device it is refused; joined with a device tensor it stays a CPU 0-d operand, as in LibTorch, so
// what the op computes is on the device and reading it is a host read.
TEST(Capture, OneNumberTensorsAreHostMemory) {
  Tensor x = ones({2, 3});
  expect_capture_error([&] { (void)tensor(0.5f).to(x.device()); }, "to(device)", __LINE__);
  expect_capture_error([&] { (void)scalar_tensor(2).to(x.options()); }, "to(device)", __LINE__);
  expect_capture_error([&] { (void)(tensor(2.f) * x).sum().item<float>(); }, "item()", __LINE__);
  Tensor y;
  Graph g = capture([&] { y = tensor(2.f, TensorOptions().device(x.device())) * x + (tensor(1.f) * x); });
  x.fill_(2);
  g.replay();
  EXPECT_VALUES(y, {6, 6, 6, 6, 6, 6});
}

// Lists of host values are copied element by element into host memory: their copy to the device
// a graph runs on is refused, given by to() or by the factory's options, as LibTorch's would sync.
TEST(Capture, ListTensorsAreHostMemory) {
  Tensor x = ones({2});
  expect_capture_error([&] { (void)tensor({0.5f, 0.25f}).to(x.device()); }, "to(device)", __LINE__);
  expect_capture_error([&] { (void)tensor({{1.f, 2.f}, {3.f, 4.f}}).to(x.device()); }, "to(device)", __LINE__);
  // Given the device in its options, the factory makes the copy itself (located in the runtime:
  // the factories take no source location).
  for (auto build : {std::function<void()>([&] { (void)tensor({1, 2}, x.options()); }),
                     std::function<void()>([&] { (void)tensor(std::vector<float>{1.f, 2.f}, x.options()); })}) {
    try {
      capture(build);
      ADD_FAILURE() << "capture did not throw";
    } catch (const CaptureError &e) {
      EXPECT_EQ(e.op(), "to(device)");
    }
  }
  // Built before the capture, a list is an input the graph reads; on the host it may stay.
  Tensor scale = tensor({2.f, 3.f}).to(x.device());
  Tensor y, host;
  Graph g = capture([&] {
    y = x * scale;
    host = tensor({1.f, 2.f}) * 2;
  });
  x.fill_(2);
  g.replay();
  EXPECT_VALUES(y, {4, 6});
  EXPECT_VALUES(host, {2, 4});
}

TEST(Capture, CaptureErrorMessageNamesTheCheck) {
  Tensor x = ones({3});
  try {
    capture([&] { (void)x.sum().item<float>(); });
    FAIL();
  } catch (const CaptureError &e) {
    EXPECT_NE(std::string(e.what()).find("[graphify-host-sync]"), std::string::npos) << e.what();
  }
  try {
    capture([&] { (void)x.nonzero(); });
    FAIL();
  } catch (const CaptureError &e) {
    EXPECT_NE(std::string(e.what()).find("[graphify-dynamic-shape]"), std::string::npos) << e.what();
  }
  // The failed capture left no state behind.
  EXPECT_FALSE(is_capturing());
  EXPECT_FLOAT_EQ(x.sum().item<float>(), 3.f);
}

TEST(Capture, IsCapturingAndNesting) {
  EXPECT_FALSE(is_capturing());
  bool inside = false;
  capture([&] { inside = is_capturing(); });
  EXPECT_TRUE(inside);
  EXPECT_THROW(capture([&] { capture([] {}); }), Error);
  EXPECT_FALSE(is_capturing());
  EXPECT_THROW(Graph().replay(), Error);
}

// --- seed 002: trace freezes data-dependent branches -------------------------------------------

namespace {
Tensor non_traceable(const Tensor &x) {
  if (x.sum().item<float>() > 0) return x * 2;
  return x + 2;
}
Tensor traceable(const Tensor &x) { return where(x.sum() > 0, x * 2, x + 2); }
} // namespace

TEST(Trace, ItemIsFrozenWithALocatedWarning) {
  Tensor x = zeros({1}), out;
  Graph g = trace([&] { out = non_traceable(x); });
  ASSERT_EQ(g.warnings().size(), 1u);
  EXPECT_NE(g.warnings()[0].find("test_graph.cpp"), std::string::npos) << g.warnings()[0];
  EXPECT_NE(g.warnings()[0].find("TracerWarning"), std::string::npos);
  EXPECT_VALUES(out, {2});           // traced at x = 0: the x + 2 branch
  x.fill_(1);
  g.replay();
  EXPECT_VALUES(out, {3});           // silently wrong: eager gives 2
  EXPECT_VALUES(non_traceable(x), {2});
}

TEST(Trace, WhereFormReplaysCorrectly) {
  Tensor x = zeros({1}), out;
  Graph g = trace([&] { out = traceable(x); });
  EXPECT_TRUE(g.warnings().empty());
  x.fill_(1);
  g.replay();
  EXPECT_VALUES(out, {2});
  x.fill_(0);
  g.replay();
  EXPECT_VALUES(out, {2});
  // And it is capturable, too.
  Graph c = capture([&] { out = traceable(x); });
  x.fill_(-3);
  c.replay();
  EXPECT_VALUES(out, {-1});
}

TEST(Trace, DynamicShapesStillRefused) {
  Tensor x = ones({2});
  EXPECT_THROW(trace([&] { (void)x.nonzero(); }), CaptureError);
}

// --- cond and while_loop ------------------------------------------------------------------------

TEST(ControlFlow, CondEagerAndCaptured) {
  Tensor x = tensor({1.f, 2.f});
  auto run = [&] { return cond(x.sum() > 0, [&] { return x * 2; }, [&] { return x + 2; }); };
  EXPECT_VALUES(run(), {2, 4});
  Tensor out;
  Graph g = capture([&] { out = run(); });
  EXPECT_VALUES(out, {2, 4});
  x.copy_(tensor({-1.f, -2.f}));
  g.replay();
  EXPECT_VALUES(out, {1, 0});
  x.copy_(tensor({3.f, 0.f}));
  g.replay();
  EXPECT_VALUES(out, {6, 0});
  const auto before = allocator_stats();
  g.replay();
  EXPECT_EQ(allocator_stats().allocations, before.allocations);
}

TEST(ControlFlow, CondBranchesMustAgree) {
  Tensor x = ones({2});
  EXPECT_THROW(capture([&] { (void)cond(x.sum() > 0, [&] { return x; }, [&] { return x.sum(); }); }), Error);
}

TEST(ControlFlow, WhileLoopEagerAndCaptured) {
  Tensor x = tensor({1.f});
  auto body = [](const std::vector<Tensor> &s) { return std::vector<Tensor>{s[0] * 2, s[1] + 1}; };
  auto cond_fn = [](const std::vector<Tensor> &s) { return s[0].sum() < 100; };
  auto eager = while_loop(cond_fn, body, {x, zeros({}, kLong)});
  EXPECT_VALUES(eager[0], {128});
  EXPECT_EQ(eager[1].item<int64_t>(), 7);
  std::vector<Tensor> out;
  Graph g = capture([&] { out = while_loop(cond_fn, body, {x, zeros({}, kLong)}); });
  EXPECT_VALUES(out[0], {128});
  x.fill_(30);
  g.replay();
  EXPECT_VALUES(out[0], {120});
  EXPECT_EQ(out[1].item<int64_t>(), 2);
  x.fill_(500);
  g.replay();
  EXPECT_VALUES(out[0], {500});
  EXPECT_EQ(out[1].item<int64_t>(), 0);
}
