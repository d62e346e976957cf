// nn modules: registration, names, handles, layers and the LSTM against a hand-rolled cell.
#include "TestUtil.h"

#include <graphify/nn/Activations.h>
#include <graphify/nn/Containers.h>
#include <graphify/nn/Dropout.h>
#include <graphify/nn/Flatten.h>
#include <graphify/nn/Functional.h>
#include <graphify/nn/Loss.h>

#include <cmath>

using namespace gfy;
using namespace gfy::testing;

namespace {
struct NetImpl : nn::Module {
  NetImpl() : fc1(register_module("fc1", nn::Linear(4, 8))), fc2(register_module("fc2", nn::Linear(nn::LinearOptions(8, 2).bias(false)))) {
    scale = register_parameter("scale", ones({1}));
    register_buffer("steps", zeros({1}, kLong));
  }
  Tensor forward(const Tensor &x) { return fc2(relu(fc1(x))) * scale; }
  nn::Linear fc1, fc2;
  Tensor scale;
};
GFY_MODULE(Net);
} // namespace

TEST(Module, RegistrationAndNames) {
  Net net;
  auto names = net->named_parameters().keys();
  EXPECT_EQ(names, (std::vector<std::string>{"scale", "fc1.weight", "fc1.bias", "fc2.weight"}));
  EXPECT_EQ(net->parameters().size(), 4u);
  EXPECT_EQ(net->named_buffers().keys(), (std::vector<std::string>{"steps"}));
  EXPECT_SHAPE(net(ones({3, 4})), {3, 2});
  EXPECT_SHAPE(net->forward(ones({3, 4})), {3, 2});
  EXPECT_TRUE(net->is_training());
  net->eval();
  EXPECT_FALSE(net->fc1->is_training());
  // Parameters are shared handles.
  {
    NoGradGuard no_grad; // a parameter is a leaf that requires grad, as in LibTorch
    net->named_parameters()["scale"].fill_(2);
  }
  EXPECT_EQ(net->scale.item<float>(), 2.f);
  net->to(kDouble);
  EXPECT_EQ(net->fc1->weight.scalar_type(), kDouble);
  EXPECT_EQ(net(ones({1, 4}, kDouble)).scalar_type(), kDouble);
  Net empty(nullptr);
  EXPECT_TRUE(empty.is_empty());
  EXPECT_THROW(net->register_parameter("scale", ones({1})), Error);
}

TEST(Layers, LinearEmbeddingLayerNorm) {
  manual_seed(0);
  nn::Linear fc(3, 2);
  EXPECT_SHAPE(fc->weight, {2, 3});
  EXPECT_LE(fc->weight.abs().max().item<float>(), 1.f / std::sqrt(3.f));
  Tensor x = randn({5, 3});
  EXPECT_TRUE(allclose(fc(x), matmul(x, fc->weight.t()) + fc->bias));
  nn::Embedding emb(10, 4);
  EXPECT_SHAPE(emb(tensor({1, 2, 3}).view({1, 3})), {1, 3, 4});
  EXPECT_TRUE(equal(emb(tensor({7})).squeeze(0), emb->weight[7]));
  nn::LayerNorm ln(std::vector<int64_t>{4});
  Tensor y = ln(randn({2, 4}) * 10 + 3);
  EXPECT_NEAR(y.mean().item<float>(), 0.f, 1e-5);
  nn::LayerNorm ln2(nn::LayerNormOptions({4}).eps(1e-3).elementwise_affine(false));
  EXPECT_EQ(ln2->parameters().size(), 0u);
}

