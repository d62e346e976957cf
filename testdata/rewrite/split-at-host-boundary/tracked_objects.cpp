// Loops over pairs matched on the host whose body changes objects picked from a host list: the
// advice is to keep the objects' state as one tensor, not to mask the loop.
#include <torch/torch.h>

#include <memory>
#include <utility>
#include <vector>

struct Track {
  torch::Tensor state = torch::zeros({4});
  void update(const torch::Tensor &box) { state = state * 0.5 + box * 0.5; }
};

struct Bank {
  std::vector<std::unique_ptr<Track>> tracks;

  torch::Tensor assign(const torch::Tensor &cost, const torch::Tensor &dets) {
    std::vector<std::pair<int, int>> matches;
    auto c = cost.accessor<float, 2>(); // EXPECT-NO-FIX: the branch runs host code: .matches.push_back. \(line 23\) fills a host container
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        if (c[i][j] < 0.5f) // EXPECT-NO-FIX: the branch runs host code: .matches.push_back. \(line 23\) fills a host container
          matches.push_back({i, j});
    for (const auto &m : matches) // EXPECT-RECIPE: in the loop's body, 'tracks\[m.second\]->update' \(line [0-9]+\) changes an object the host picks from the list 'tracks'.*one tensor with a row per object
      tracks[m.second]->update(dets[m.first]);
    return tracks[0]->state;
  }
};
