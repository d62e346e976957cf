// A policy's sampling step and a training loop that checkpoints, in the style of LibTorch PPO
// agents. multinomial reads its probabilities back when it draws one sample, also with
// replacement written out, or any number without replacement; several samples with replacement
// are checked in the kernel. torch::save moves every tensor through host memory, torch::load
// copies every parameter in from pageable memory (restore() is outside the regions).
// RUN-ARGS: --graph-region=Agent::act --graph-region=Agent::train_epoch
#include <torch/torch.h>

#include <string>

struct PolicyImpl : torch::nn::Module {
  PolicyImpl() : head(register_module("head", torch::nn::Linear(8, 4))) {}
  torch::Tensor forward(torch::Tensor obs) { return torch::softmax(head(obs), -1); }
  torch::nn::Linear head;
};
TORCH_MODULE(Policy);

struct Agent {
  Policy policy;
  torch::optim::Adam optimizer{policy->parameters(), torch::optim::AdamOptions(3e-4)};
  std::string checkpoint = "policy.pt";

  torch::Tensor act(torch::Tensor obs) {
    torch::NoGradGuard no_grad;
    auto probs = policy(obs);
    auto action = torch::multinomial(probs, 1, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'multinomial' reads back whether its probabilities are valid, to raise on them (one sample); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto greedy_pair = probs.multinomial(2, false);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'multinomial' reads back whether its probabilities are valid, to raise on them (without replacement); the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    auto rollouts = torch::multinomial(probs, 4, /*replacement=*/true);
    return torch::cat({action, greedy_pair, rollouts}, -1);
  }

  void train_epoch(torch::Tensor obs, torch::Tensor advantages, int64_t epoch) {
    auto logp = torch::log(policy(obs)).gather(-1, advantages.argmax(-1, true));
    auto loss = -(logp * advantages.amax(-1, true)).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (epoch == 0)
      torch::load(policy, checkpoint);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'load' reads tensor values from a file into the tensors (a module's parameters), copying them from pageable host memory; it is illegal or unsafe during CUDA stream capture [graphify-capture-unsafe-api]
    if (epoch % 10 == 0) {
      torch::save(policy, checkpoint);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'save' writes tensor values to a file, copying each tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
      torch::save(optimizer, "optimizer.pt");
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'save' writes tensor values to a file, copying each tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
    }
  }

  void restore() { torch::load(policy, checkpoint); }
};
