// RUN-ARGS: --checks=-*,graphify-data-dependent-branch --graph-region=*
// A host field written only when a condition that follows tensor data holds follows the data:
// written under such a branch in a method, or by a method called under one (an implicit flow
// through the call). A field every step writes, whatever the data, stays static.
#include <torch/torch.h>

#include <vector>

struct Track {
  torch::Tensor state = torch::zeros({4});
  int misses = 0;
  int age = 0;
  void hit(const torch::Tensor &box) {
    misses = 0;
    state = box;
  }
  void older() { age += 1; }
};

struct Tracker {
  std::vector<Track> tracks = std::vector<Track>(4);
  torch::Tensor step(const torch::Tensor &dets) {
    auto s = dets.accessor<float, 2>();
    for (int64_t i = 0; i < 4; ++i) {
      tracks[i].older();
      if (s[i][4] > 0.5f)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
        tracks[i].hit(dets[i].slice(0, 0, 4));
    }
    torch::Tensor sum = torch::zeros({4});
    for (auto &t : tracks) {
      if (t.misses < 3)
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      // CHECK-NOTES: :[[@LINE-6]]:19: note: 'hit' is called here when a condition that follows tensor data holds
        sum = sum + t.state;
      // 'older' runs in every step: 'age' stays static.
      if (t.age > 10)
        sum = sum * 2;
    }
    return sum;
  }
};

struct Counter {
  int skipped = 0;
  torch::Tensor run(const torch::Tensor &x) {
    if (x.sum().item<float>() < 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
      skipped = 1;
    if (skipped > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: branch condition depends on a tensor value read on the host; a traced or captured graph records only one side [graphify-data-dependent-branch]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: set here when a condition that follows tensor data holds
      return x;
    return -x;
  }
};
