// LibTorch's autograd semantics: leaves and non-leaves, accumulation, retain_graph, grad(),
// guards, detach, version checks, and the errors (LibTorch's messages) for what it refuses. The
// same behaviours are checked against LibTorch itself by tests/differential.
#include "TestUtil.h"
#include "autograd/Derivatives.h"

#include <cmath>

namespace {

using namespace gfy;
using gfy::testing::values;

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

TEST(AutogradSemantics, LeavesAndNonLeaves) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor y = x * 3;
  EXPECT_TRUE(x.is_leaf());
  EXPECT_TRUE(x.requires_grad());
  EXPECT_EQ(x.grad_fn(), nullptr);
  EXPECT_FALSE(y.is_leaf());
  ASSERT_NE(y.grad_fn(), nullptr);
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  EXPECT_FALSE(x.grad().defined()); // undefined until backward
  Tensor plain = tensor({1.f});
  EXPECT_FALSE(plain.requires_grad());
  EXPECT_FALSE((plain * 2).requires_grad());
  EXPECT_FALSE((x > 1).requires_grad()); // bool outputs never require grad
}

TEST(AutogradSemantics, AccumulatesAcrossBackwardCalls) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  (x * x).sum().backward();
  EXPECT_VALUES(x.grad(), {2, 4});
  (x * 3).sum().backward();
  EXPECT_VALUES(x.grad(), {5, 7});
}

TEST(AutogradSemantics, SecondBackwardNeedsRetainGraph) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();
  EXPECT_VALUES(x.grad(), {4, 8});
  EXPECT_NE(error_of([&] { y.backward(); }).find("Trying to backward through the graph a second time"),
            std::string::npos);
}

TEST(AutogradSemantics, Errors) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  EXPECT_EQ(error_of([&] { (x * 2).backward(); }), "grad can be implicitly created only for scalar outputs");
  EXPECT_EQ(error_of([&] { tensor({1.f}).sum().backward(); }),
            "element 0 of tensors does not require grad and does not have a grad_fn");
  EXPECT_EQ(error_of([&] { x.add_(1); }), "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(error_of([&] { (x * 2).requires_grad_(); }), ""); // already requires grad: a no-op
  EXPECT_NE(error_of([&] { (x * 2).requires_grad_(false); }).find("you can only change requires_grad flags of leaf variables."),
            std::string::npos);
  EXPECT_EQ(error_of([&] { tensor({1, 2}).requires_grad_(); }),
            "Only Tensors of floating point and complex dtype can require gradients");
  EXPECT_EQ(error_of([&] { autograd::grad({(x * 2).sum()}, {tensor({1.f})}); }),
            "One of the differentiated Tensors does not require grad");
  Tensor unused = tensor({1.f}).requires_grad_();
  EXPECT_NE(error_of([&] { autograd::grad({(x * 2).sum()}, {unused}); }).find("appears to not have been used"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (x * x).sum().backward({}, std::nullopt, /*create_graph=*/true); }).find("not supported"),
            std::string::npos);
  // An op without a derivative (ops.def: derivative_not_implemented) refuses at once, with the
  // op's name; LibTorch 1.13 records one that throws the same in backward().
  EXPECT_EQ(error_of([&] { floor_divide(x, 2); }), "the derivative for 'floor_divide' is not implemented.");
}

