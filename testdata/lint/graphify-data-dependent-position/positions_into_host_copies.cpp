// Positions into tensors the region copied to the host, as an AlphaZero self-play step does when
// it rebuilds its search nodes from a batch: the copies are the findings, and picking a row of a
// copy at a host counter is host work after them. The same counter into a device tensor is a
// position read on the host.
// RUN-ARGS: --graph-region=rebuild_nodes
#include <torch/torch.h>

#include <vector>

struct Node {
  torch::Tensor prior;
  float value;
};

std::vector<Node> rebuild_nodes(const torch::Tensor &ended, const torch::Tensor &policy, const torch::Tensor &values,
                                const torch::Tensor &states) {
  auto ended_host = ended.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto priors = policy.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  auto host_values = values.to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'to' copies the tensor to host memory; the device-to-host sync cannot be captured in a CUDA graph [graphify-host-sync]
  std::vector<Node> nodes;
  int64_t j = -1;
  for (int64_t i = 0; i < ended.size(0); ++i) {
    if (!ended_host[i].item<bool>())
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      continue;
    ++j;
    nodes.push_back(Node{priors.index({j}), host_values.index({j}).item<float>()});
  }
  nodes.push_back(Node{states.index({j}), 0.f});
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: position argument of 'index' depends on a tensor value read on the host; keep the index on the device as a long tensor instead of reading it [graphify-data-dependent-position]
  return nodes;
}
