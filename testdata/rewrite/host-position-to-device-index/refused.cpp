// host-position-to-device-index: refused shapes.
#include <torch/torch.h>

#include <iostream>

torch::Tensor also_printed(torch::Tensor x, torch::Tensor scores) {
  int64_t i = scores.argmax().item<int64_t>(); // EXPECT-NO-FIX: 'i' is also used at line 8, where it must stay a host value
  std::cout << i << "\n";
  return x[i]; // EXPECT-NO-FIX: 'i' is also used at line 8
}

torch::Tensor reassigned(torch::Tensor x, torch::Tensor scores) {
  int64_t i = scores.argmax().item<int64_t>(); // EXPECT-NO-FIX: 'i' is assigned again
  i = i + 1;
  return x[i]; // EXPECT-NO-FIX: 'i' is assigned again
}

torch::Tensor dynamic_dim(torch::Tensor x, torch::Tensor scores, int64_t d) {
  int64_t i = scores.argmax().item<int64_t>(); // EXPECT-NO-FIX: the dimension of select\(\) is not a non-negative constant
  return x.select(d, i); // EXPECT-NO-FIX: the dimension of select\(\) is not a non-negative constant
}

torch::Tensor beside_a_mask(torch::Tensor x, torch::Tensor scores) {
  int64_t i = scores.argmax().item<int64_t>(); // EXPECT-NO-FIX: the index list also holds 'x > 0'
  return x.index({i, x > 0}); // EXPECT-NO-FIX: the index list also holds 'x > 0'
}

torch::Tensor late_value(torch::Tensor t, torch::Tensor scores, torch::Tensor rows) {
  int64_t i = scores.argmax().item<int64_t>(); // EXPECT-NO-FIX: would no longer broadcast
  t.index_put_({torch::indexing::Slice(), i}, rows); // EXPECT-NO-FIX: would no longer broadcast
  return t;
}

torch::Tensor bounds_a_slice(torch::Tensor x, torch::Tensor lengths) {
  const auto n = (lengths > 0).sum().item<int64_t>(); // EXPECT-NO-FIX: 'Slice\(None, n\)' at line 37 makes the result's size depend on the value
  using namespace torch::indexing;
  return x.index({Slice(None, n), Ellipsis});
}

// A position read from a floating tensor: item<int64_t>() raises on NaN, infinity and values
// beyond int64, where a long index tensor would hold a wrapped position and raise another error.
torch::Tensor floating_position(torch::Tensor x, torch::Tensor w) {
  auto k = x.abs().sum().item<int64_t>(); // EXPECT-NO-FIX: 'x.abs\(\).sum\(\)' may be a floating tensor
  return x + w[k]; // EXPECT-NO-FIX: 'x.abs\(\).sum\(\)' may be a floating tensor
}

torch::Tensor parameter_of_unknown_dtype(torch::Tensor x, torch::Tensor count) {
  return x[count.max().item<int64_t>()]; // EXPECT-NO-FIX: 'count.max\(\)' may be a floating tensor
}