TEST(AutogradSemantics, EveryDifferentiableOpHasADerivative) {
  // Each ops.def op has an entry in the kernel derivative table exactly when ops.def declares
  // none of no_derivative, front_end_derivative, derivative_not_implemented: a new op without a
  // derivative fails here until its row says why.
  for (int i = 0; i < kNumOps; ++i) {
    const OpId op = OpId(i);
    const bool in_table = gfy::autograd::detail::kernel_derivative(op).defined;
    EXPECT_EQ(in_table, op_derivative(op) == OpDerivative::formula)
        << op_name(op) << (in_table ? " has a derivative in src/autograd/Derivatives.cpp and a derivative trait in ops.def"
                                    : " has neither a derivative in src/autograd/Derivatives.cpp nor a derivative "
                                      "trait in ops.def");
  }
  // A declared no_derivative op's outputs carry no gradient.
  Tensor x = tensor({1.f, -2.f, 3.f}).requires_grad_();
  EXPECT_FALSE((x > 0).requires_grad());
  EXPECT_FALSE(x.isnan().requires_grad());
  EXPECT_FALSE(x.nonzero().requires_grad());
  // A front-end derivative is recorded by its front-end.
  EXPECT_TRUE(x.gather(0, tensor({2, 0})).requires_grad());
  EXPECT_TRUE(zeros({3}).scatter(0, tensor({2, 0}), x).requires_grad());
}

TEST(AutogradSemantics, InPlaceOnSavedTensorIsDetected) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor y = x.sigmoid();
  Tensor z = y.sum();
  y.mul_(2);
  EXPECT_NE(error_of([&] { (y * x).sum().backward(); }).find("modified by an inplace operation"), std::string::npos);
  (void)z;
}

TEST(AutogradSemantics, NoGradGuardAndAutoGradMode) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  {
    NoGradGuard g;
    EXPECT_FALSE(GradMode::is_enabled());
    Tensor y = x * 2;
    EXPECT_FALSE(y.requires_grad());
    x.add_(1); // in-place on a leaf is allowed without grad mode (an optimizer's update)
    {
      AutoGradMode on(true);
      EXPECT_TRUE((x * 2).requires_grad());
    }
  }
  EXPECT_TRUE(GradMode::is_enabled());
  EXPECT_VALUES(x, {2, 3});
}

TEST(AutogradSemantics, DetachAndDetachInPlace) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor d = (x * 2).detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  Tensor y = x * 2;
  y.detach_();
  EXPECT_FALSE(y.requires_grad());
  EXPECT_FALSE(x.data().requires_grad());
}

TEST(AutogradSemantics, GradReturnsWithoutTouchingLeaves) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor w = tensor({3.f, 4.f}).requires_grad_();
  auto g = autograd::grad({(x * w).sum()}, {x, w});
  EXPECT_VALUES(g[0], {3, 4});
  EXPECT_VALUES(g[1], {1, 2});
  EXPECT_FALSE(x.grad().defined());
  // A non-leaf input: the gradient that reaches it.
  Tensor h = x * 2;
  EXPECT_VALUES(autograd::grad({(h * h).sum()}, {h})[0], {4, 8});
}

TEST(AutogradSemantics, RetainGradOnNonLeaf) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor h = x * 2;
  h.retain_grad();
  (h * h).sum().backward();
  EXPECT_VALUES(h.grad(), {4, 8});
  EXPECT_VALUES(x.grad(), {8, 16});
}

TEST(AutogradSemantics, InPlaceOnNonLeafRebasesHistory) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor y = x * 1;
  y.mul_(x); // y = x * x, saved x is the old value of y's storage? no: x itself
  y.exp_();
  y.sum().backward();
  EXPECT_NEAR(values(x.grad())[0], 2 * 1 * std::exp(1.0), 1e-4);
  EXPECT_EQ(y.grad_fn()->name(), "ExpBackward0");
}

TEST(AutogradSemantics, InPlaceIntoViewWithGradIsRefused) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor buf = zeros({2, 2});
  EXPECT_NE(error_of([&] { buf.select(0, 0).copy_(x); }).find("writes a view"), std::string::npos);
}

