// early-exit-loop-to-masked: loops whose effects cannot be masked.
#include <torch/torch.h>

#include <vector>

std::vector<torch::Tensor> collect(torch::Tensor h, int64_t max_len) {
  std::vector<torch::Tensor> outputs;
  for (int64_t t = 0; t < max_len; ++t) {
    h = torch::tanh(h);
    outputs.push_back(h);
    if (h.sum().item<float>() > 1.0f) // EXPECT-NO-FIX: the loop appends to the host container 'outputs' \(line 10\).*preallocated tensor
      break;
  }
  return outputs;
}

torch::Tensor doubles(torch::Tensor h, int64_t max_len) {
  int64_t scale = 1;
  for (int64_t t = 0; t < max_len && h.max().item<float>() > 0.5f; ++t) { // EXPECT-NO-FIX: updates the host variable 'scale' \(line 21\)
    h = h * 0.5;
    scale = scale * 2;
  }
  return h * scale;
}

torch::Tensor unbounded(torch::Tensor h) {
  for (;;) {
    h = h * 0.5;
    if (h.max().item<float>() < 0.1f) // EXPECT-NO-FIX: the loop has no condition
      break;
  }
  return h;
}

torch::Tensor outside_counter(torch::Tensor h) {
  int t = 0;
  for (t = 0; t < 10 && h.max().item<float>() > 0.1f; ++t) // EXPECT-NO-FIX: the loop counter is declared outside the loop
    h = h * 0.5;
  return h * t;
}

// The original reads 'stop' only on steps where the first test holds; the mask would read it on
// every step, where a 'stop' of several elements throws.
torch::Tensor guarded_stop(torch::Tensor h, torch::Tensor w, torch::Tensor stop) {
  for (int64_t t = 0; t < 8; ++t) {
    h = torch::matmul(h, w).relu();
    if (h.max().item<float>() > 3 && stop.item<bool>()) // EXPECT-NO-FIX: ^cannot prove that 'stop' has a single element, and the original reads it only when the test before it allows
      break;
  }
  return h;
}

// A decode loop with no bound leaves early on a read: a graph runs a fixed sequence of steps, so
// neither the read nor the branch has a select form.
torch::Tensor until_small(torch::Tensor h) {
  while (true) {
    h = h * 0.5;
    if (h.max().item<float>() < 0.1f) // EXPECT-RECIPE: the branch leaves the loop at line 56 early
      break;
  }
  return h;
}
