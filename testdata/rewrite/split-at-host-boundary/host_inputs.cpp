// split-at-host-boundary: a helper whose only caller hands it a tensor copied to the CPU computes
// on host memory from its first statement. A core of that work would hold no device work (a CUDA
// graph captures none of it), so the split is refused, with why, and the findings keep their
// recipes.
#include <torch/torch.h>

#include <vector>

struct Point2 {
  float x, y, score;
};

class KeypointDecoder {
public:
  std::vector<Point2> decode(const torch::Tensor &heatmap);

private:
  std::vector<Point2> peaks(const torch::Tensor &scores) const;
};

std::vector<Point2> KeypointDecoder::peaks(const torch::Tensor &scores) const {
  auto dense = scores.exp();
  dense = dense.div(dense.sum(0).add(0.00001));
  auto mask = dense.gt(0.015);
  auto points = mask.nonzero();
  auto xs = points.slice(1, 0, 1).squeeze().to(torch::kFloat32);
  auto ys = points.slice(1, 1).squeeze().to(torch::kFloat32);
  auto confidence = torch::masked_select(dense, mask);
  std::vector<Point2> out;
  for (int64_t i = 0; i < xs.size(0); ++i) // EXPECT-NO-FIX: the loop's body does host work
    out.push_back({xs[i].item<float>(), ys[i].item<float>(), confidence[i].item<float>()});
  return out;
}

std::vector<Point2> KeypointDecoder::decode(const torch::Tensor &heatmap) {
  return peaks(heatmap.squeeze(0).cpu()); // EXPECT-RECIPE: the tensor is copied to host memory
}
