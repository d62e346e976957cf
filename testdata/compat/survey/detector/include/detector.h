// A detection backbone and head the way public LibTorch code splits them: the module declared in
// a header, its forward defined in src/detector.cpp, a demo main in src/demo.cpp.
#pragma once
#include <torch/torch.h>

namespace vision {

struct TinyDetectorImpl : torch::nn::Module {
  TinyDetectorImpl() {
    stem = register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).stride(2).padding(1)));
    bn = register_module("bn", torch::nn::BatchNorm2d(8));
    head = register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 6, 1)));
  }
  torch::Tensor forward(torch::Tensor images);

  torch::nn::Conv2d stem{nullptr}, head{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
};
TORCH_MODULE(TinyDetector);

/// Needs its feature size: the forward-match probe builds it with the integer 8.
class ScoreHead : public torch::nn::Module {
 public:
  explicit ScoreHead(int64_t features) : fc_(register_module("fc", torch::nn::Linear(features, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::softmax(fc_(x), 1); }

 private:
  torch::nn::Linear fc_;
};

/// Needs a file: the probe does not guess paths.
struct LabelledHeadImpl : torch::nn::Module {
  explicit LabelledHeadImpl(const std::string &labels_path) : labels(labels_path) {
    fc = register_module("fc", torch::nn::Linear(6, 3));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  std::string labels;
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(LabelledHead);

/// A templated block: the probe cannot name it without its arguments.
template <int Channels>
struct BlockImpl : torch::nn::Module {
  BlockImpl() : conv(register_module("conv", torch::nn::Conv2d(Channels, Channels, 3))) {}
  torch::Tensor forward(torch::Tensor x) { return conv(x); }
  torch::nn::Conv2d conv;
};

}  // namespace vision
