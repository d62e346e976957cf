// if-assign-to-where: shapes the rule matches but must not rewrite.
#include "mock_torch.h"
#include <stdexcept>

torch::Tensor in_place_else(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the else branch calls 'add_', which changes state \(line 9\)$
    y = x * 2;
  } else {
    y.add_(1);
  }
  return y;
}

torch::Tensor throws(torch::Tensor x) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: the then branch throws an exception \(line 16\)$
    throw std::runtime_error("positive");
  return x;
}

torch::Tensor host_target(torch::Tensor x) {
  float scale = 1;
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: assigns to 'scale', which is not a tensor
    scale = 2;
  return x * scale;
}

torch::Tensor may_be_undefined(torch::Tensor x) {
  torch::Tensor y;
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: 'y' may be undefined when a branch does not assign it
    y = x * 2;
  return y;
}

torch::Tensor mask_vs_number(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: different dtypes
    y = x > 0;
  else
    y = x * 2;
  return y;
}

torch::Tensor loop_in_branch(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the then branch contains a loop \(line 44\)$
    for (int i = 0; i < 3; ++i)
      y = y * 2;
  }
  return y;
}

torch::Tensor impure_local(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the then branch calls 'add_', which changes state \(line 52\)$
    auto t = y.add_(1);
    y = t * 2;
  }
  return y;
}

// A throw is the obstacle even where the condition could not be lifted either (`x` may hold more
// than one element): the refusal names the throw.
torch::Tensor throws_on_unknown_size(torch::Tensor x) {
  if (x.item<float>() > 0) // EXPECT-NO-FIX: ^the then branch throws an exception \(line [0-9]+\)$
    throw std::runtime_error("positive");
  return x;
}

// A host object the condition reads holds nothing from tensors, but the number it gives is not
// read without an effect (the call counts itself), so it cannot stay in the lifted condition
// (`limits.threshold()` of a const method is kept as a host value: host_and_tensor_tests.cpp).
struct Limits {
  float high;
  int reads = 0;
  float threshold() {
    ++reads;
    return high;
  }
};

torch::Tensor reads_host_object(torch::Tensor x, Limits &limits) {
  torch::Tensor y = x;
  if (x.sum().item<float>() > limits.threshold()) // EXPECT-NO-FIX: the condition reads the host object 'limits' \('limits.threshold\(\)'\), which has no tensor form: read the number it gives into a local before the loop or branch
    y = x * 2;
  return y;
}

// Arithmetic on host values computed from reads: the computed value is the obstacle, named with
// where it comes from; arithmetic on a read kept in a local gets the device recipe.
torch::Tensor computed_distance(torch::Tensor x, torch::Tensor c, float r2) {
  torch::Tensor y = x;
  const float dx = c.max().item<float>() - 1.0f;
  const float dx2 = dx * dx;
  if (dx2 + 0.5f > r2) // EXPECT-NO-FIX: the condition depends on 'dx2', a host value computed on the host from tensor data
    y = x * 2;
  return y;
}

torch::Tensor read_arithmetic(torch::Tensor x, float r2) {
  torch::Tensor y = x;
  float s = x.sum().item<float>(); // EXPECT-NO-FIX: the condition computes .s \* s. on the host from values read from tensors
  if (s * s > r2) // EXPECT-NO-FIX: the condition computes 's \* s' on the host from values read from tensors, and only comparisons and logical operators of them are lifted: compute it with tensor ops on the device
    y = x * 2;
  return y;
}

// A conditional swap of two rows: a write into part of a tensor, which selecting whole values
// cannot express; the refusal says so and how to select the whole updated tensor.
void swap_rows(torch::Tensor boxes, torch::Tensor scores, int64_t i, int64_t j) {
  if (scores[i].item<float>() < scores[j].item<float>()) { // EXPECT-NO-FIX: the then branch writes into part of 'boxes' \(line [0-9]+\), which selecting whole values cannot express: compute the updated tensor on both paths
    auto a = boxes[i].clone();
    boxes[i] = boxes[j];
    boxes[j] = a;
  }
}

// An assertion in a branch that also records a flag on a host object (a decoder's end-of-sequence
// store): removing the throw would leave the host call, so the host call is what the refusal names.
struct EosFlags {
  void set(const char *key, int v);
};

torch::Tensor asserts_and_records(torch::Tensor x, torch::Tensor y, EosFlags &flags) {
  if (x.sum().item<float>() > 0) { // EXPECT-NO-FIX: ^the branch runs host code: 'EosFlags::set' \(line [0-9]+\) is host code
    if (y.dim() != 1)
      throw std::runtime_error("not a sequence");
    flags.set("eos", 1);
    y = x * 2;
  }
  return y;
}
