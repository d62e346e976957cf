// if-return-to-where: shapes the rule matches but must not rewrite.
#include "mock_torch.h"
#include <iostream>
#include <vector>

torch::Tensor helper(torch::Tensor x);

torch::Tensor in_place_arm(torch::Tensor x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the then branch calls 'add_', which changes state \(line 10\)$
    return x.add_(1);
  return x;
}

torch::Tensor prints(torch::Tensor x) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the branch runs host code: 'std::cout <<' \(line 16\) prints on the host
    std::cout << "positive\n";
    return x * 2;
  }
  return x;
}

torch::Tensor impure_call(torch::Tensor x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: calls 'helper', which is not known to be pure
    return helper(x);
  return x;
}

torch::Tensor shapes_differ(torch::Tensor x) {
  if (x.mean().item<float>() > 0) // EXPECT-NO-FIX: 'x.sum\(\)' has a single element but 'x' has the shape of 'x'
    return x.sum();
  return x;
}

torch::Tensor inexact_constant(torch::Tensor x) {
  if (x.sum().item<float>() > 0.1) // EXPECT-NO-FIX: '0.1' is not exactly representable in float32
    return x;
  return -x;
}

torch::Tensor host_container(torch::Tensor x, std::vector<float> limits) {
  if (x.sum().item<float>() > limits[0]) // EXPECT-NO-FIX: host container 'limits'
    return x;
  return -x;
}

torch::Tensor truncating_read(torch::Tensor x) {
  if (x.sum().item<int64_t>() > 0) // EXPECT-NO-FIX: converts to an integer on the host
    return x;
  return -x;
}

// An early return in a function that returns nothing: the refusal names what it skips.
void scale_unless_positive(torch::Tensor x, torch::Tensor &out) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: the early return skips the rest of the function, which no select expresses
    return;
  out = x * 2;
}