TEST(Layers, LstmMatchesAHandWrittenCell) {
  manual_seed(3);
  const int64_t T = 4, B = 2, I = 3, H = 5;
  nn::LSTM lstm(nn::LSTMOptions(I, H).num_layers(2));
  EXPECT_EQ(lstm->named_parameters().keys(),
            (std::vector<std::string>{"weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l1",
                                      "weight_hh_l1", "bias_ih_l1", "bias_hh_l1"}));
  Tensor x = randn({T, B, I});
  auto [out, state] = lstm(x);
  auto [hn, cn] = state;
  EXPECT_SHAPE(out, {T, B, H});
  EXPECT_SHAPE(hn, {2, B, H});
  // Reference: the textbook cell, one step at a time.
  auto p = lstm->named_parameters();
  Tensor in = x;
  for (int l = 0; l < 2; ++l) {
    const std::string s = std::to_string(l);
    Tensor h = zeros({B, H}), c = zeros({B, H});
    std::vector<Tensor> outs;
    for (int64_t t = 0; t < T; ++t) {
      Tensor g = matmul(in[t], p["weight_ih_l" + s].t()) + p["bias_ih_l" + s] + matmul(h, p["weight_hh_l" + s].t()) +
                 p["bias_hh_l" + s];
      auto ch = g.chunk(4, 1);
      c = sigmoid(ch[1]) * c + sigmoid(ch[0]) * tanh(ch[2]);
      h = sigmoid(ch[3]) * tanh(c);
      outs.push_back(h);
    }
    in = stack(outs);
    EXPECT_TRUE(allclose(hn[l], h, 1e-5, 1e-6));
    EXPECT_TRUE(allclose(cn[l], c, 1e-5, 1e-6));
  }
  EXPECT_TRUE(allclose(out, in, 1e-5, 1e-6));
  // batch_first and explicit state.
  nn::LSTM bf(nn::LSTMOptions(I, H).batch_first(true));
  auto r = bf(randn({B, T, I}), std::make_tuple(zeros({1, B, H}), zeros({1, B, H})));
  EXPECT_SHAPE(std::get<0>(r), {B, T, H});
}

TEST(Layers, LstmLanguageModelCapturesAndReplays) {
  manual_seed(5);
  nn::Embedding emb(50, 8);
  nn::LSTM lstm(nn::LSTMOptions(8, 16).num_layers(2));
  nn::Linear head(16, 50);
  auto model = [&](const Tensor &tokens) { return head(std::get<0>(lstm(emb(tokens)))); };
  Tensor tokens = randint(50, {6, 3});
  Tensor out;
  NoGradGuard no_grad;
  (void)no_grad;
  Graph g = capture([&] { out = model(tokens); });
  Tensor fresh = randint(50, {6, 3});
  tokens.copy_(fresh);
  const auto before = allocator_stats();
  g.replay();
  EXPECT_EQ(allocator_stats().allocations, before.allocations);
  EXPECT_TRUE(allclose(out, model(fresh), 1e-5, 1e-6));
}

// --- containers, activation modules, functional and losses ------------------------------------
// Values are checked against LibTorch by tests/differential; these cover the gfy-only behaviour
// (error messages, nesting, capture) and run where LibTorch is not installed.

TEST(Containers, SequentialRegistersDottedNames) {
  struct HostImpl : nn::Module {
    HostImpl() { seq = register_module("seq", nn::Sequential(nn::Linear(2, 3), nn::ReLU(), nn::Linear(3, 1))); }
    nn::Sequential seq{nullptr};
  };
  auto host = std::make_shared<HostImpl>();
  EXPECT_EQ(host->named_parameters().keys(),
            (std::vector<std::string>{"seq.0.weight", "seq.0.bias", "seq.2.weight", "seq.2.bias"}));
  EXPECT_EQ(host->named_modules().keys(), (std::vector<std::string>{"", "seq", "seq.0", "seq.1", "seq.2"}));
  EXPECT_SHAPE(host->seq->forward(ones({4, 2})), {4, 1});
  EXPECT_NE(host->seq[0]->as<nn::Linear>(), nullptr);
  EXPECT_EQ(host->seq[1]->as<nn::Linear>(), nullptr);
  host->eval();
  EXPECT_FALSE(host->seq->ptr(1)->is_training());
}

TEST(Containers, SequentialErrorsAndNesting) {
  nn::Sequential empty;
  EXPECT_THROW(empty->forward(ones({1})), Error);
  nn::Sequential seq(nn::Linear(2, 2), nn::Tanh());
  EXPECT_THROW(seq->ptr(2), Error);
  EXPECT_THROW(seq->ptr<nn::LinearImpl>(1), Error);
  // Unlike LibTorch, a Sequential nests in a Sequential (its forward is Tensor -> Tensor here).
  seq->push_back(nn::Sequential(nn::Linear(2, 1), nn::Sigmoid()));
  EXPECT_SHAPE(seq->forward(ones({3, 2})), {3, 1});
  // A module without forward(Tensor) -> Tensor can be held, but not chained.
  seq->push_back(nn::LSTM(1, 1));
  EXPECT_THROW(seq->forward(ones({3, 2})), Error);
}

