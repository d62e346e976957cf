// Captured training steps: forward, backward and the optimizer's update captured once with
// gfy::capture and replayed on fresh batches must update the parameters exactly as the same
// steps run eagerly (the backward pass and the update are ordinary runtime ops on the tape).
#include "TestUtil.h"

namespace {

using namespace gfy;

/// A small LSTM language model in the seed's style: embedding, one LSTM layer from fine-grained
/// ops, projection, log_softmax, nll_loss.
struct TinyLm {
  Tensor emb, w_i, w_h, b, w_out, b_out;
  explicit TinyLm(uint64_t seed) {
    manual_seed(seed);
    emb = randn({11, 4}).requires_grad_();
    w_i = (randn({4, 24}) * 0.3).requires_grad_();
    w_h = (randn({6, 24}) * 0.3).requires_grad_();
    b = zeros({24}).requires_grad_();
    w_out = (randn({6, 11}) * 0.3).requires_grad_();
    b_out = zeros({11}).requires_grad_();
  }
  std::vector<Tensor> parameters() const { return {emb, w_i, w_h, b, w_out, b_out}; }
  Tensor loss(const Tensor &ids, const Tensor &targets) const {
    const int64_t B = ids.size(0), T = ids.size(1);
    Tensor x = embedding(emb, ids); // (B, T, 4)
    Tensor h = zeros({B, 6}), c = zeros({B, 6});
    std::vector<Tensor> hs;
    for (int64_t t = 0; t < T; ++t) {
      auto g = (matmul(x.select(1, t), w_i) + matmul(h, w_h) + b).chunk(4, 1);
      c = sigmoid(g[1]) * c + sigmoid(g[0]) * tanh(g[2]);
      h = sigmoid(g[3]) * tanh(c);
      hs.push_back(h);
    }
    Tensor logp = log_softmax(matmul(stack(hs, 1).reshape({B * T, 6}), w_out) + b_out, 1);
    return nn::functional::nll_loss(logp, targets.reshape({-1}));
  }
};

Tensor batch(int64_t i) { return remainder(arange(12).view({3, 4}) * (i + 3) + i, 11); }

template <class Opt>
void check_captured_training_matches_eager(const std::function<std::unique_ptr<Opt>(std::vector<Tensor>)> &make) {
  TinyLm eager(7), captured(7);
  std::unique_ptr<Opt> eager_ptr = make(eager.parameters()), captured_ptr = make(captured.parameters());
  Opt &eager_opt = *eager_ptr, &captured_opt = *captured_ptr;
  auto step = [](TinyLm &m, Opt &opt, const Tensor &ids, const Tensor &tgt) {
    opt.zero_grad();
    Tensor loss = m.loss(ids, tgt);
    loss.backward();
    opt.step();
    return loss;
  };
  // Warm-up step, eagerly on both: creates the gradients and the optimizer state.
  step(eager, eager_opt, batch(0), batch(1));
  step(captured, captured_opt, batch(0), batch(1));
  Tensor ids = batch(1).clone(), tgt = batch(2).clone(), loss;
  Graph g = capture([&] { loss = step(captured, captured_opt, ids, tgt); }, CaptureOptions{.optimize = false});
  Tensor eager_loss = step(eager, eager_opt, batch(1), batch(2)); // the step capture ran
  EXPECT_NEAR(loss.item<double>(), eager_loss.item<double>(), 1e-6);
  for (int64_t i = 2; i < 7; ++i) {
    ids.copy_(batch(i));
    tgt.copy_(batch(i + 1));
    g.replay();
    eager_loss = step(eager, eager_opt, batch(i), batch(i + 1));
    EXPECT_NEAR(loss.item<double>(), eager_loss.item<double>(), 1e-6) << "step " << i;
  }
  auto pe = eager.parameters(), pc = captured.parameters();
  for (size_t k = 0; k < pe.size(); ++k) {
    auto a = gfy::testing::values(pe[k]), b = gfy::testing::values(pc[k]);
    for (size_t j = 0; j < a.size(); ++j) ASSERT_NEAR(a[j], b[j], 1e-6) << "parameter " << k << " element " << j;
  }
}

TEST(TrainingCapture, SgdMomentumReplayMatchesEagerStepForStep) {
  check_captured_training_matches_eager<optim::SGD>(
      [](std::vector<Tensor> p) { return std::make_unique<optim::SGD>(std::move(p), optim::SGDOptions(0.5).momentum(0.9)); });
}

TEST(TrainingCapture, AdamReplayMatchesEagerStepForStep) {
  check_captured_training_matches_eager<optim::Adam>(
      [](std::vector<Tensor> p) { return std::make_unique<optim::Adam>(std::move(p), optim::AdamOptions(0.01)); });
}

TEST(TrainingCapture, OptimizedReplayStaysCloseToEager) {
  // With the post-capture optimizations (fused GEMM sums, elementwise fusion) the additions may
  // be reordered; the parameters still follow the eager ones closely over several steps.
  TinyLm eager(3), captured(3);
  optim::SGD eo(eager.parameters(), optim::SGDOptions(0.5).momentum(0.9));
  optim::SGD co(captured.parameters(), optim::SGDOptions(0.5).momentum(0.9));
  auto step = [](TinyLm &m, optim::SGD &opt, const Tensor &ids, const Tensor &tgt) {
    opt.zero_grad();
    Tensor loss = m.loss(ids, tgt);
    loss.backward();
    opt.step();
    return loss;
  };
  step(eager, eo, batch(0), batch(1));
  step(captured, co, batch(0), batch(1));
  Tensor ids = batch(1).clone(), tgt = batch(2).clone(), loss;
  Graph g = capture([&] { loss = step(captured, co, ids, tgt); });
  step(eager, eo, batch(1), batch(2));
  for (int64_t i = 2; i < 6; ++i) {
    ids.copy_(batch(i));
    tgt.copy_(batch(i + 1));
    g.replay();
    step(eager, eo, batch(i), batch(i + 1));
  }
  auto pe = eager.parameters(), pc = captured.parameters();
  for (size_t k = 0; k < pe.size(); ++k) gfy::testing::expect_near(pc[k], gfy::testing::values(pe[k]), 1e-4);
}

TEST(TrainingCapture, ReplayDoesNotAllocate) {
  TinyLm m(5);
  optim::SGD opt(m.parameters(), optim::SGDOptions(0.1).momentum(0.9));
  auto step = [&](const Tensor &ids, const Tensor &tgt) {
    opt.zero_grad();
    m.loss(ids, tgt).backward();
    opt.step();
  };
  step(batch(0), batch(1));
  Tensor ids = batch(1).clone(), tgt = batch(2).clone();
  Graph g = capture([&] { step(ids, tgt); });
  g.replay();
  const auto before = allocator_stats().allocations;
  g.replay();
  EXPECT_EQ(allocator_stats().allocations, before);
}

} // namespace
