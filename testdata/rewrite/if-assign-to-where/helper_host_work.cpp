// if-assign-to-where: a branch whose helper does host work (an episode log filled on the host) is
// refused for that work, named inside the helper, whatever else the helper calls; a container local
// to the helper is not host work the branch keeps.
#include "mock_torch.h"
#include <vector>

static void record_terminals(const torch::Tensor &done, std::vector<int> &lengths) {
  auto finished = done.index({done});
  lengths.push_back(3);
}

torch::Tensor step(torch::Tensor x, torch::Tensor done, std::vector<int> &lengths) {
  if (done.any().item<bool>()) { // EXPECT-NO-FIX: ^the branch runs host code: 'record_terminals' \(line 14\), where 'lengths.push_back' \(line 9\) fills a host container, which no graph holds
    record_terminals(done, lengths);
    x = x * 0;
  }
  return x;
}

// A helper whose container is its own local (parts gathered for a sum) leaves nothing on the host
// when it returns: the refusal is not host work, but the purity of the call it cannot prove.
static torch::Tensor twice(const torch::Tensor &x) {
  std::vector<torch::Tensor> parts;
  parts.push_back(x);
  parts.push_back(x);
  return parts[0] + parts[1];
}

torch::Tensor maybe_twice(torch::Tensor x, torch::Tensor y) {
  if (x.sum().item<float>() > 0) // EXPECT-NO-FIX: ^the then branch calls 'twice' \(line 31\), which calls 'push_back', which is not known to be pure
    y = twice(x);
  return y;
}
