// Differential cases where LibTorch raises and a runtime that did not would be silently wrong
// (issue #32): writes whose output overlaps an input partially (ATen's MemOverlap rule), class
// targets outside [0, C) in nll_loss / cross_entropy, and gradients through a view whose base was
// written in place after the view was made ("view + inplace": the view's grad_fn is rebuilt over
// the base's new history). Each error case has a neighbour that must keep working.
#include "dump_main.h"

#include <vector>

namespace {

using diff::Out;
using diff::S;

/// 0.5, 1.0, 1.5, ... with a sign pattern, float: values that show a wrong read at once.
torch::Tensor seq(const std::vector<int64_t>& shape, double offset = 0.0) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  auto flat = torch::arange(n, torch::dtype(torch::kFloat)) * 0.5 + offset;
  auto sign = 1.0 - 2.0 * (torch::remainder(torch::arange(n), 3) == 1).to(torch::kFloat);
  // clone: a tensor of its own, not a view of a temporary. (A leaf that is a view of a tensor
  // without grad loses, in LibTorch, the gradients of its own views once it is written in place
  // under NoGradGuard: their history is rebuilt over that base, which has none.)
  return (flat * sign).reshape(shape).clone();
}

torch::Tensor leaf(const std::vector<int64_t>& shape, double offset = 0.0) {
  return seq(shape, offset).requires_grad_();
}

}  // namespace

// --- memory overlap: partial overlap raises, full overlap and disjoint views do not -------------
DIFF_CASE(overlap_copy_shifted_slice_errors) {
  auto a = seq({6});
  a.slice(0, 1, 6).copy_(a.slice(0, 0, 5));
  return a;
}
DIFF_CASE(overlap_add_shifted_slice_errors) {
  auto a = seq({6});
  a.slice(0, 1, 6).add_(a.slice(0, 0, 5));
  return a;
}
DIFF_CASE(overlap_mul_transpose_errors) {
  auto b = seq({2, 2});
  b.mul_(b.t());
  return b;
}
DIFF_CASE(overlap_unary_out_of_place_into_shifted_view_errors) {
  auto a = seq({6});
  a.slice(0, 0, 5).copy_(a.slice(0, 1, 6).exp());  // exp is out of place: no overlap, fine
  a.slice(0, 0, 5).sub_(a.slice(0, 1, 6), 2);      // the sub overlaps: raises
  return a;
}
DIFF_CASE(overlap_add_broadcast_row_errors) {
  auto a = seq({3, 3});
  a.add_(a[0]);  // a[0] is read for every row while row 0 is written
  return a;
}
DIFF_CASE(overlap_write_expanded_errors) {
  auto a = seq({3});
  a.expand({2, 3}).mul_(2);
  return a;
}
DIFF_CASE(overlap_fill_expanded_allowed) {
  // Filling is idempotent: LibTorch skips the overlap check for fill_ (and zero_).
  auto a = seq({3});
  a.expand({2, 3}).fill_(2.5);
  auto b = seq({3});
  b.unsqueeze(0).expand({4, 3}).zero_();
  return {a, b};
}
DIFF_CASE(overlap_empty_expanded_allowed) {
  // An empty tensor is dense: no element is written twice (found by fuzz_aliasing).
  auto a = torch::zeros({0, 3});
  a.expand({2, 0, 3}).sigmoid_();
  a.expand({2, 0, 3}).add_(1);
  return a;
}
DIFF_CASE(reshape_copy_is_not_a_view) {
  // reshape that must copy returns a tensor of its own (LibTorch's _unsafe_view): in-place writes
  // into it are ordinary in-place ops under autograd (found by fuzz_aliasing).
  auto w = leaf({4});
  auto r = (w * 1).expand({2, 4}).reshape({-1});
  auto flag = S{r.is_view() ? 1.0 : 0.0};
  r.sigmoid_();
  (r * seq({8})).sum().backward();
  return {flag, r, w.grad()};
}
DIFF_CASE(overlap_index_put_value_aliases_self_errors) {
  auto a = seq({5});
  a.index_put_({torch::tensor({3, 4})}, a.slice(0, 0, 2));
  return a;
}
DIFF_CASE(overlap_full_and_disjoint_allowed) {
  auto a = seq({6});
  a.add_(a);                                      // the same tensor
  a.mul_(a.view({6}));                            // another handle to the same elements
  a.copy_(a);
  a.slice(0, 0, 3).add_(a.slice(0, 3, 6));        // disjoint halves of one storage
  auto b = seq({2, 3});
  b.t().mul_(b.t());                              // same layout through two views
  b.select(0, 1).sub_(b.select(0, 0), 0.5);       // disjoint rows
  return {a, b};
}
DIFF_CASE(overlap_value_reads_allowed) {
  // fill_ and masked_fill_ read a 0-d value before writing (LibTorch clones or reads it).
  auto a = seq({5});
  a.fill_(a[2]);
  auto b = seq({5});
  b.masked_fill_(b > 0, b[1]);
  auto c = seq({5});
  c.index_put_({torch::tensor({0, 1})}, c.slice(0, 3, 5).clone());
  return {a, b, c};
}
DIFF_CASE(overlap_inplace_then_grad_allowed) {
  auto x = leaf({4});
  auto y = x * 2;
  y.add_(y);  // full overlap with history
  y.slice(0, 0, 2).detach().mul_(1);  // no-grad write through a detached view
  (y * seq({4}, 1.0)).sum().backward();
  return {y, x.grad()};
}

