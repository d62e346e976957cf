// early-exit-loop-to-masked: a read that decides whether the rest of a loop body runs, when that
// rest is host work (drawing into an image, filling a host container), is refused for that work:
// no select expresses skipping it, and moving the test and the work out of the region is the fix,
// whatever the read itself would need; a `break` ahead of such work is refused for the early exit
// (a static number of steps with a done mask), that work named as what leaves first. A read assigned to a host local declared earlier is
// advised for what that local is used for.
#include "mock_torch.h"

#include <cstdint>
#include <vector>

struct Image {
  template <typename T> T &at(int row, int col);
};

struct Point {
  float x, y;
};

int mark_confident(const torch::Tensor &scores, Image &canvas) {
  int drawn = 0;
  for (int64_t i = 0; i < scores.size(0); ++i) {
    if (scores[i].item<float>() < 0.7f) // EXPECT-NO-FIX: ^the branch decides whether host code runs: 'canvas.at<uint8_t>' \(line 25\) writes into a host object
      continue;
    canvas.at<uint8_t>(0, static_cast<int>(i)) = 255;
    ++drawn;
  }
  return drawn;
}

std::vector<int> confident_slots(const torch::Tensor &scores) {
  std::vector<int> keep;
  for (int j = 0; j < 4; ++j) {
    float c = scores[j].item<float>(); // EXPECT-NO-FIX: ^the branch leaves the loop at line 33 early, .* static number of steps .*; the host code the loop runs after the test \('keep.push_back' \(line 37\) fills a host container\) leaves the graph region first
    if (c < 0.5f) // EXPECT-NO-FIX: ^the branch leaves the loop at line 33 early, .* static number of steps .*; the host code the loop runs after the test \('keep.push_back' \(line 37\) fills a host container\) leaves the graph region first
      break;
    keep.push_back(j);
  }
  return keep;
}

std::vector<Point> keypoints(const torch::Tensor &kps) {
  std::vector<Point> pts;
  for (int64_t j = 0; j < kps.size(0); ++j) {
    float x, y;
    x = kps[j][0].item<float>(); // EXPECT-RECIPE: collected into a host container
    y = kps[j][1].item<float>(); // EXPECT-RECIPE: collected into a host container
    pts.push_back(Point{x, y});
  }
  return pts;
}
