// The headers detection and decoding code includes one by one instead of <torch/torch.h>, with a
// use of what each gives: they must resolve, and give the same names, against both libraries.
#include <torch/data/example.h>
#include <torch/data/samplers/base.h>
#include <torch/data/samplers/sequential.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/options/conv.h>
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <torch/utils.h>
#include <torch/version.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#if TORCH_VERSION_MAJOR < 1 || (TORCH_VERSION_MAJOR == 1 && TORCH_VERSION_MINOR < 13)
#error "written against LibTorch 1.13's API"
#endif

namespace detect {

/// Boxes (N, 4) as x1, y1, x2, y2 and their scores, one example per image.
using BoxExample = torch::data::Example<torch::Tensor, torch::Tensor>;

BoxExample make_example(const torch::Tensor &boxes, const torch::Tensor &scores) { return {boxes, scores}; }

/// Visits images in order, as an evaluation loop does.
std::vector<size_t> first_batch(size_t images, size_t batch) {
  torch::data::samplers::SequentialSampler sampler(images);
  torch::optional<std::vector<size_t>> indices = sampler.next(batch);
  return indices ? *indices : std::vector<size_t>{};
}

/// Images grouped by aspect ratio, one group after the other (a custom sampler must save and load
/// its position, as LibTorch's Sampler declares).
class GroupedSampler : public torch::data::samplers::Sampler<> {
public:
  explicit GroupedSampler(std::vector<size_t> order) : order_(std::move(order)) {}
  void reset(torch::optional<size_t>) override { pos_ = 0; }
  torch::optional<std::vector<size_t>> next(size_t batch_size) override {
    if (pos_ >= order_.size()) return torch::nullopt;
    const size_t end = std::min(order_.size(), pos_ + batch_size);
    std::vector<size_t> batch(order_.begin() + static_cast<std::ptrdiff_t>(pos_), order_.begin() + static_cast<std::ptrdiff_t>(end));
    pos_ = end;
    return batch;
  }
  void save(torch::serialize::OutputArchive &archive) const override {
    archive.write("pos", torch::tensor(static_cast<int64_t>(pos_)), /*is_buffer=*/true);
  }
  void load(torch::serialize::InputArchive &archive) override {
    torch::Tensor pos = torch::empty({}, torch::kLong);
    archive.read("pos", pos, /*is_buffer=*/true);
    pos_ = static_cast<size_t>(pos.item<int64_t>());
  }

private:
  std::vector<size_t> order_;
  size_t pos_ = 0;
};

torch::Tensor head(const torch::Tensor &features) {
  torch::NoGradGuard no_grad;
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(8, 4, 1));
  return torch::nn::functional::relu(conv(features)).to(torch::kFloat32);
}

} // namespace detect
