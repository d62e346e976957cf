// RUN-ARGS: --checks=-*,graphify-data-dependent-branch
// Helpers defined callers-first, eight deep: the analysis iterates until no summary changes, so
// the tensor read at the bottom of the chain reaches the branch at the top.
#include <torch/torch.h>

float h1(const torch::Tensor &x);
float h2(const torch::Tensor &x);
float h3(const torch::Tensor &x);
float h4(const torch::Tensor &x);
float h5(const torch::Tensor &x);
float h6(const torch::Tensor &x);
float h7(const torch::Tensor &x);
float h8(const torch::Tensor &x);

struct Deep : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (h1(x) > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      return x;
    return -x;
  }
};

float h1(const torch::Tensor &x) { return h2(x) + 1; }
float h2(const torch::Tensor &x) { return h3(x) + 1; }
float h3(const torch::Tensor &x) { return h4(x) + 1; }
float h4(const torch::Tensor &x) { return h5(x) + 1; }
float h5(const torch::Tensor &x) { return h6(x) + 1; }
float h6(const torch::Tensor &x) { return h7(x) + 1; }
float h7(const torch::Tensor &x) { return h8(x) + 1; }
float h8(const torch::Tensor &x) { return x.sum().item<float>(); }
