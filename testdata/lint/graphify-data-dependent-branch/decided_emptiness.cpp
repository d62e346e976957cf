// RUN-ARGS: --graph-region=*
// Tests whose answer the path decides: after `if (kept.empty()) return ...;` the list holds an
// element until its length changes again, so a later `!kept.empty()` does not follow the data (and
// neither does what is assigned under it); a local of a loop's body is made again in every
// iteration, so a `continue` taken before it is filled says nothing about its length.
#include <torch/torch.h>

#include <vector>

std::vector<float> mask_rows(const torch::Tensor &scores, const torch::Tensor *proto) {
  auto s = scores.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto a = s.accessor<float, 1>();
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < s.size(0); ++i)
    if (a[i] > 0.5f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      kept.push_back(i);
  if (kept.empty())
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    return {};
  int64_t h = 0;
  std::vector<float> out;
  if (proto && !kept.empty()) {
    h = proto->size(1);
    auto flat = proto->reshape({proto->size(0), h});
    out.push_back(static_cast<float>(flat.size(1)));
  }
  // Its length changes: the question is the data's again.
  kept.pop_back();
  if (!kept.empty())
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    out.push_back(1.f);
  return out;
}

struct Shape {
  std::vector<float> points;
};

int64_t per_row(const torch::Tensor &scores) {
  auto a = scores.accessor<float, 1>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'accessor' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  int64_t n = 0;
  for (int64_t i = 0; i < scores.size(0); ++i) {
    Shape one;
    if (a[i] < 0.f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      continue;
    one.points.resize(4);
    for (size_t k = 0; k != one.points.size(); ++k)
      n += 1;
  }
  return n;
}

// Emptied in each iteration is not declared in it: after the loop the list holds what the last
// iteration added, which its `continue` decided.
int64_t last_kept(const torch::Tensor &scores) {
  auto a = scores.accessor<float, 1>();
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'accessor' exposes the tensor's memory to host reads; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  std::vector<int> v;
  for (int64_t i = 0; i < 4; ++i) {
    v.clear();
    if (a[i] < 0.f)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      continue;
    v.push_back(1);
  }
  int64_t n = 0;
  for (size_t k = 0; k != v.size(); ++k)
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: loop condition depends on a tensor value read on the host; a traced or captured graph records a fixed number of iterations [graphify-data-dependent-loop]
    n += 1;
  return n;
}