TEST(Containers, ModuleList) {
  nn::ModuleList list(nn::Linear(2, 2), nn::ReLU());
  list->push_back(nn::Linear(2, 1));
  EXPECT_EQ(list->size(), 3u);
  EXPECT_EQ(list->named_parameters().keys(), (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  EXPECT_EQ(list->ptr<nn::LinearImpl>(1), nullptr);
  EXPECT_THROW(list->at<nn::LinearImpl>(1), Error);
  EXPECT_THROW(list[3], Error);
  int linears = 0;
  for (const auto &m : *list) linears += m->as<nn::Linear>() != nullptr;
  EXPECT_EQ(linears, 2);
}

TEST(Containers, SequentialCapturesAndReplays) {
  nn::Sequential seq(nn::Linear(3, 4), nn::GELU(), nn::Dropout(0.5), nn::Linear(4, 2), nn::LogSoftmax(1));
  seq->eval();
  Tensor x = randn({2, 3}), out;
  Graph g = capture([&] { out = seq->forward(x); });
  Tensor x2 = randn({2, 3});
  x.copy_(x2);
  g.replay();
  EXPECT_TRUE(out.allclose(seq->forward(x2)));
}

TEST(Functional, OptionsAndLosses) {
  namespace F = nn::functional;
  Tensor x = tensor({-1.f, 0.f, 2.f});
  EXPECT_VALUES(F::relu(x), {0, 0, 2});
  EXPECT_VALUES(F::dropout(x, F::DropoutFuncOptions().training(false)), {-1, 0, 2});
  EXPECT_THROW(F::dropout(x, F::DropoutFuncOptions().p(2)), Error);
  expect_near(F::normalize(tensor({3.f, 4.f}).view({1, 2})), {0.6, 0.8});
  EXPECT_LONGS(F::one_hot(tensor({int64_t(1), int64_t(0)}), 3), {0, 1, 0, 1, 0, 0});
  Tensor logits = zeros({2, 4});
  Tensor target = tensor({int64_t(1), int64_t(3)});
  expect_near(F::cross_entropy(logits, target), {std::log(4.0)});
  expect_near(F::nll_loss(logits, target, F::NLLLossFuncOptions().reduction(kSum)), {0.0});
  expect_near(F::mse_loss(x, zeros({3}), F::MSELossFuncOptions(kNone)), {1, 0, 4});
  // Every target ignored: the mean divides 0 by 0, as LibTorch.
  Tensor all_ignored = tensor({int64_t(1), int64_t(1)});
  EXPECT_TRUE(std::isnan(F::nll_loss(logits, all_ignored, F::NLLLossFuncOptions().ignore_index(1)).item<float>()));
  EXPECT_THROW(F::nll_loss(tensor({0.f}), tensor({int64_t(0)})), Error);
}

TEST(Composites, RoundingStatisticsRearrangements) {
  Tensor x = tensor({-2.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3e9f}); // 3e9: beyond int32, still exact
  EXPECT_VALUES(x.round(), {-2, -0, 0, 2, 2, 3e9});
  EXPECT_VALUES(x.floor(), {-3, -1, 0, 1, 2, 3e9});
  EXPECT_VALUES(x.ceil(), {-2, -0, 1, 2, 3, 3e9});
  expect_near(tensor({1.f, 2.f, 3.f, 4.f}).var(), {5.0 / 3});
  EXPECT_THROW(arange(3).var(), Error);
  EXPECT_VALUES(arange(3).repeat({2}), {0, 1, 2, 0, 1, 2});
  EXPECT_VALUES(arange(4).roll(1), {3, 0, 1, 2});
  EXPECT_VALUES(arange(3).flip({0}), {2, 1, 0});
  EXPECT_VALUES(ones({2, 2}).triu(1), {0, 1, 0, 0});
  EXPECT_THROW(ones({2}).tril(), Error);
}
