// RUN-ARGS: --graph-region=*::stridesFor --graph-region=*::regroup
// Instance segmentation in SOLO's style: the constructor builds, on the host, the cumulative
// number of grid cells per level from the configured grid sizes, and the region reads the level
// boundaries back to fill a stride per cell. The table is a constant the object was built with:
// reading it is no finding, and neither are the slices sized by what it read. A table some other
// method writes in place is the region's data again, and so is one the region builds itself.
#include <torch/torch.h>

#include <vector>

static const std::vector<float> kGridSizes = {40, 36, 24, 16, 12};
static const std::vector<float> kStrides = {8, 8, 16, 32, 32};

class GridLevels {
public:
  GridLevels() { levelEnds_ = torch::from_blob((void *)kGridSizes.data(), {5}, torch::kFloat).clone().pow(2).cumsum(0); }

  torch::Tensor stridesFor(torch::Tensor keep) {
    auto strides = torch::ones({3872}, keep.options());
    int first = levelEnds_[0].item().toInt();
    strides.index_put_({torch::indexing::Slice(torch::indexing::None, first)}, kStrides[0]);
    for (int i = 1; i < 5; ++i) {
      int begin = levelEnds_[i - 1].item().toInt();
      int end = levelEnds_[i].item().toInt();
      strides.index_put_({torch::indexing::Slice(begin, end)}, kStrides[i]);
    }
    return strides * keep;
  }

private:
  torch::Tensor levelEnds_;
};

class RetunedLevels {
public:
  RetunedLevels() : counts_(torch::zeros({5})) {}
  void retune(torch::Tensor observed) { counts_.copy_(observed.cpu()); }

  torch::Tensor regroup(torch::Tensor x) {
    int n = counts_[0].item().toInt();
    return x.narrow(0, 0, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: size argument of 'narrow' depends on a tensor value read on the host{{.*}} [graphify-data-dependent-size]
  }

private:
  torch::Tensor counts_;
};
