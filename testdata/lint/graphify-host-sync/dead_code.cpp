// RUN-ARGS: --checks=-*,graphify-host-sync,graphify-data-dependent-branch,graphify-data-dependent-loop --graph-region=split_instances --graph-region=first_over --graph-region=checked --graph-region=still_live
// Code that never runs is not part of the graph: the statements after an unconditional
// `return`, `throw`, `break` or `continue` of their block (up to the next label or `case`), a
// lambda written there, and a helper called only from there. Post-processing left behind an
// early `return {};` while a model is being brought up reads the masks on the host, and none of
// it can block a capture. Code a jump can reach again, and code behind a condition that merely
// looks constant, is still checked.
#include <torch/torch.h>

#include <cstdlib>
#include <stdexcept>
#include <vector>

struct Instance {
  float score;
  int label;
};

// Called only from dead code below: not a region body.
int count_large(const torch::Tensor &probs) {
  int n = 0;
  for (int64_t i = 0; i < probs.size(0); ++i)
    if (probs[i].item<float>() > 0.5f)
      ++n;
  return n;
}

std::vector<Instance> split_instances(const torch::Tensor &logits) {
  torch::Tensor probs = torch::softmax(logits, 1);
  torch::Tensor host = probs.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return {};

  std::vector<Instance> out;
  auto extract = [&out, &host](int64_t c) {
    for (int64_t i = 0; i < host.size(1); ++i)
      if (host[0][c][i].item<float>() > 0.5f)
        out.push_back({host[0][c][i].item<float>(), static_cast<int>(c)});
  };
  for (int64_t c = 0; c < host.size(1); ++c)
    extract(c);
  if (count_large(host[0][0]) > 3)
    out.clear();
  return out;
}

// After a throw, a break, a continue, an if whose two branches return, a [[noreturn]] call.
float first_over(const torch::Tensor &scores, float t, bool strict) {
  for (int64_t i = 0; i < scores.size(0); ++i) {
    if (strict) {
      continue;
      if (scores[i].item<float>() > t)
        return t;
    }
    break;
    float s = scores[i].item<float>();
    if (s > t)
      return s;
  }
  if (strict)
    return 0.f;
  else
    return 1.f;
  if (scores.max().item<float>() > t)
    return t;
  throw std::runtime_error("unreachable");
  return scores[0].item<float>();
}

float checked(const torch::Tensor &x, bool ok) {
  if (!ok) {
    std::abort();
    return x.sum().item<float>();
  }
  return 0.f;
}

// Still checked: a label a goto jumps to, the cases of a switch after a break, code after a
// return inside a branch, and a condition that only looks constant.
float still_live(const torch::Tensor &x, int mode) {
  float acc = 0.f;
  switch (mode) {
  case 0:
    acc = 1.f;
    break;
  case 1:
    acc = x.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    break;
  }
  if (mode > 2)
    return acc;
  if (acc > 0.f)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    goto done;
  return acc;
done:
  acc += x.mean().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  if (false)
    return x.max().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'item' copies one element to the host; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  return acc;
}
