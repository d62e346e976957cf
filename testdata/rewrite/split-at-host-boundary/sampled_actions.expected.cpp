// split-at-host-boundary beside a pack recipe: an RL policy samples on the device and hands the
// actions back as host numbers. The split moves the sampling after the replay; the finding on
// multinomial keeps its own recipe (the exponential race), which keeps it in the graph.
#include <torch/torch.h>

#include <vector>

static at::Tensor sample_actions_graph(torch::Tensor logits,
                                       double temperature) {
  auto probs = torch::softmax(logits / temperature, -1);
  return probs;
}

/// graphify: host epilogue of 'sample_actions_graph' (runs the host part, from
/// line 10, on the core's results; not a graph region)
std::vector<int64_t> sample_actions(torch::Tensor logits, double temperature) {
  at::Tensor probs = sample_actions_graph(logits, temperature);
  auto actions = torch::multinomial(probs, 1, true)
                     .squeeze(-1);     // EXPECT-RECIPE: ^draw with the same
                                       // exponential race on the device
  auto host = actions.to(torch::kCPU); // EXPECT-RECIPE: ^the tensor is copied
                                       // to host memory: move the copy
  std::vector<int64_t> out;
  for (int64_t i = 0; i < host.size(0); ++i)
    out.push_back(host[i].item<int64_t>());
  return out;
}