// `x = bn(x); x += residual;`: the result of a reshaping op is a view whose base is gone, so the
// write is an ordinary in-place op, even though the launch reads x through its own broadcast view.
TEST(AutogradSemantics, InPlaceIntoViewThatAloneHoldsItsStorage) {
  Tensor x = tensor({1.f, 2.f, 3.f, 4.f}).requires_grad_();
  Tensor r = tensor({10.f, 20.f}).requires_grad_();
  Tensor y = (x * x).view({2, 2});
  ASSERT_TRUE(y.is_view());
  y += r; // r broadcasts over y's rows
  y.mul_(2);
  y.sum().backward();
  EXPECT_VALUES(x.grad(), {4, 8, 12, 16});
  EXPECT_VALUES(r.grad(), {4, 4});
  // A second live view of the same storage could observe the write: still refused.
  Tensor z = (x * 1).view({2, 2});
  Tensor alias = z.view({4});
  EXPECT_NE(error_of([&] { z += r; }).find("writes a view"), std::string::npos);
}

TEST(AutogradSemantics, ModuleParametersRequireGrad) {
  nn::Linear lin(3, 2);
  for (const Tensor &p : lin->parameters()) EXPECT_TRUE(p.requires_grad());
  lin(randn({4, 3})).sum().backward();
  EXPECT_TRUE(lin->weight.grad().defined());
  lin->zero_grad();
  EXPECT_VALUES(lin->bias.grad(), {0, 0});
  lin->zero_grad(/*set_to_none=*/true);
  EXPECT_FALSE(lin->bias.grad().defined());
  lin->to(kDouble);
  EXPECT_TRUE(lin->weight.requires_grad());
  EXPECT_TRUE(lin->weight.is_leaf());
}

TEST(AutogradSemantics, GradientKeepsTheInputDtype) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  (x.to(kDouble) * 3).sum().backward();
  EXPECT_EQ(x.grad().scalar_type(), kFloat);
  EXPECT_VALUES(x.grad(), {3, 3});
}

TEST(AutogradSemantics, RequiresGradOption) {
  Tensor x = ones({2}, TensorOptions().requires_grad(true));
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_TRUE(zeros_like(x, TensorOptions().requires_grad(true)).requires_grad());
  EXPECT_FALSE(zeros_like(x).requires_grad());
}

TEST(Optimizers, SgdMomentumMatchesTheFormula) {
  Tensor p = tensor({1.f, -2.f}).requires_grad_();
  optim::SGD sgd({p}, optim::SGDOptions(0.1).momentum(0.9).weight_decay(0.01));
  std::vector<double> ref = {1, -2}, buf(2);
  for (int step = 0; step < 3; ++step) {
    sgd.zero_grad();
    (p * p).sum().backward();
    sgd.step();
    for (int i = 0; i < 2; ++i) {
      const double g = 2 * ref[size_t(i)] + 0.01 * ref[size_t(i)];
      buf[size_t(i)] = step == 0 ? g : 0.9 * buf[size_t(i)] + g;
      ref[size_t(i)] -= 0.1 * buf[size_t(i)];
    }
  }
  gfy::testing::expect_near(p, ref, 1e-5);
}

TEST(Optimizers, AdamMatchesTheFormula) {
  Tensor p = tensor({1.f, -2.f}).requires_grad_();
  optim::Adam adam({p}, optim::AdamOptions(0.1));
  std::vector<double> ref = {1, -2}, m(2), v(2);
  for (int step = 1; step <= 3; ++step) {
    adam.zero_grad();
    (p * p).sum().backward();
    adam.step();
    for (size_t i = 0; i < 2; ++i) {
      const double g = 2 * ref[i];
      m[i] = 0.9 * m[i] + 0.1 * g;
      v[i] = 0.999 * v[i] + 0.001 * g * g;
      const double bc1 = 1 - std::pow(0.9, step), bc2 = 1 - std::pow(0.999, step);
      ref[i] -= 0.1 / bc1 * m[i] / (std::sqrt(v[i]) / std::sqrt(bc2) + 1e-8);
    }
  }
  gfy::testing::expect_near(p, ref, 1e-5);
  EXPECT_EQ(static_cast<optim::AdamParamState &>(*adam.state().begin()->second).step(), 3);
}

} // namespace

