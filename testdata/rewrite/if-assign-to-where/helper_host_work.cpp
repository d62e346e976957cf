// if-assign-to-where: a branch whose helper does host work (an episode log filled on the host) is
// refused for that work, named inside the helper, whatever else the helper calls.
#include "mock_torch.h"
#include <vector>

static void record_terminals(const torch::Tensor &done, std::vector<int> &lengths) {
  auto finished = done.index({done});
  lengths.push_back(3);
}

torch::Tensor step(torch::Tensor x, torch::Tensor done, std::vector<int> &lengths) {
  if (done.any().item<bool>()) { // EXPECT-NO-FIX: ^the branch runs host code: 'record_terminals' \(line 13\), where 'lengths.push_back' \(line 8\) fills a host container, which no graph holds
    record_terminals(done, lengths);
    x = x * 0;
  }
  return x;
}
