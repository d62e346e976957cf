// Capture and replay on CUDA: a CUDA graph recorded with gfy::cuda::CaptureSession replays with
// new inputs and no allocation; host reads are refused under capture with the same CaptureError
// (op, caller's line) as on the CPU; conditional IF/WHILE nodes give the eager result and the
// result of the branch-free `where` form, for inputs on both sides of the decision.
#include "CudaTestUtil.h"

using namespace gfy;
using gfy::cuda_testing::expect_same;

namespace {

const TensorOptions kCuda = TensorOptions().device(kCUDA);

Tensor small_model(const Tensor &x, const Tensor &w, const Tensor &b) {
  // A captured region in miniature: a GEMM with bias, pointwise math, a reduction, a softmax.
  Tensor h = tanh(addmm(b, x, w.t()));
  return log_softmax(h * 2 + 1, 1) + h.sum(1, true);
}

TEST(CudaGraph, CaptureReplayMatchesEager) {
  GFY_REQUIRE_CUDA();
  manual_seed(3);
  Tensor x = randn({8, 16}).to(kCUDA), w = randn({32, 16}).to(kCUDA), b = randn({32}).to(kCUDA), out;
  gfy::cuda::CaptureSession s;
  s.begin();
  out = small_model(x, w, b);
  s.end(); // launched once: `out` holds the capture-time value
  EXPECT_GT(s.num_nodes(), 3u);
  expect_same(small_model(x.cpu(), w.cpu(), b.cpu()), out, 1e-5, "capture-time result");
  const void *addr = out.unsafeGetTensorImpl()->data();
  for (int k = 0; k < 3; ++k) {
    Tensor next = randn({8, 16});
    x.copy_(next.to(kCUDA));
    const AllocatorStats before = allocator_stats(kCUDA);
    s.replay();
    EXPECT_EQ(allocator_stats(kCUDA).allocations, before.allocations) << "replay must not allocate";
    EXPECT_EQ(out.unsafeGetTensorImpl()->data(), addr);
    expect_same(small_model(next, w.cpu(), b.cpu()), out, 1e-5, "replay " + std::to_string(k));
  }
}

TEST(CudaGraph, HostReadUnderStreamCaptureIsRefused) {
  GFY_REQUIRE_CUDA();
  Tensor x = ones({4}, kCuda);
  gfy::cuda::CaptureSession s;
  s.begin();
  Tensor y = x + 1;
  try {
    (void)y.cpu();
    s.abort();
    FAIL() << "expected an error";
  } catch (const Error &e) {
    s.abort();
    EXPECT_NE(std::string(e.what()).find("[graphify-host-sync]"), std::string::npos) << e.what();
  }
  // The backend is usable again after the aborted capture.
  expect_same(full({4}, 2.0f), x + 1, 0, "after abort");
}

/// Runs `body` under gfy::capture on `device`; returns the CaptureError it raised.
std::optional<CaptureError> refusal(Device device, const std::function<void(const Tensor &, const Tensor &)> &body) {
  Tensor x = tensor(std::vector<float>{1, -2, 3, 0}).to(device);
  Tensor mask = tensor(std::vector<bool>{true, false, true, false}).to(device);
  try {
    gfy::capture([&] { body(x, mask); });
  } catch (const CaptureError &e) {
    return e;
  }
  return std::nullopt;
}

TEST(CudaGraph, CaptureErrorsAreTheCpuOnes) {
  GFY_REQUIRE_CUDA();
  using Body = std::function<void(const Tensor &, const Tensor &)>;
  const std::vector<std::pair<const char *, Body>> bodies = {
      {"item", [](const Tensor &x, const Tensor &) { (void)x.sum().item<float>(); }},
      {"nonzero", [](const Tensor &x, const Tensor &) { (void)x.nonzero(); }},
      {"masked_select", [](const Tensor &x, const Tensor &m) { (void)x.masked_select(m); }},
      {"bool index", [](const Tensor &x, const Tensor &m) { (void)x.index({m}); }},
      {"cpu", [](const Tensor &x, const Tensor &) { (void)x.cpu(); }},
      {"is_nonzero", [](const Tensor &x, const Tensor &) { (void)x.sum().is_nonzero(); }},
  };
  for (const auto &[name, body] : bodies) {
    const auto on_cpu = refusal(kCPU, body), on_cuda = refusal(kCUDA, body);
    ASSERT_TRUE(on_cpu.has_value()) << name << ": the CPU capture did not refuse";
    ASSERT_TRUE(on_cuda.has_value()) << name << ": the CUDA capture did not refuse";
    EXPECT_EQ(on_cpu->op(), on_cuda->op()) << name;
    EXPECT_EQ(on_cpu->line(), on_cuda->line()) << name;
    EXPECT_EQ(std::string(on_cpu->what()), std::string(on_cuda->what())) << name;
  }
}

TEST(CudaGraph, GfyCaptureReplaysCudaKernels) {
  GFY_REQUIRE_CUDA();
  Tensor x = randn({5, 7}).to(kCUDA), y = randn({5, 7}).to(kCUDA), out;
  Graph g = gfy::capture([&] { out = maximum(x * y, x - y).sum(1); });
  Tensor nx = randn({5, 7});
  x.copy_(nx.to(kCUDA));
  g.replay();
  expect_same(maximum(nx * y.cpu(), nx - y.cpu()).sum(1), out, 1e-5, "tape replay");
}

// --- gfy::capture on CUDA tensors: one CUDA graph -------------------------------------------------

TEST(GfyCapture, IsStreamCaptureIntoACudaGraph) {
  GFY_REQUIRE_CUDA();
  manual_seed(21);
  Tensor x = randn({8, 16}).to(kCUDA), w = randn({32, 16}).to(kCUDA), b = randn({32}).to(kCUDA), out;
  bool stream_capturing = false;
  // Scalar operands (* 2, + 1) are constants of the graph.
  Graph g = gfy::capture([&] {
    out = small_model(x, w, b) * 2 + 1;
    stream_capturing = gfy::cuda::is_stream_capturing();
  });
  EXPECT_TRUE(stream_capturing) << "CUDA ops under gfy::capture must be recorded by stream capture";
  EXPECT_FALSE(gfy::cuda::is_stream_capturing());
  EXPECT_GT(g.num_nodes(), 3u);
  expect_same(small_model(x.cpu(), w.cpu(), b.cpu()) * 2 + 1, out, 1e-5, "capture-time result");
  const void *addr = out.unsafeGetTensorImpl()->data();
  for (int k = 0; k < 3; ++k) {
    const Tensor next = randn({8, 16});
    x.copy_(next.to(kCUDA));
    const AllocatorStats before = allocator_stats(kCUDA);
    g.replay();
    EXPECT_EQ(allocator_stats(kCUDA).allocations, before.allocations) << "replay must not allocate";
    EXPECT_EQ(out.unsafeGetTensorImpl()->data(), addr);
    expect_same(small_model(next, w.cpu(), b.cpu()) * 2 + 1, out, 1e-5, "replay " + std::to_string(k));
  }
}

TEST(GfyCapture, TraceFreezesAHostReadOfACudaTensor) {
  GFY_REQUIRE_CUDA();
  // trace() keeps CUDA ops on its tape; a host read is a constant with a TracerWarning, as on the CPU.
  Tensor x = tensor(std::vector<float>{1, 2, 3}).to(kCUDA), out;
  Graph g = gfy::trace([&] { out = x * x.sum().item<float>(); });
  EXPECT_EQ(g.warnings().size(), 1u);
  x.copy_(tensor(std::vector<float>{1, 1, 1}).to(kCUDA));
  g.replay();
  expect_same(full({3}, 6.0f), out, 0, "the frozen sum (6) times the new x");
}

TEST(GfyCapture, CondOnACudaPredicateRunsOnlyTheTakenBranch) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_conditional_nodes()) GTEST_SKIP() << "CUDA runtime or driver older than 12.4";
  Tensor x = tensor(std::vector<float>{1, 2, 3}).to(kCUDA), out;
  // A side effect in each branch: a replay that ran both would bump both counters.
  Tensor then_runs = zeros({1}, kCuda), else_runs = zeros({1}, kCuda);
  Graph g = gfy::capture([&] {
    out = gfy::cond(
        x.sum() > 0,
        [&] {
          then_runs.add_(1);
          return x * 2;
        },
        [&] {
          else_runs.add_(1);
          return x + 2;
        });
  });
  const std::vector<std::vector<float>> inputs = {{1, 2, 3}, {-4, 1, 0}, {5, -1, -1}, {-1, -1, -1}};
  for (const std::vector<float> &v : inputs) {
    const Tensor host = tensor(v);
    x.copy_(host.to(kCUDA));
    g.replay();
    expect_same(host.sum().item<float>() > 0 ? host * 2 : host + 2, out, 0, "cond node vs eager");
    expect_same(where(host.sum() > 0, host * 2, host + 2), out, 0, "cond node vs where");
  }
  // Capture launched the graph once (x = {1, 2, 3}: then), then 2 replays took each branch.
  EXPECT_EQ(then_runs.cpu().item<float>(), 3.0f);
  EXPECT_EQ(else_runs.cpu().item<float>(), 2.0f);
}