// View + inplace: a view made before its base is written in place follows the base's new history
// (its grad_fn becomes AsStridedBackward0 of the base's), as LibTorch.
TEST(AutogradSemantics, ViewFollowsItsBaseWrittenInPlace) {
  Tensor x = tensor({1.f, 2.f, 3.f, 4.f}).requires_grad_();
  Tensor y = x * 1;
  Tensor v = y.view({2, 2});
  y.mul_(2);
  v.sum().backward();
  EXPECT_VALUES(x.grad(), {2, 2, 2, 2});
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");

  // Slices, views of views and expanded views, once the base handle is gone too.
  Tensor a = tensor({1.f, 2.f, 3.f}).requires_grad_();
  Tensor s, e;
  {
    Tensor b = a * 1;
    s = b.view({3, 1}).select(1, 0).slice(0, 1, 3);
    e = b.expand({2, 3});
    b.mul_(a); // b = a * a
  }
  (s.sum() + e.sum()).backward();
  // s: d(a1^2 + a2^2); e: 2 * d(sum a^2)
  EXPECT_VALUES(a.grad(), {4, 12, 18});
}

TEST(AutogradSemantics, ViewKeepsItsHistoryWhenTheBaseIsWrittenWithoutGrad) {
  Tensor x = tensor({1.f, 2.f}).requires_grad_();
  Tensor y = x * 3;
  Tensor v = y.view({2, 1});
  {
    NoGradGuard no_grad;
    y.mul_(2);
  }
  v.sum().backward();
  EXPECT_VALUES(x.grad(), {3, 3});
}

// The base's state is held by its views, and views are what nodes save: the runtime must not let
// base -> grad_fn -> saved view -> base become a cycle that is never freed.
TEST(AutogradSemantics, ViewOfBaseWrittenInPlaceLeavesNoCycle) {
  std::weak_ptr<autograd::Node> fn;
  std::weak_ptr<TensorImpl> base;
  {
    Tensor x = tensor({3.f, 4.f}).requires_grad_();
    Tensor y = x * 1;
    Tensor n = y.view({2, 1}).norm();
    y.div_(n);
    fn = y.grad_fn();
    base = y.impl();
    EXPECT_FALSE(fn.expired());
  }
  EXPECT_TRUE(fn.expired());
  EXPECT_TRUE(base.expired());
}

// An input whose value only the other input's gradient reads is saved only when that input needs
// one (found by tests/differential/fuzz_aliasing.cpp): `y = x * 2; x.add_(1)` keeps y's backward.
TEST(AutogradSemantics, InputSavedOnlyForTheOtherInputsGradient) {
  Tensor w = tensor({1.f, 2.f}).requires_grad_();
  Tensor x = w * 1;
  Tensor y = x * 2;
  Tensor z = x / tensor({4.f, 8.f});
  x.add_(1);
  (y.sum() + z.sum()).backward();
  EXPECT_VALUES(w.grad(), {2.25, 2.125});
  Tensor c = tensor({3.f, 4.f}).requires_grad_();
  Tensor x2 = w * 1;
  Tensor y2 = x2 * c;
  x2.add_(1);
  EXPECT_NE(error_of([&] { y2.sum().backward(); }).find("modified by an inplace operation"), std::string::npos);
}

// reshape that copies returns no view (LibTorch's _unsafe_view), so writing it in place while
// autograd records is an ordinary in-place op (found by tests/differential/fuzz_aliasing.cpp).
TEST(AutogradSemantics, ReshapeThatCopiesIsNoView) {
  Tensor w = tensor({1.f, 2.f}).requires_grad_();
  Tensor r = (w * 1).expand({2, 2}).reshape({-1});
  EXPECT_FALSE(r.is_view());
  r.mul_(3);
  r.sum().backward();
  EXPECT_VALUES(w.grad(), {6, 6});
}