// --- nll_loss / cross_entropy: targets outside [0, C) other than ignore_index ------------------
DIFF_CASE(nll_loss_target_minus_one_errors) {
  auto logp = torch::log_softmax(seq({3, 4}), 1);
  return torch::nll_loss(logp, torch::tensor({0, -1, 2}));
}
DIFF_CASE(nll_loss_target_too_large_errors) {
  auto logp = torch::log_softmax(seq({3, 4}), 1);
  return torch::nll_loss(logp, torch::tensor({0, 4, 2}));
}
DIFF_CASE(cross_entropy_target_minus_one_errors) {
  return torch::nn::functional::cross_entropy(seq({3, 4}), torch::tensor({1, 3, -1}));
}
DIFF_CASE(cross_entropy_target_minus_one_sum_errors) {
  namespace F = torch::nn::functional;
  return F::cross_entropy(seq({2, 4, 3}), torch::tensor({0, 1, 2, 3, -2, 0}).view({2, 3}),
                          F::CrossEntropyFuncOptions().reduction(torch::kSum));
}
DIFF_CASE(nll_loss_ignore_index_minus_one_allowed) {
  namespace F = torch::nn::functional;
  auto logp = torch::log_softmax(seq({3, 4}), 1);
  auto t = torch::tensor({0, -1, 2});
  return {F::nll_loss(logp, t, F::NLLLossFuncOptions().ignore_index(-1)),
          F::cross_entropy(seq({3, 4}), t, F::CrossEntropyFuncOptions().ignore_index(-1)),
          torch::nll_loss(logp, torch::tensor({0, -100, 3}))};
}
DIFF_CASE(gather_negative_index_errors) { return seq({2, 3}).gather(1, torch::tensor({0, -1}).view({2, 1})); }
DIFF_CASE(scatter_negative_index_errors) {
  return torch::zeros({2, 3}).scatter(1, torch::tensor({0, -1}).view({2, 1}), seq({2, 1}));
}

// --- view + inplace: a view's gradient follows its base's newest history ---------------------------
DIFF_CASE(grad_view_after_base_inplace) {
  auto x = leaf({4});
  auto y = x * 1;
  auto v = y.view({2, 2});
  y.mul_(2);
  v.sum().backward();
  return {v, x.grad(), S{v.grad_fn()->name() == "AsStridedBackward0" ? 1.0 : 0.0}};
}
DIFF_CASE(grad_slice_after_base_inplace) {
  auto x = leaf({6}, 0.25);
  auto y = x * 1;
  auto v = y.slice(0, 1, 5, 2);
  y.exp_();
  y.mul_(x);
  (v * seq({2}, 1.0)).sum().backward();
  return {v, x.grad()};
}
DIFF_CASE(grad_view_of_view_after_base_inplace) {
  auto x = leaf({2, 3});
  auto y = x.sigmoid();
  auto v = y.t().select(0, 1);  // y[:, 1]
  auto w = y.view({6});
  y.mul_(x);
  ((v * 3).sum() + (w * seq({6})).sum()).backward();
  return {v, w, x.grad()};
}
DIFF_CASE(grad_expand_after_base_inplace) {
  auto x = leaf({3});
  auto y = x * 1;
  auto v = y.expand({2, 3});
  y.mul_(seq({3}, 1.0));
  (v * seq({2, 3})).sum().backward();
  return {v, x.grad()};
}
DIFF_CASE(grad_view_used_before_and_after_base_inplace) {
  auto x = leaf({4});
  auto y = x * 1;
  auto v = y.view({2, 2});
  auto before = v.sum() * 3;  // uses the old history (sum saves no values)
  y.add_(x);
  auto after = v.sum() * 5;   // uses the new one
  (before + after).backward();
  return {before, after, x.grad()};
}
DIFF_CASE(grad_view_after_base_inplace_without_grad) {
  auto x = leaf({4});
  auto y = x * 2;
  auto v = y.view({2, 2});
  {
    torch::NoGradGuard no_grad;
    y.mul_(3);  // a write without history: the view's gradient is the old one
  }
  (v * seq({2, 2})).sum().backward();
  return {v, x.grad()};
}
DIFF_CASE(grad_view_after_base_inplace_then_base_dropped) {
  auto x = leaf({4});
  torch::Tensor v;
  {
    auto y = x * 1;
    v = y.view({2, 2});
    y.mul_(x);
  }  // y's handle is gone; its newest history must still be reached through v
  v.sum().backward();
  return {v, x.grad()};
}
DIFF_CASE(grad_view_saved_then_base_inplace_errors) {
  // The view's old value was saved for backward: the version check still reports it.
  auto x = leaf({4});
  auto y = x * 1;
  auto v = y.view({2, 2});
  auto s = v * v;
  y.mul_(2);
  s.sum().backward();
  return x.grad();
}

// --- found by fuzz_aliasing: an input saved only for another input's gradient ---------------------
DIFF_CASE(grad_mul_by_constant_then_input_inplace) {
  // LibTorch saves x for y = x * c only when c needs a gradient: writing x later is fine.
  auto w = leaf({4});
  auto x = w * 1;
  auto y = x * 2.0;
  auto z = x / seq({4}, 3.0);
  x.add_(1);
  (y.sum() + z.sum()).backward();
  return {y, z, w.grad()};
}
DIFF_CASE(grad_mul_by_tensor_with_grad_then_input_inplace_errors) {
  auto w = leaf({4}), c = leaf({4}, 1.0);
  auto x = w * 1;
  auto y = x * c;  // c's gradient needs x
  x.add_(1);
  y.sum().backward();
  return w.grad();
}
