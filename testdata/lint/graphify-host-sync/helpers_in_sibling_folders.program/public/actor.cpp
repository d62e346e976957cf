#include "../private/convert.h"

struct Actor {
  torch::nn::Linear policy{8, 4};
  torch::Device device{torch::kCUDA};

  std::vector<int> act(const std::vector<std::vector<float>> &observations) {
    torch::NoGradGuard no_grad;
    auto obs = rl::rows_to_tensor(observations).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: 'to' copies a tensor built in host memory ('zeros', convert.h:12) to the device; a copy from pageable memory synchronises with the host and cannot be captured in a CUDA graph [graphify-host-sync]
    auto action = policy(obs).argmax(-1);
    return rl::tensor_to_ints(action);
  }
};

std::vector<int> step(Actor &a, const std::vector<std::vector<float>> &obs) { return a.act(obs); }
