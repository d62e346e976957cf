// RUN-ARGS: --graph-region=* --checks=-*,graphify-data-dependent-position
// Objects picked from a host list by a position read from tensor data: the host chooses whose
// tensors change (a tracker's tracks, held through smart pointers or by value).
#include <torch/torch.h>

#include <memory>
#include <utility>
#include <vector>

struct Track {
  torch::Tensor state = torch::zeros({4});
  int hits = 0;
  void update(const torch::Tensor &box) {
    state = state * 0.5 + box * 0.5;
    hits += 1;
  }
};

class Bank {
public:
  torch::Tensor assign(const torch::Tensor &cost, const torch::Tensor &dets) {
    int64_t best = cost.argmin().item<int64_t>();
    tracks_[best]->update(dets[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: position of the object holding tensors taken from the host list 'tracks_' depends on a tensor value read on the host; keep the objects' tensors in one tensor (stack them) and index it on the device with a long tensor [graphify-data-dependent-position]
    kept_[best].update(dets[1]);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: position of the object holding tensors taken from the host list 'kept_' depends on a tensor value read on the host; keep the objects' tensors in one tensor (stack them) and index it on the device with a long tensor [graphify-data-dependent-position]
    // Positions from constants are fine.
    tracks_[0]->update(dets[2]);
    return tracks_[0]->state;
  }

private:
  std::vector<std::unique_ptr<Track>> tracks_;
  std::vector<Track> kept_;
};
