// Updates of a container's elements leave its length alone: a batched inference unit answers
// each queued request through its promise (a method called on an element), and a rollout marks
// the environments that finished in a std::vector<bool> (through its bit proxy). Loops over
// those containers run a fixed number of times; what the flags hold follows the data. A token
// tensor declared empty and given host tensors in a loop that may not run is still in host memory
// after it: reading it waits for no device.
// RUN-ARGS: --graph-region=answer --graph-region=last_token
#include <torch/torch.h>

#include <cstdio>
#include <future>
#include <vector>

void answer(const torch::Tensor &logits, std::vector<std::promise<int>> &promises, int n_envs) {
  auto best = logits.argmax(1).cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'cpu' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto a = best.accessor<int64_t, 1>();
  for (size_t i = 0; i < promises.size(); ++i)
    promises[i].set_value(static_cast<int>(a[i]));
  std::vector<bool> finished(n_envs, false);
  for (int i = 0; i < n_envs; ++i)
    if (a[i] == 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      finished[i] = true;
  int done = 0;
  for (size_t i = 0; i < finished.size(); ++i)
    done += finished[i] ? 1 : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
  std::printf("%d finished\n", done);
}

int last_token(const std::vector<int> &context) {
  at::Tensor tok;
  for (size_t i = 0; i < context.size(); ++i)
    tok = torch::tensor({context[i]}).to(torch::kInt32);
  return tok.item<int>();
}
