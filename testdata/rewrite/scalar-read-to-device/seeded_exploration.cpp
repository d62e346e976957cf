// A seed set inside the region beside a fixed read: an epsilon-greedy step reseeds the generator
// each call (to make its exploration repeatable) and reads the best value. The read is fixed;
// manual_seed has no rewrite, and its advice is to seed before the capture, between replays.
#include <torch/torch.h>

torch::Tensor explore(const torch::Tensor &q, double epsilon, uint64_t seed) {
  torch::manual_seed(seed); // EXPECT-RECIPE: ^seed before the capture
  auto noise = torch::rand_like(q) * epsilon;
  float best = (q + noise).max().item<float>();
  return q - best;
}
