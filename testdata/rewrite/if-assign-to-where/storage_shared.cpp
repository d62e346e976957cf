// if-assign-to-where: `if (c) v = e;` leaves v the very tensor it held on the path that does not
// assign it (`auto v = x;` makes v and x one tensor), but `v = torch::where(c, e, v)` is a new
// tensor on every path. An in-place write after the if through v, or through what v shares,
// would then reach only one of them: such ifs are refused, and the rest are rewritten.
#include "mock_torch.h"

void scale_in_place(torch::Tensor t) { t.mul_(2); }

torch::Tensor write_through_alias(torch::Tensor x) {
  auto v = x;
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: 'v' may share storage with 'x' after the if, but where\(\) would make it a new tensor: the in-place write 'v.add_\(1\)' \(line 14\)
    v = x * 2;
  }
  v.add_(1);
  return x;
}

torch::Tensor write_to_the_shared_tensor(torch::Tensor x) {
  torch::Tensor v = x.contiguous();
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: 'v' may share storage with 'x' after the if
    v = x.relu();
  }
  x.index_put_({0}, 1);
  return v;
}

torch::Tensor parameter_reassigned(torch::Tensor x) {
  if (x.mean().item<float>() > 0) { // EXPECT-NO-FIX: 'x' may share storage with the caller's tensor after the if
    x = x * 2;
  }
  x += 1;
  return x;
}

torch::Tensor helper_writes(torch::Tensor x) {
  auto v = x;
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: the in-place write 'scale_in_place\(v\)'
    v = x.abs();
  }
  scale_in_place(v);
  return v;
}

torch::Tensor view_assignment(torch::Tensor x) {
  auto v = x;
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: 'v' may share storage with 'x' after the if
    v = x.exp();
  }
  v[0] = x.sum();
  return x;
}

torch::Tensor written_earlier_in_the_loop(torch::Tensor x) {
  auto v = x;
  for (int i = 0; i < 3; ++i) {
    v.add_(1);
    if (v.sum().item<float>() > 0) { // EXPECT-NO-FIX: 'v' may share storage with 'x' after the if
      v = v * 2;
    }
  }
  return v;
}

// New tensors on every path, or no in-place write that can reach them: rewritten.
torch::Tensor fresh_on_every_path(torch::Tensor x) {
  auto v = x * 1;
  if (x.sum().item<float>() > 0) {
    v = x * 2;
  }
  v.add_(1);
  return v;
}

torch::Tensor no_write_after(torch::Tensor x) {
  auto v = x;
  if (x.sum().item<float>() > 0) {
    v = x * 2;
  }
  return v + 1;
}

torch::Tensor write_to_another_tensor(torch::Tensor x, torch::Tensor out) {
  auto v = x;
  if (x.sum().item<float>() > 0) {
    v = x * 2;
  }
  out.add_(1);
  return v + out;
}

torch::Tensor stored_through_a_reference(torch::Tensor x) {
  torch::Tensor v;
  torch::Tensor &r = v;
  v = x * 1;
  r = x; // v is now x itself, which the analysis sees only as "stored through a reference"
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: 'v' may share storage with what 'v' returns
    v = x * 2;
  }
  v.add_(1);
  return x;
}
