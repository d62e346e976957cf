// The headers detection and decoding code includes one by one instead of <torch/torch.h>, with a
// use of what each gives: they must resolve, and give the same names, against both libraries.
#include <torch/data/example.h>
#include <torch/data/samplers/base.h>
#include <torch/data/samplers/sequential.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/options/conv.h>
#include <torch/types.h>
#include <torch/utils.h>
#include <torch/version.h>

#include <cstdint>
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

torch::Tensor head(const torch::Tensor &features) {
  torch::NoGradGuard no_grad;
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(8, 4, 1));
  return torch::nn::functional::relu(conv(features)).to(torch::kFloat32);
}

} // namespace detect