TEST(GfyCapture, WhileLoopOnCudaStateIsAWhileNode) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_conditional_nodes()) GTEST_SKIP() << "CUDA runtime or driver older than 12.4";
  Tensor x = tensor(std::vector<float>{1, 2}).to(kCUDA), steps = zeros({1}, kCuda);
  std::vector<Tensor> result;
  Graph g = gfy::capture([&] {
    result = gfy::while_loop([](const std::vector<Tensor> &s) { return s[0].sum() < 100; },
                             [](const std::vector<Tensor> &s) { return std::vector<Tensor>{s[0] * 2, s[1] + 1}; },
                             {x, steps});
  });
  for (const std::vector<float> &v : {std::vector<float>{1, 2}, std::vector<float>{60, 50}, std::vector<float>{0.5f, 0.25f}}) {
    Tensor host = tensor(v);
    x.copy_(host.to(kCUDA));
    g.replay();
    float n = 0;
    while (host.sum().item<float>() < 100) { // the eager loop
      host = host * 2;
      ++n;
    }
    expect_same(host, result[0], 0, "while node vs eager");
    EXPECT_EQ(result[1].cpu().item<float>(), n) << "iterations";
  }
}

TEST(GfyCapture, EagerControlFlowReadsACudaPredicate) {
  GFY_REQUIRE_CUDA();
  const Tensor x = tensor(std::vector<float>{1, -5}).to(kCUDA);
  expect_same(tensor(std::vector<float>{-1, 5}), gfy::cond(x.sum() > 0, [&] { return x; }, [&] { return -x; }), 0,
              "eager cond");
  const auto out = gfy::while_loop([](const std::vector<Tensor> &s) { return s[0].sum() < 10; },
                                   [](const std::vector<Tensor> &s) { return std::vector<Tensor>{s[0] + 3}; },
                                   {ones({1}, kCuda)});
  expect_same(full({1}, 10.0f), out[0], 0, "eager while_loop");
}

