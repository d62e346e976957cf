// early-exit-loop-to-masked: loops bounded by a value read from the data that a static bound does
// not make fixed-trip: no bound given (the refusal says how to give one), the value used outside
// the loop's condition (it must stay a host value there), a bound the header reaches only through
// a cast, a bound on the lesser side.
#include <graphify/annotations.h>
#include <torch/torch.h>

torch::Tensor unbounded_steps(torch::Tensor h, torch::Tensor w, torch::Tensor lengths) {
  const int64_t len = lengths.max().item<int64_t>(); // EXPECT-NO-FIX: no static bound
  for (int64_t t = 0; t < len; ++t) // EXPECT-NO-FIX: no static bound beside its data-dependent condition \(if 'len' has a known maximum, give it as a static bound \(GRAPHIFY_STATIC_BOUND\(len, <max>\) on 'unbounded_steps', or StaticBounds: \{"unbounded_steps::len": <max>\} in .graphify.yaml\) and the loop runs to it, masked past 'len'\)
    h = torch::tanh(torch::matmul(h, w) + h);
  return h;
}

// The value also sizes a tensor: it must stay a host number.
GRAPHIFY_STATIC_BOUND(len, 16)
torch::Tensor sized_by_len(torch::Tensor h, torch::Tensor lengths) {
  const int64_t len = lengths.max().item<int64_t>(); // EXPECT-NO-FIX: 'len' is also used at line 19
  auto out = torch::zeros({len});
  for (int64_t t = 0; t < len; ++t) // EXPECT-NO-FIX: 'len' is also used at line 19, where it must stay a host value
    h = h * 0.5;
  return h + out.sum();
}

// Compared through a cast: the bound is there, the form is not.
GRAPHIFY_STATIC_BOUND(steps, 32)
torch::Tensor cast_steps(torch::Tensor h, torch::Tensor budget) {
  int steps = budget.sum().item<int>(); // EXPECT-NO-FIX: 'steps' has a static bound
  for (int64_t t = 0; t < static_cast<int64_t>(steps); ++t) // EXPECT-NO-FIX: 'steps' has a static bound, but the header compares the counter with 'static_cast<int64_t>\(steps\)', not with 'steps' itself
    h = h * 0.5;
  return h;
}

// Counting down from the value: the bound is an upper bound, which says nothing of when 't > 0'
// stops.
GRAPHIFY_STATIC_BOUND(len, 16)
torch::Tensor count_down(torch::Tensor h, torch::Tensor lengths) {
  const int64_t len = lengths.max().item<int64_t>();
  for (int64_t t = len; t > 0; --t) // EXPECT-NO-FIX: the loop has no static bound beside its data-dependent condition$
    h = h * 0.5;
  return h;
}
