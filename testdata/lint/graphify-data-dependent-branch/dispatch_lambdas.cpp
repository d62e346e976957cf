// RUN-ARGS: --graph-region=count_large
// A wrapper that calls a kernel inside a lambda (AT_DISPATCH_FLOATING_TYPES's form: the lambda
// rebinds a tensor the wrapper captured by reference) returns what the kernel returned: a list of
// kept indices whose length the scores decide, as when the wrapper calls the kernel directly.
#include <torch/torch.h>

static torch::Tensor kept_above(const torch::Tensor &scores, float t) {
  auto keep_t = torch::zeros({scores.size(0)}, scores.options().dtype(torch::kLong));
  auto s = scores.data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto keep = keep_t.data_ptr<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'data_ptr' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  int64_t n = 0;
  for (int64_t i = 0; i < scores.size(0); ++i)
    if (s[i] > t)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      keep[n++] = i;
  return keep_t.narrow(0, 0, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: size argument of 'narrow' depends on a tensor value read on the host; the result's shape changes with the data, which a static graph cannot hold [graphify-data-dependent-size]
}

static torch::Tensor through_lambda(const torch::Tensor &scores, float t) {
  auto result = torch::empty({0}, scores.options());
  auto run = [&] { result = kept_above(scores, t); };
  run();
  return result;
}

static torch::Tensor directly(const torch::Tensor &scores, float t) { return kept_above(scores, t); }

int64_t count_large(torch::Tensor scores) {
  auto a = through_lambda(scores, 0.5f);
  auto b = directly(scores, 0.5f);
  auto c = torch::empty({0}, scores.options());
  auto same_shape = [&] { c = scores * 2; };
  same_shape();
  int64_t n = 0;
  if (a.sizes()[0] > 10)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    ++n;
  if (b.sizes()[0] > 10)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    ++n;
  if (c.sizes()[0] > 10)
    ++n;
  return n;
}
