// RUN-ARGS: --checks=-*,graphify-data-dependent-branch
// Reading an element at a position read from a tensor makes the element data dependent, not the
// container: `sizes` is not written by `sizes[i]`. Storing host data into a container does taint it.
#include <torch/torch.h>

#include <vector>

struct Reader : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<int> sizes = {1, 2, 3};
    int i = x.argmax().item<int>();
    int picked = sizes[i];
    int checked = sizes.at(i);
    if (sizes[0] > 1)
      x = x * 2;
    if (sizes.size() > 2)
      x = x + 1;
    if (picked + checked > 1)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      x = x - 1;
    std::vector<float> history;
    history.push_back(x.sum().item<float>());
    if (history[0] > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      x = x / 2;
    return x;
  }
};
