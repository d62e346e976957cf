// Per-class counts of detections, kept in keyed host containers. A map or set gains an element
// only for a key it does not hold yet, so how many it holds follows the keys stored: classes read
// from the detections make its size data-dependent (`counts[c]++`, `labels.insert(c)`,
// `best.emplace(c, s)`), and testing it is a branch on the data. Keys from a static loop leave
// the size static.
// RUN-ARGS: --checks=-*,graphify-data-dependent-branch --graph-region=classesSeen
#include <torch/torch.h>

#include <map>
#include <set>
#include <unordered_map>
#include <vector>

std::vector<int> classesSeen(const torch::Tensor &dets) {
  std::map<int, int> counts;
  std::set<int64_t> labels;
  std::unordered_map<int, float> best;
  auto cls = dets.select(1, 5).to(torch::kInt).contiguous();
  for (int64_t i = 0; i < cls.size(0); i++) {
    int c = cls[i].item<int>();
    counts[c]++;
    labels.insert(c);
    best.emplace(c, 0.f);
  }
  std::vector<int> out;
  if (counts.size() > 3)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    out.push_back(1);
  if (labels.size() > 3)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    out.push_back(2);
  if (best.empty())
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    out.push_back(3);
  std::map<int, int> fixed;
  for (int k = 0; k < 4; k++)
    fixed[k] = 0;
  if (fixed.size() > 3)
    out.push_back(4);
  return out;
}