TEST(GfyCapture, RefusesWorkAConditionalNodeCannotHold) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_conditional_nodes()) GTEST_SKIP() << "CUDA runtime or driver older than 12.4";
  const Tensor x = ones({2}, kCuda), h = ones({2});
  auto message = [](const std::function<void()> &fn) {
    try {
      gfy::capture(fn);
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // CPU work in a branch of a cond on a CUDA predicate.
  EXPECT_NE(message([&] { (void)gfy::cond(x.sum() > 0, [&] { return x; }, [&] { return x + (h * 2).sum().to(kCUDA); }); })
                .find("cannot run CPU ops"),
            std::string::npos);
  // CUDA work in a cond on a CPU predicate.
  EXPECT_NE(message([&] { (void)gfy::cond(h.sum() > 0, [&] { return x * 2; }, [&] { return x; }); })
                .find("compute the predicate on the device"),
            std::string::npos);
  // The backend is usable, and not capturing, after each refusal.
  EXPECT_FALSE(gfy::cuda::is_stream_capturing());
  expect_same(full({2}, 2.0f), x + 1, 0, "after the refusals");
}

// --- conditional nodes ---------------------------------------------------------------------------

TEST(CudaConditional, IfNodeMatchesEagerAndWhere) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_conditional_nodes()) GTEST_SKIP() << "CUDA runtime or driver older than 12.4";
  Tensor x = tensor(std::vector<float>{1, 2, 3}).to(kCUDA);
  Tensor out = empty({3}, kCuda);
  gfy::cuda::CaptureSession s;
  s.begin();
  Tensor pred = x.sum() > 0;
  gfy::cuda::capture_if(pred, [&] { out.copy_(x * 2); }, [&] { out.copy_(x + 2); });
  s.end();
  for (const std::vector<float> &v : {std::vector<float>{1, 2, 3}, std::vector<float>{-4, 1, 0}, std::vector<float>{5, -1, -1}}) {
    const Tensor host = tensor(v);
    x.copy_(host.to(kCUDA));
    s.replay();
    const Tensor eager = host.sum().item<float>() > 0 ? host * 2 : host + 2;
    const Tensor where_form = where(host.sum() > 0, host * 2, host + 2);
    expect_same(eager, out, 0, "if node vs eager");
    expect_same(where_form, out, 0, "if node vs where");
  }
}

TEST(CudaConditional, WhileNodeMatchesEager) {
  GFY_REQUIRE_CUDA();
  if (!gfy::cuda::has_conditional_nodes()) GTEST_SKIP() << "CUDA runtime or driver older than 12.4";
  Tensor x = tensor(std::vector<float>{1, 2}).to(kCUDA);
  Tensor state = empty({2}, kCuda);
  gfy::cuda::CaptureSession s;
  s.begin();
  state.copy_(x);
  gfy::cuda::capture_while([&] { return state.sum() < 100; }, [&] { state.copy_(state * 2); });
  s.end();
  for (const std::vector<float> &v : {std::vector<float>{1, 2}, std::vector<float>{60, 50}, std::vector<float>{0.5f, 0.25f}}) {
    Tensor host = tensor(v);
    x.copy_(host.to(kCUDA));
    s.replay();
    while (host.sum().item<float>() < 100) host = host * 2; // the eager loop
    expect_same(host, state, 0, "while node vs eager");
  }
}

TEST(CudaConditional, OutsideCaptureIsAnError) {
  GFY_REQUIRE_CUDA();
  Tensor p = ones({1}, kCuda);
  EXPECT_THROW(gfy::cuda::capture_if(p, [] {}, [] {}), Error);
}

} // namespace
