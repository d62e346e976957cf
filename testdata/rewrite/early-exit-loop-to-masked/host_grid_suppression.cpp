// A host NMS over a grid drawn from keypoints read out of a selection: the loop's body works on
// host values only, so its test leaves the region with the loop; dropping its `continue` on a
// padded selection would change which points the grid suppresses.
#include "mock_torch.h"

#include <vector>

std::vector<int> suppress_on_grid(torch::Tensor prob, float t, int w) {
  auto pts = (prob > t).nonzero(); // EXPECT-NO-FIX: ^the loop's body does host work \('xs.push_back' \(line 12\) fills a host container\)
  std::vector<int> xs;
  for (int64_t i = 0; i < pts.size(0); i++) // EXPECT-NO-FIX: ^the loop's body does host work \('xs.push_back' \(line 12\) fills a host container\)
    xs.push_back(static_cast<int>(pts[i][1].item<float>()));
  std::vector<char> grid(w, 0);
  for (int x : xs)
    grid[x] = 1;
  std::vector<int> kept;
  for (size_t i = 0; i < xs.size(); i++) { // EXPECT-NO-FIX: ^the loop's body works on host values only \('kept.push_back' \(line 20\) fills a host container\)
    if (grid[xs[i]] != 1) // EXPECT-NO-FIX: ^the test is in a loop whose body works on host values only \(line 17\), which no graph runs: move the loop
      continue;
    kept.push_back(xs[i]);
    if (xs[i] + 1 < w) // EXPECT-NO-FIX: ^the condition depends on the host container 'xs' computed from a value read from a tensor \(line 12\)
      grid[xs[i] + 1] = 0;
  }
  return kept;
}
