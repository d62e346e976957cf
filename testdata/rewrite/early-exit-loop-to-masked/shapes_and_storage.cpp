// early-exit-loop-to-masked: each masked update `v = torch::where(active, e, v)` selects between
// the update and the value v held before the loop, so both must have one shape (a recurrence
// such as `done = torch::logical_or(done, ...)` keeps it by induction), and v must not share
// storage that an in-place write after the loop relies on.
#include "mock_torch.h"

torch::Tensor selection_then_full(torch::Tensor x) {
  auto sel = x.masked_select(x > 0); // EXPECT-NO-FIX: updates 'sel' with a value of another shape
  for (int64_t t = 0; t < 4 && sel.sum().item<float>() > 1; ++t) { // EXPECT-NO-FIX: updates 'sel' with a value of another shape: 'sel' has a shape that depends on tensor values
    sel = x * 0.5;
  }
  return sel;
}

torch::Tensor alias_written_after(torch::Tensor x) {
  auto h = x;
  for (int64_t t = 0; t < 8; ++t) {
    h = h * 0.5;
    if (h.sum().item<float>() < 1) // EXPECT-NO-FIX: 'h' may share storage with 'x' after the loop, but where\(\) would make it a new tensor: the in-place write 'h.add_\(1\)' \(line 22\)
      break;
  }
  h.add_(1);
  return x;
}

// The recurrence keeps the shape of the value before the loop; nothing is written in place.
torch::Tensor recurrence(torch::Tensor x, torch::Tensor tok) {
  torch::Tensor done = tok == 0;
  for (int64_t t = 0; t < 8 && !done.all().item<bool>(); ++t) {
    x = x.relu() * 0.5;
    done = torch::logical_or(done, tok == t);
  }
  return x;
}
